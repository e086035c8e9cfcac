// Text form of instructions and directives (docs/trace-format.md): the inverse of the reader.
// Generators and tools write traces through these functions so that every trace they emit
// parses back to the same ops (tested as a round trip).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "aicore/isa/instructions.hpp"

namespace aicore::trace {

// "L1:0x8000", "L0A:0", "a", "c+0x100". GM tensor names are looked up by Addr::tensor in
// gm_names (declaration order). Throws std::invalid_argument for a GM tensor index with no
// name or for the hidden index buffer (not addressable by a program).
std::string format_addr(const isa::Addr& a, const std::vector<std::string>& gm_names);

// "MTE2_MTE1"
std::string format_event(isa::EventPair e);

// One statement without a trailing newline: mnemonic, then key=value for every required field
// and for each optional field whose value differs from the Ascend C default.
std::string format_instruction(const isa::Op& op, const std::vector<std::string>& gm_names);
// The same, appended to `out` (which may be reused to avoid an allocation per instruction).
// On an exception, `out` may hold part of the text.
void append_instruction(std::string& out, const isa::Op& op, const std::vector<std::string>& gm_names);

// Directives. `file` is empty when absent; `dtype` is empty to leave it at the default; `shape`
// is empty to leave it out.
std::string format_gm(const std::string& name, uint64_t size, const std::string& file = "");
std::string format_out(const std::string& name, const std::string& file, const std::string& dtype = "",
                       const std::vector<uint64_t>& shape = {});
std::string format_expect(const std::string& name, const std::string& file, const std::string& dtype = "",
                          const std::vector<uint64_t>& shape = {});

}  // namespace aicore::trace
