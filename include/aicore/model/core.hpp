// One AI Core (Cube side): built from its resolved config slice, it owns its buffers (L1,
// L0A, L0B, the sparse index buffer, L0C), its pipes (the scalar issue unit and the MTE2,
// MTE1, M, FIX and MTE3 engines) and its sync unit, and reaches GM through the chip's port.
// Wiring (who reads and writes what) is the data-path table of the Cube core: MTE2 GM -> L1,
// MTE1 L1 -> L0A/L0B/index, M L0A/L0B/index -> L0C, FIX L0C -> GM.
#pragma once
#include <array>
#include <memory>
#include <string>
#include <systemc>

#include "aicore/config/config.hpp"
#include "aicore/model/buffer.hpp"
#include "aicore/model/context.hpp"
#include "aicore/model/engine.hpp"
#include "aicore/model/gm_port.hpp"
#include "aicore/model/issue_unit.hpp"
#include "aicore/model/source.hpp"
#include "aicore/model/sync_unit.hpp"
#include "aicore/model/unit_flags.hpp"

namespace aicore::model {

struct PipeSummary {
  uint64_t busy_cycles = 0, stall_cycles = 0, instructions = 0;
  // Cycles in which one of the pipe's data instructions had started and its result was not yet
  // usable (latency included): what a profiler's per-pipe time counts (S: its busy cycles).
  uint64_t active_cycles = 0;
  // What msprof's aic_*_time counts (Engine::aic_time_cycles): active cycles plus the cycles a
  // data instruction held the pipe waiting to start, e.g. a Fixpipe under unitFlag waiting for
  // its Mmad (S: its busy cycles).
  uint64_t aic_time_cycles = 0;
};

struct MemorySummary {
  uint64_t bytes_read = 0, bytes_written = 0;
};

// One core's figures after a run.
struct CoreSummary {
  isa::CoreId core;
  uint64_t cycles = 0;        // the cycle at which this core's last instruction finished
  uint64_t instructions = 0;  // issued instructions
  std::array<PipeSummary, isa::kPipeCount> pipes{};
  std::array<MemorySummary, isa::kSpaceCount> memories{};  // GM: this core's reads and writes
  L2Counts l2;                                             // this core's L2 requests
  uint32_t flags_left_set = 0;
  // SetFlags that landed on a flag still set and waited for a WaitFlag to clear it, and the
  // cycles they waited (sync_unit.hpp; stats.json "sync").
  uint64_t held_sets = 0, held_set_cycles = 0;
};

class Core : public sc_core::sc_module {
 public:
  Core(sc_core::sc_module_name name, ChipContext& chip, isa::CoreId id, const config::CoreConfig& cfg,
       bool timing_only, InstructionSource& source, TensorRegistry& gm_registry, GmPort& gm);

  isa::CoreId id() const { return ctx_.id; }
  sem::MemoryView& view() { return ctx_.view; }
  // See IssueUnit::prime.
  bool prime() { return issue_->prime(); }
  bool finished() const;
  // Lines "  PIPE: what it waits for" of every stuck pipe, for a deadlock report (after the run:
  // it may read the source on to name the WaitFlag a held SetFlag waits for).
  std::string blocked_on();
  // Everything this core did.
  CoreSummary summary(const GmPort& gm);
  std::vector<const TimeSource*> time_sources() const;
  uint64_t late_requests() const;

 private:
  std::array<Engine*, 5> engines() const {
    return {mte2_.get(), mte1_.get(), cube_.get(), fix_.get(), mte3_.get()};
  }

  // "; SetFlag<..> at F:L is held: ..." when a SetFlag of `pipe` (SyncUnit::kAllPipes: any) is held
  // behind an uncleared set while `barrier` waits for it; "" otherwise.
  std::string held_clause(const isa::Instruction& barrier, size_t pipe);

  CoreContext ctx_;
  SyncUnit sync_;
  UnitFlags unit_;
  std::unique_ptr<Buffer> l1_, l0a_, l0b_, l0c_, idx_, bt_;
  std::unique_ptr<Engine> mte2_, mte1_, cube_, fix_, mte3_;
  std::unique_ptr<IssueUnit> issue_;
};

}  // namespace aicore::model
