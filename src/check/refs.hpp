// Compact names of instructions inside the checker's state: a shadow cell records its last
// writer and readers as AccessRefs, enough to tell ordering (index, pipe) and to name the
// instruction in a report (line, file, kind), without keeping the instruction itself.
#pragma once
#include <cstdint>
#include <string>

#include "aicore/check/report.hpp"
#include "aicore/isa/instructions.hpp"

namespace aicore::check {

// 16 bytes: shadow cells hold seven of them, and shadow memory is the checker's bulk.
struct AccessRef {
  static constexpr uint64_t kNone = (uint64_t{1} << 48) - 1;
  AccessRef() : index(kNone), op(0), unit_flag(0), pipe(isa::Pipe::S) {}
  uint64_t index : 48;     // position in its core's program
  uint64_t op : 6;         // isa::Op alternative
  uint64_t unit_flag : 2;  // unitFlag of a Mmad or Fixpipe: 0, 2 or 3 (CoreChecker::conflict)
  isa::Pipe pipe : 8;
  uint32_t line = 0;
  FileId file = 0;
  bool valid() const { return index != kNone; }
};
static_assert(sizeof(AccessRef) == 16, "AccessRef packs into 16 bytes");

AccessRef ref_of(const isa::Instruction& in);
const char* op_name(uint8_t op);  // mnemonic of an isa::Op alternative
bool is_mmad(uint8_t op);
bool is_fixpipe(uint8_t op);

// A sync instruction, for messages: "WaitFlag<MTE2_MTE1>(0)", "PipeBarrier<PIPE_M>".
std::string sync_text(const isa::Op& op);
std::string event_text(isa::EventPair e);  // "MTE2_MTE1"

InstrRef instr_ref(uint16_t core, const AccessRef& r, const std::string& mnemonic, const char* access);
InstrRef instr_ref(uint16_t core, const AccessRef& r, const char* access);

// "line 12", or "FILE:12" when the file differs from the report's own.
std::string line_of(const AccessRef& r, FileId report_file);

}  // namespace aicore::check
