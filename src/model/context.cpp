#include "aicore/model/context.hpp"

#include <systemc>

namespace aicore::model {

std::string SimContext::where(const isa::Instruction& instr) const {
  return trace_name + ":" + std::to_string(instr.line) + ": " + isa::mnemonic(instr.op) + " (instruction #" +
         std::to_string(instr.index) + ")";
}

void SimContext::raise(FaultKind kind, const std::string& what, const isa::Instruction& instr,
                       uint64_t cycle) {
  raise(kind, where(instr) + " at cycle " + std::to_string(cycle) + ": " + to_string(kind) + ": " + what,
        cycle);
}

void SimContext::raise(FaultKind kind, const std::string& what, uint64_t cycle) {
  if (fault) return;  // keep the first
  fault.emplace(kind, what, cycle);
  sc_core::sc_stop();
}

}  // namespace aicore::model
