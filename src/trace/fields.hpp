// Private to the trace reader: how a trace writes a value of each field type (isa/field.hpp),
// within the limits the field's facts set (its bound, its memories, its dtypes, unused = 0 only).
// The parser picks the overload by the struct member's C++ type.
#pragma once
#include <cstdint>

#include "aicore/isa/field.hpp"
#include "values.hpp"

namespace aicore::trace::detail {

template <class V>
struct Tag {};

using isa::FieldFacts;
isa::Addr value_of(Tag<isa::Addr>, const KeyValue& kv, const Env& env, const FieldFacts& f);
uint8_t value_of(Tag<uint8_t>, const KeyValue& kv, const Env& env, const FieldFacts& f);
uint16_t value_of(Tag<uint16_t>, const KeyValue& kv, const Env& env, const FieldFacts& f);
uint32_t value_of(Tag<uint32_t>, const KeyValue& kv, const Env& env, const FieldFacts& f);
uint64_t value_of(Tag<uint64_t>, const KeyValue& kv, const Env& env, const FieldFacts& f);
bool value_of(Tag<bool>, const KeyValue& kv, const Env& env, const FieldFacts& f);
isa::DType value_of(Tag<isa::DType>, const KeyValue& kv, const Env& env, const FieldFacts& f);
isa::QuantMode value_of(Tag<isa::QuantMode>, const KeyValue& kv, const Env& env, const FieldFacts& f);
isa::EventPair value_of(Tag<isa::EventPair>, const KeyValue& kv, const Env& env, const FieldFacts& f);
isa::PipeBarrier value_of(Tag<isa::PipeBarrier>, const KeyValue& kv, const Env& env, const FieldFacts& f);

// What a field accepts, as the docs say it: "0..255", "L1 (L1/A1/B1)", "int8, half or bf16", ...
std::string accepts_text(const FieldFacts& f);
// Its default as a trace writes it ("1", "int8"); "" for a required field.
std::string default_text(const FieldFacts& f);

}  // namespace aicore::trace::detail
