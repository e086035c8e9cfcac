// Names of the report vocabulary, and the options a configuration gives.
#include "aicore/check/options.hpp"
#include "aicore/check/report.hpp"

namespace aicore::check {

const char* to_string(Severity s) {
  return s == Severity::Error ? "error" : "warning";
}

const char* to_string(ReportKind k) {
  switch (k) {
    case ReportKind::DataRace:
      return "data race";
    case ReportKind::CrossCoreRace:
      return "cross-core data race";
    case ReportKind::UninitRead:
      return "uninitialised read";
    case ReportKind::Deadlock:
      return "deadlock";
    case ReportKind::DoubleSetFlag:
      return "double SetFlag";
    case ReportKind::InterlockBoundary:
      return "Mmad interlock boundary";
    case ReportKind::FlagLeftSet:
      return "flag left set";
    case ReportKind::ReservedEventId:
      return "reserved event id";
    case ReportKind::UselessSync:
      return "unneeded synchronisation";
    case ReportKind::PipeSBarrier:
      return "PipeBarrier<PIPE_S>";
    case ReportKind::UnitFlagMisuse:
      return "unitFlag misuse";
    case ReportKind::UnitFlagLeftSet:
      return "unit flags left set";
    case ReportKind::TypeConfusion:
      return "type confusion";
    case ReportKind::DuplicateWrite:
      return "duplicate copy";
  }
  return "?";
}

const char* code_of(ReportKind k) {
  switch (k) {
    case ReportKind::DataRace:
      return "race";
    case ReportKind::CrossCoreRace:
      return "cross-core-race";
    case ReportKind::UninitRead:
      return "uninit";
    case ReportKind::Deadlock:
      return "deadlock";
    case ReportKind::DoubleSetFlag:
      return "double-set";
    case ReportKind::InterlockBoundary:
      return "interlock-boundary";
    case ReportKind::FlagLeftSet:
      return "flag-left-set";
    case ReportKind::ReservedEventId:
      return "reserved-event-id";
    case ReportKind::UselessSync:
      return "unneeded-sync";
    case ReportKind::PipeSBarrier:
      return "pipe-s-barrier";
    case ReportKind::UnitFlagMisuse:
      return "unitflag";
    case ReportKind::UnitFlagLeftSet:
      return "unitflag-left-set";
    case ReportKind::TypeConfusion:
      return "type-confusion";
    case ReportKind::DuplicateWrite:
      return "duplicate";
  }
  return "?";
}

const char* to_string(Fix::Kind k) {
  switch (k) {
    case Fix::Kind::None:
      return "none";
    case Fix::Kind::Flag:
      return "flag";
    case Fix::Kind::Barrier:
      return "barrier";
    case Fix::Kind::ViaScalar:
      return "via-scalar";
    case Fix::Kind::PipeAll:
      return "pipe-all";
    case Fix::Kind::Separate:
      return "separate";
    case Fix::Kind::SyncAll:
      return "sync-all";
    case Fix::Kind::Atomic:
      return "atomic";
    case Fix::Kind::Edit:
      return "edit";
    case Fix::Kind::Remove:
      return "remove";
  }
  return "?";
}

CheckOptions options_from(const config::Config& cfg) {
  CheckOptions o;
  o.mmad_interlock_fractals = cfg.check.mmad_interlock_fractals;
  const config::Buffers& b = cfg.buffers;
  o.capacity[static_cast<size_t>(isa::Space::GM)] = b.gm_max_bytes;
  o.capacity[static_cast<size_t>(isa::Space::L1)] = b.l1_bytes;
  o.capacity[static_cast<size_t>(isa::Space::L0A)] = b.l0a_bytes;
  o.capacity[static_cast<size_t>(isa::Space::L0B)] = b.l0b_bytes;
  o.capacity[static_cast<size_t>(isa::Space::L0C)] = b.l0c_bytes;
  o.capacity[static_cast<size_t>(isa::Space::SparseIndex)] = b.sparse_index_bytes;
  o.capacity[static_cast<size_t>(isa::Space::BiasTable)] = b.bias_table_bytes;
  return o;
}

}  // namespace aicore::check
