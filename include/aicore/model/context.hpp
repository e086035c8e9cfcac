// State shared by the modules of one simulated core: the resolved config, the memories' view
// for the semantics layer, the observers, and the first fault (the model stops at it).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "aicore/config/config.hpp"
#include "aicore/isa/instructions.hpp"
#include "aicore/model/dispatch.hpp"
#include "aicore/model/fault.hpp"
#include "aicore/model/observer.hpp"
#include "aicore/semantics/memory.hpp"

namespace aicore::model {

struct SimContext {
  SimContext(const config::Config& c, bool func, std::string trace)
      : cfg(c), functional(func), trace_name(std::move(trace)) {}

  const config::Config& cfg;
  const bool functional;          // false: --timing-only, no data is allocated or touched
  const std::string trace_name;   // for messages
  sem::MemoryView view;           // data pointers (null in timing-only) and limits
  Dispatcher dispatch;            // observers, fed in simulated-time order
  std::optional<SimFault> fault;  // the first fault; the model stops when it is set
  // Optional: told of every instruction in program order (the race checker).
  IssueHook* issue_hook = nullptr;

  // Records a fault for `instr` at `cycle` and stops the simulation.
  void raise(FaultKind kind, const std::string& what, const isa::Instruction& instr, uint64_t cycle);
  // Same, for a fault that belongs to no single instruction (deadlock).
  void raise(FaultKind kind, const std::string& what, uint64_t cycle);
  // "trace:LINE: MNEMONIC" prefix used in every run-time message about an instruction.
  std::string where(const isa::Instruction& instr) const;
};

}  // namespace aicore::model
