// Private to the trace reader: parsers of the structured field values (operands, events,
// barrier pipes, dtypes) shared by the instruction table.
#pragma once
#include <cstdint>

#include "aicore/isa/instructions.hpp"
#include "instruction_parser.hpp"
#include "lexer.hpp"

namespace aicore::trace::detail {

using SpaceMask = uint8_t;
constexpr SpaceMask bit(isa::Space s) {
  return static_cast<SpaceMask>(1u << static_cast<unsigned>(s));
}
constexpr SpaceMask kGM = bit(isa::Space::GM), kL1 = bit(isa::Space::L1), kL0A = bit(isa::Space::L0A),
                    kL0B = bit(isa::Space::L0B), kL0C = bit(isa::Space::L0C);

struct Env {
  const LineContext& ctx;
  const TensorTable& tensors;
  const char* mnemonic;
};

using DTypeMask = uint8_t;
constexpr DTypeMask bit(isa::DType t) {
  return static_cast<DTypeMask>(1u << static_cast<unsigned>(t));
}
constexpr DTypeMask kAnyDType = 0x1F;

// What one field accepts beyond its member's type (instruction_parser.cpp's table).
struct FieldSpec {
  SpaceMask spaces = 0;          // operands: the memories it may name
  uint64_t max = UINT64_MAX;     // integers: a bound tighter than the type's
  bool unused = false;           // a struct member the instruction ignores: only 0 is accepted
  DTypeMask dtypes = kAnyDType;  // dtype fields: the element types the instruction takes
  uint64_t values = 0;           // small integers: bit v set = v accepted (0 = any in range)
};

// "L1 (L1/A1/B1)": the memories of a mask, as messages and docs name them.
std::string describe_spaces(SpaceMask mask);
// The names a trace may write for an on-chip memory (L1 -> L1, A1, B1).
std::vector<std::string> aliases_of(isa::Space s);
// "int8, half or bf16"
std::string describe_dtypes(DTypeMask mask);

// SPACE:OFFSET or NAME[+OFFSET], which must lie in one of the `allowed` memories.
isa::Addr parse_operand(const KeyValue& kv, SpaceMask allowed, const Env& env);
// SRC_DST with pipe names S, MTE1, MTE2, MTE3, M, FIX. Legality of the pair is a run-time check.
isa::EventPair parse_event(const KeyValue& kv, const Env& env);
// PIPE_X (X a pipe name) or PIPE_ALL.
void parse_barrier_pipe(isa::PipeBarrier& b, const KeyValue& kv, const Env& env, const FieldSpec&);
// The names parse_barrier_pipe accepts.
const std::vector<std::string>& barrier_pipe_names();
// int8, half, bf16, int32, float (and the aliases isa::dtype_from_string accepts), of which the
// instruction takes the ones in `allowed`.
isa::DType parse_dtype(const KeyValue& kv, DTypeMask allowed, const Env& env);
// A QuantMode_t name (NoQuant, F322F16, ...); the per-channel modes are named as unsupported.
isa::QuantMode parse_quant_mode(const KeyValue& kv, const Env& env);
// "NoQuant, F322F16, F322BF16, DEQF16, QF322B8_PRE or REQ8"
std::string describe_quant_modes();

}  // namespace aicore::trace::detail
