#include "aicore/model/context.hpp"

#include <systemc>

namespace aicore::model {

void ChipContext::raise(FaultKind kind, const std::string& message, uint64_t cycle) {
  if (fault) return;  // keep the first
  fault.emplace(kind, message, cycle);
  sc_core::sc_stop();
}

std::string CoreContext::where(const isa::Instruction& instr) const {
  std::string s = source_file_name(instr.file) + ":" + std::to_string(instr.line) + ": " +
                  isa::mnemonic(instr.op) + " (instruction #" + std::to_string(instr.index);
  if (chip.core_count > 1) s += ", core " + std::to_string(id.value);
  return s + ")";
}

void CoreContext::raise(FaultKind kind, const std::string& what, const isa::Instruction& instr,
                        uint64_t cycle) const {
  chip.raise(kind, where(instr) + " at cycle " + std::to_string(cycle) + ": " + to_string(kind) + ": " + what,
             cycle);
}

}  // namespace aicore::model
