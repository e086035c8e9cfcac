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

// SPACE:OFFSET or NAME[+OFFSET], which must lie in one of the `allowed` memories.
isa::Addr parse_operand(const KeyValue& kv, SpaceMask allowed, const Env& env);
// SRC_DST with pipe names S, MTE1, MTE2, MTE3, M, FIX. Legality of the pair is a run-time check.
isa::EventPair parse_event(const KeyValue& kv, const Env& env);
// PIPE_X (X a pipe name) or PIPE_ALL.
void parse_barrier_pipe(isa::PipeBarrier& b, const KeyValue& kv, const Env& env, SpaceMask);
// int8, half, bf16, int32, float (and the aliases isa::dtype_from_string accepts).
isa::DType parse_dtype(const KeyValue& kv, const LineContext& ctx);

}  // namespace aicore::trace::detail
