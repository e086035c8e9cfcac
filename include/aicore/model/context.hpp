// State shared by the modules of the model. ChipContext: what all cores share (the observers,
// fed in simulated-time order, and the first fault or input error: the model stops at it).
// CoreContext: one core's view (its id, its config slice, its memories for the semantics layer).
#pragma once
#include <optional>
#include <string>

#include "aicore/common/error.hpp"
#include "aicore/config/config.hpp"
#include "aicore/isa/instructions.hpp"
#include "aicore/model/dispatch.hpp"
#include "aicore/model/fault.hpp"
#include "aicore/semantics/memory.hpp"

namespace aicore::model {

class CoreBarrier;

struct ChipContext {
  explicit ChipContext(uint32_t cores) : core_count(cores) {}
  const uint32_t core_count;
  Dispatcher dispatch;
  std::optional<SimFault> fault;          // the first fault; the simulation stops at it
  std::optional<InputError> input_error;  // the first bad input a source met; issuing stops
  CoreBarrier* sync_all = nullptr;        // SyncAll across the cores (core_barrier.hpp); none: alone

  bool stopping() const { return fault.has_value(); }
  // Records the first fault and stops the simulation.
  void raise(FaultKind kind, const std::string& message, uint64_t cycle);
};

struct CoreContext {
  CoreContext(ChipContext& c, isa::CoreId core_id, const config::CoreConfig& config, bool func)
      : chip(c), id(core_id), cfg(config), functional(func) {}

  ChipContext& chip;
  const isa::CoreId id;
  const config::CoreConfig& cfg;
  const bool functional;  // false: --timing-only, no data is allocated or touched
  sem::MemoryView view;   // data pointers (null in timing-only) and limits

  // Records a fault for `instr` at `cycle` and stops the simulation.
  void raise(FaultKind kind, const std::string& what, const isa::Instruction& instr, uint64_t cycle) const;
  // "FILE:LINE: MNEMONIC (instruction #N[, core C])": the prefix of every run-time message
  // about an instruction (the core only on a chip of several).
  std::string where(const isa::Instruction& instr) const;
};

}  // namespace aicore::model
