// Private to the trace reader: parsers of the structured field values (operands, events,
// barrier pipes, dtypes) behind fields.hpp.
#pragma once
#include <cstdint>

#include "aicore/isa/field.hpp"
#include "instruction_parser.hpp"
#include "lexer.hpp"

namespace aicore::trace::detail {

using isa::bit;
using isa::DTypeMask;
using isa::SpaceMask;

struct Env {
  const LineContext& ctx;
  const TensorTable& tensors;
  const char* mnemonic;
};

// "L1 (L1/A1/B1)": the memories of a mask, as messages and docs name them.
std::string describe_spaces(SpaceMask mask);
// The names a trace may write for an on-chip memory (L1 -> L1, A1, B1).
std::vector<std::string> aliases_of(isa::Space s);

// SPACE:OFFSET or NAME[+OFFSET], which must lie in one of the `allowed` memories.
isa::Addr parse_operand(const KeyValue& kv, SpaceMask allowed, const Env& env);
// SRC_DST with pipe names S, MTE1, MTE2, MTE3, M, FIX. Legality of the pair is a run-time check.
isa::EventPair parse_event(const KeyValue& kv, const Env& env);
// PIPE_X (X a pipe name) or PIPE_ALL.
isa::PipeBarrier parse_barrier_pipe(const KeyValue& kv, const Env& env);
// The names parse_barrier_pipe accepts.
const std::vector<std::string>& barrier_pipe_names();
// int8, half, bf16, int32, float (and the aliases isa::dtype_from_string accepts), of which the
// instruction takes the ones in `allowed`.
isa::DType parse_dtype(const KeyValue& kv, DTypeMask allowed, const Env& env);
// A QuantMode_t name (NoQuant, F322F16, ..., the per-channel VDEQF16, VQF322B8_PRE, VREQ8).
isa::QuantMode parse_quant_mode(const KeyValue& kv, const Env& env);
// "NoQuant, F322F16, F322BF16, DEQF16, QF322B8_PRE or REQ8"
std::string describe_quant_modes();

}  // namespace aicore::trace::detail
