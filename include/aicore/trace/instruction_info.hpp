// What the trace reader accepts for each v1 instruction, as data: every key with its type, the
// values it accepts, its default and, for operands, the memories it may name. It is the
// descriptor table the parser runs on (include/aicore/isa/descriptors.hpp) in a trace's words, so
// documentation generated from it (docs/trace-format.md, tools/docgen) cannot drift from the parser.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "aicore/isa/types.hpp"

namespace aicore::trace {

struct FieldInfo {
  std::string key;            // as written in a trace (Ascend C spelling)
  std::string type;           // "operand", "u8", "u16", "u32", "boolean", "dtype", "event", "pipe"
  bool required = false;      // no default: the statement must give it
  std::string accepts;        // the values the parser accepts, as text ("0..255", "int8, half, bf16", ...)
  std::string default_value;  // as a trace would write it; empty when required
  std::vector<isa::Space> spaces;  // operands: the memories it may name
  uint64_t max = 0;                // integers and booleans: the largest value accepted (0 = only 0)
  bool unused = false;             // kept for Ascend C struct compatibility; only 0 is accepted
  std::string meaning;             // one line: what the field says, with its unit
};

struct InstructionInfo {
  std::string mnemonic;
  std::string pipe;               // the pipe that runs it ("MTE2", ...; SetFlag/WaitFlag: a rule)
  std::string summary;            // one line
  std::vector<FieldInfo> fields;  // in the order the writer emits them
};

// Every instruction the reader accepts, in table order.
const std::vector<InstructionInfo>& instruction_info();

// The names a trace may use for one memory ("L1" -> L1, A1, B1); GM has none (tensor names).
std::vector<std::string> space_aliases(isa::Space s);

}  // namespace aicore::trace
