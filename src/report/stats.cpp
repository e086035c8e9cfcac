#include "aicore/report/stats.hpp"

#include <cstdio>

#include "aicore/common/version.hpp"
#include "aicore/config/json.hpp"

namespace aicore::report {

using isa::Pipe;

const char* to_string(Path p) {
  switch (p) {
    case Path::GmToL1:
      return "GM->L1";
    case Path::L1ToL0A:
      return "L1->L0A";
    case Path::L1ToL0B:
      return "L1->L0B";
    case Path::L1ToL0BSparse:
      return "L1->L0B(sparse)";
    case Path::L0CToGm:
      return "L0C->GM";
    case Path::L1ToBT:
      return "L1->BT";
  }
  return "?";
}

void StatsCollector::Figures::add(const Figures& o) {
  for (size_t p = 0; p < waits.size(); ++p) {
    waits[p].flag += o.waits[p].flag;
    waits[p].barrier += o.waits[p].barrier;
    waits[p].port += o.waits[p].port;
    waits[p].unit_flag += o.waits[p].unit_flag;
    waits[p].queue_full += o.waits[p].queue_full;
  }
  for (size_t i = 0; i < path_bytes.size(); ++i) path_bytes[i] += o.path_bytes[i];
  macs += o.macs;
  dense_macs += o.dense_macs;
  sparse += o.sparse;
  cube.add(o.cube);
}

StatsCollector::Figures StatsCollector::core(isa::CoreId c) const {
  return c.value < cores_.size() ? cores_[c.value] : Figures{};
}

StatsCollector::Figures StatsCollector::total() const {
  Figures t;
  for (const Figures& f : cores_) t.add(f);
  return t;
}

void StatsCollector::on_instruction(const model::InstrRecord& r) {
  if (cores_.size() <= r.core.value) cores_.resize(r.core.value + 1);
  Figures& f = cores_[r.core.value];
  PipeWaits& w = f.waits[static_cast<size_t>(r.pipe)];
  switch (r.wait_cause) {
    case model::WaitCause::Flag:
      w.flag += r.wait_cycles;
      break;
    case model::WaitCause::Barrier:
      w.barrier += r.wait_cycles;
      break;
    case model::WaitCause::Port:
    case model::WaitCause::UnitFlag:  // a port wait may follow the unit-flag wait
      w.port += r.wait_cycles - r.unit_flag_cycles;
      break;
    default:
      break;
  }
  w.unit_flag += r.unit_flag_cycles;
  w.queue_full += r.queue_wait_cycles;
  f.macs += r.macs;
  f.dense_macs += r.dense_macs;
  f.cube.add(r);
  const isa::Op& op = r.instr->op;
  if (std::holds_alternative<isa::MmadWithSparse>(op)) ++f.sparse;
  if (const auto p = path_of(op)) f.path_bytes[static_cast<size_t>(*p)] += r.bytes;
}

std::optional<Path> path_of(const isa::Op& op) {
  if (std::holds_alternative<isa::DataCopy>(op) || std::holds_alternative<isa::DataCopyNd2Nz>(op))
    return Path::GmToL1;
  if (const auto* ld = std::get_if<isa::LoadData>(&op))
    return ld->dst.space == isa::Space::L0A ? Path::L1ToL0A : Path::L1ToL0B;
  if (const auto* l3 = std::get_if<isa::LoadData3DV2>(&op))
    return l3->dst.space == isa::Space::L0A ? Path::L1ToL0A : Path::L1ToL0B;
  if (const auto* lt = std::get_if<isa::LoadDataWithTranspose>(&op))
    return lt->dst.space == isa::Space::L0A ? Path::L1ToL0A : Path::L1ToL0B;
  if (std::holds_alternative<isa::LoadDataWithSparse>(op)) return Path::L1ToL0BSparse;
  if (std::holds_alternative<isa::Fixpipe>(op)) return Path::L0CToGm;
  if (std::holds_alternative<isa::DataCopyL1ToBT>(op)) return Path::L1ToBT;
  return std::nullopt;
}

namespace {

const Pipe kReported[] = {Pipe::S, Pipe::MTE2, Pipe::MTE1, Pipe::M, Pipe::FIX};

double path_peak(Path p, const config::Config& cfg) {
  switch (p) {
    case Path::GmToL1:
      return cfg.gm.read.bytes_per_cycle;
    case Path::L1ToL0A:
      return cfg.mte1.to_l0a.bytes_per_cycle;
    case Path::L1ToL0B:
      return cfg.mte1.to_l0b.bytes_per_cycle;
    case Path::L1ToL0BSparse:
      return cfg.mte1.sparse.bytes_per_cycle;
    case Path::L0CToGm:
      return cfg.gm.write.bytes_per_cycle;
    case Path::L1ToBT:
      return cfg.mte1.to_bt.bytes_per_cycle;
  }
  return 0;
}

const char* ratio_name(Pipe p) {
  switch (p) {
    case Pipe::S:
      return "aic_scalar_ratio";
    case Pipe::MTE2:
      return "aic_mte2_ratio";
    case Pipe::MTE1:
      return "aic_mte1_ratio";
    case Pipe::M:
      return "aic_mac_ratio";
    case Pipe::FIX:
      return "aic_fixpipe_ratio";
    default:
      return "";
  }
}

double ratio(uint64_t a, uint64_t b) {
  return b ? static_cast<double>(a) / static_cast<double>(b) : 0.0;
}

using Pipes = std::array<model::PipeSummary, isa::kPipeCount>;

// The chip's pipes: each pipe's figures summed over the cores.
Pipes summed_pipes(const model::ChipSummary& s) {
  Pipes out{};
  for (const model::CoreSummary& c : s.cores)
    for (size_t p = 0; p < out.size(); ++p) {
      out[p].busy_cycles += c.pipes[p].busy_cycles;
      out[p].active_cycles += c.pipes[p].active_cycles;
      out[p].aic_time_cycles += c.pipes[p].aic_time_cycles;
      out[p].stall_cycles += c.pipes[p].stall_cycles;
      out[p].instructions += c.pipes[p].instructions;
    }
  return out;
}

Pipe bound_pipe(const Pipes& pipes) {
  Pipe best = Pipe::M;
  uint64_t most = 0;
  for (Pipe p : kReported) {
    if (p == Pipe::S) continue;
    const uint64_t b = pipes[static_cast<size_t>(p)].busy_cycles;
    if (b > most) {
      most = b;
      best = p;
    }
  }
  return best;
}

// The per-pipe, per-path and Cube blocks of one core, or of the chip (`cores` > 1: every
// ratio is per core, over `cycles` x cores).
void figures_json(nlohmann::json& j, const Pipes& pipes, const StatsCollector::Figures& f,
                  const config::Config& cfg, uint64_t cycles, size_t cores) {
  const uint64_t core_cycles = cycles * cores;
  for (Pipe p : kReported) {
    const auto& ps = pipes[static_cast<size_t>(p)];
    const auto& w = f.waits[static_cast<size_t>(p)];
    nlohmann::json& o = j["pipes"][isa::to_string(p)];
    o["busy_cycles"] = ps.busy_cycles;
    o["active_cycles"] = ps.active_cycles;
    o["aic_time_cycles"] = ps.aic_time_cycles;  // msprof's aic_*_time rules (docs/cli.md)
    o["stall_cycles"] = ps.stall_cycles;
    o["instructions"] = ps.instructions;
    o["busy_ratio"] = ratio(ps.busy_cycles, core_cycles);
    o["wait_cycles"] = {{"flag", w.flag},
                        {"barrier", w.barrier},
                        {"port", w.port},
                        {"unit_flag", w.unit_flag},
                        {"queue_full", w.queue_full}};
    j["summary"][ratio_name(p)] = ratio(ps.aic_time_cycles, core_cycles);  // msprof's aic_*_ratio
  }
  for (int i = 0; i < kPathCount; ++i) {
    const auto p = static_cast<Path>(i);
    const uint64_t bytes = f.path_bytes[i];
    nlohmann::json& o = j["paths"][to_string(p)];
    o["bytes"] = bytes;
    o["bytes_per_cycle"] = ratio(bytes, core_cycles);
    o["peak_bytes_per_cycle"] = path_peak(p, cfg);
  }
  j["cube"] = {{"macs", f.macs},
               {"dense_equivalent_macs", f.dense_macs},
               {"sparse_instructions", f.sparse},
               {"achieved_dense_macs_per_cycle", ratio(f.dense_macs, core_cycles)}};
  f.cube.to_json(j["cube"], cfg, core_cycles);  // per kind and overall (cube_utilisation.hpp)
  j["summary"]["bound_pipe"] = isa::to_string(bound_pipe(pipes));
}

double rate_of(uint64_t hits, uint64_t misses) {
  return ratio(hits, hits + misses);
}

// One core's (or the chip's) L2 requests, with the names of msprof's L2Cache.csv where it has one.
nlohmann::json l2_json(const model::L2Counts& l2) {
  return {{"read_hits", l2.read_hits},
          {"read_misses", l2.read_misses},
          {"write_hits", l2.write_hits},
          {"write_misses", l2.write_misses},
          {"read_hit_rate", rate_of(l2.read_hits, l2.read_misses)},
          {"write_hit_rate", rate_of(l2.write_hits, l2.write_misses)},
          {"hit_rate", l2.hit_rate()},
          {"l2_read_bytes", l2.read_bytes},
          {"l2_write_bytes", l2.write_bytes},
          {"hbm_read_bytes", l2.hbm_read_bytes},
          {"hbm_write_bytes", l2.hbm_write_bytes},
          {"shared_reads", l2.shared_reads}};
}

nlohmann::json chip_json(const model::ChipSummary& s, const config::Config& cfg) {
  nlohmann::json l2 = l2_json(s.l2.counts);
  l2["bytes"] = cfg.chip.l2.bytes;
  l2["line_bytes"] = cfg.chip.l2.line_bytes;
  l2["evictions"] = s.l2.evictions;
  l2["valid_lines"] = s.l2.valid_lines;
  l2["dirty_lines"] = s.l2.dirty_lines;
  const uint64_t hbm = s.l2.counts.hbm_read_bytes + s.l2.counts.hbm_write_bytes;
  return {{"l2", l2},
          {"hbm",
           {{"bytes", hbm},
            {"bytes_per_cycle", ratio(hbm, s.cycles)},
            {"peak_bytes_per_cycle", cfg.chip.hbm_capacity()}}}};
}

}  // namespace

nlohmann::json stats_json(const model::ChipSummary& s, const StatsCollector& c, const config::Config& cfg,
                          const RunInfo& info) {
  nlohmann::json j;
  j["trace"] = info.trace;
  j["version"] = kVersion;  // of aicore-sim, which made the file
  j["status"] = info.status;
  j["completed"] = s.completed && info.status == "completed";
  if (!info.message.empty()) j["message"] = info.message;
  j["timing_only"] = info.timing_only;
  j["cycles"] = s.cycles;
  j["time_us"] = static_cast<double>(s.cycles) / cfg.clock_mhz;
  j["instructions"] = s.instructions;
  j["config"] = config::to_json(cfg);
  figures_json(j, summed_pipes(s), c.total(), cfg, s.cycles, std::max<size_t>(s.cores.size(), 1));
  j["flags_left_set"] = s.flags_left_set;
  j["sync"] = {{"held_sets", s.held_sets}, {"held_set_cycles", s.held_set_cycles}};
  j["chip"] = chip_json(s, cfg);
  j["cores"] = nlohmann::json::array();
  for (const model::CoreSummary& core : s.cores) {
    nlohmann::json o;
    o["core"] = core.core.value;
    o["cycles"] = core.cycles;
    o["time_us"] = static_cast<double>(core.cycles) / cfg.clock_mhz;
    o["instructions"] = core.instructions;
    figures_json(o, core.pipes, c.core(core.core), cfg, core.cycles, 1);
    o["flags_left_set"] = core.flags_left_set;
    o["sync"] = {{"held_sets", core.held_sets}, {"held_set_cycles", core.held_set_cycles}};
    o["l2"] = l2_json(core.l2);
    j["cores"].push_back(std::move(o));
  }
  return j;
}

std::string summary_text(const model::ChipSummary& s, const StatsCollector& stats,
                         const config::Config& cfg) {
  char line[256];
  std::string out;
  const Pipes pipes = summed_pipes(s);
  const StatsCollector::Figures c = stats.total();
  const uint64_t core_cycles = s.cycles * std::max<size_t>(s.cores.size(), 1);
  std::snprintf(line, sizeof line, "cycles %llu (%.3f us at %.0f MHz), %llu instructions\n",
                static_cast<unsigned long long>(s.cycles), static_cast<double>(s.cycles) / cfg.clock_mhz,
                cfg.clock_mhz, static_cast<unsigned long long>(s.instructions));
  out += line;
  if (s.cores.size() > 1) {
    std::snprintf(line, sizeof line, "  %zu cores; per core (busy %% of cycles x cores):\n", s.cores.size());
    out += line;
  }
  for (Pipe p : kReported) {
    const auto& ps = pipes[static_cast<size_t>(p)];
    // Own busy time, then the time msprof would show for the pipe (its aic_*_ratio).
    std::snprintf(line, sizeof line,
                  "  %-4s busy %10llu cycles (%5.1f%%)  msprof %10llu (%5.1f%% %s)  instructions %8llu\n",
                  isa::to_string(p), static_cast<unsigned long long>(ps.busy_cycles),
                  100.0 * ratio(ps.busy_cycles, core_cycles),
                  static_cast<unsigned long long>(ps.aic_time_cycles),
                  100.0 * ratio(ps.aic_time_cycles, core_cycles), ratio_name(p),
                  static_cast<unsigned long long>(ps.instructions));
    out += line;
  }
  std::snprintf(line, sizeof line, "  bound pipe: %s; Cube %.0f dense-equivalent MAC/cycle over the run\n",
                isa::to_string(bound_pipe(pipes)), ratio(c.dense_macs, core_cycles));
  out += line;
  out += c.cube.text(cfg, core_cycles);
  // Average over the whole run: a path near its peak only while busy shows its duty cycle.
  out += "  bandwidth (bytes/cycle, run average vs configured peak):\n";
  for (int i = 0; i < kPathCount; ++i) {
    const auto p = static_cast<Path>(i);
    const uint64_t bytes = c.path_bytes[static_cast<size_t>(i)];
    if (!bytes) continue;
    const double avg = ratio(bytes, core_cycles), peak = path_peak(p, cfg);
    std::snprintf(line, sizeof line, "    %-16s %8.1f of %6.0f (%5.1f%%)  %llu bytes\n", to_string(p), avg,
                  peak, peak > 0 ? 100.0 * avg / peak : 0.0, static_cast<unsigned long long>(bytes));
    out += line;
  }
  const model::L2Counts& l2 = s.l2.counts;
  if (l2.requests()) {
    const uint64_t hbm = l2.hbm_read_bytes + l2.hbm_write_bytes;
    std::snprintf(
        line, sizeof line,
        "  L2: hit rate %.1f%% (reads %.1f%%, writes %.1f%%); HBM %llu bytes read, %llu written "
        "(%.1f of %.0f B/cycle)\n",
        100.0 * l2.hit_rate(), 100.0 * rate_of(l2.read_hits, l2.read_misses),
        100.0 * rate_of(l2.write_hits, l2.write_misses), static_cast<unsigned long long>(l2.hbm_read_bytes),
        static_cast<unsigned long long>(l2.hbm_write_bytes), ratio(hbm, s.cycles), cfg.chip.hbm_capacity());
    out += line;
  }
  StatsCollector::PipeWaits total;
  for (Pipe p : kReported) {
    const auto& w = c.waits[static_cast<size_t>(p)];
    total.flag += w.flag;
    total.barrier += w.barrier;
    total.port += w.port;
    total.unit_flag += w.unit_flag;
    total.queue_full += w.queue_full;
  }
  std::snprintf(line, sizeof line,
                "  stall cycles: flag %llu, barrier %llu, port %llu, unit_flag %llu, queue_full %llu\n",
                static_cast<unsigned long long>(total.flag), static_cast<unsigned long long>(total.barrier),
                static_cast<unsigned long long>(total.port), static_cast<unsigned long long>(total.unit_flag),
                static_cast<unsigned long long>(total.queue_full));
  out += line;
  return out;
}

}  // namespace aicore::report
