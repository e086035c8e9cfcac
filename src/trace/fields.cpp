// The value parsers and type descriptions behind fields.hpp.
#include "fields.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace aicore::trace::detail {

namespace {

// "0, 2 or 3"
std::string values_text(uint64_t mask) {
  std::vector<std::string> v;
  for (uint64_t i = 0; i < 64; ++i)
    if ((mask >> i) & 1u) v.push_back(std::to_string(i));
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += (i == 0 ? "" : i + 1 == v.size() ? " or " : ", ") + v[i];
  return out;
}

// An integer field: the type's range, narrowed by the table; an unused member only takes 0.
uint64_t int_value(const KeyValue& kv, const Env& env, const FieldSpec& spec, const char* type,
                   uint64_t max) {
  const What what(type, kv.key);
  if (spec.values) {
    const uint64_t v = parse_uint(kv.value, kv.value_column, max, what, env.ctx);
    if (v >= 64 || !((spec.values >> v) & 1u))
      env.ctx.fail(kv.value_column,
                   std::string(kv.key) + " must be " + values_text(spec.values) + ", got " + quote(kv.value));
    return v;
  }
  if (!spec.unused) return parse_uint(kv.value, kv.value_column, std::min(max, spec.max), what, env.ctx);
  if (parse_uint(kv.value, kv.value_column, max, what, env.ctx) != 0)
    env.ctx.fail(kv.value_column, std::string(kv.key) + " is unused by " + env.mnemonic +
                                      " and must be 0, got " + quote(kv.value));
  return 0;
}

}  // namespace

isa::Addr value_of(Tag<isa::Addr>, const KeyValue& kv, const Env& env, const FieldSpec& spec) {
  return parse_operand(kv, spec.spaces, env);
}

uint8_t value_of(Tag<uint8_t>, const KeyValue& kv, const Env& env, const FieldSpec& spec) {
  return static_cast<uint8_t>(int_value(kv, env, spec, "u8", 0xFF));
}

uint16_t value_of(Tag<uint16_t>, const KeyValue& kv, const Env& env, const FieldSpec& spec) {
  return static_cast<uint16_t>(int_value(kv, env, spec, "u16", 0xFFFF));
}

uint32_t value_of(Tag<uint32_t>, const KeyValue& kv, const Env& env, const FieldSpec& spec) {
  return static_cast<uint32_t>(int_value(kv, env, spec, "u32", 0xFFFFFFFF));
}

uint64_t value_of(Tag<uint64_t>, const KeyValue& kv, const Env& env, const FieldSpec& spec) {
  return int_value(kv, env, spec, "u64", UINT64_MAX);
}

isa::QuantMode value_of(Tag<isa::QuantMode>, const KeyValue& kv, const Env& env, const FieldSpec&) {
  return parse_quant_mode(kv, env);
}

bool value_of(Tag<bool>, const KeyValue& kv, const Env& env, const FieldSpec& spec) {
  const bool v = parse_bool(kv.value, kv.value_column, What("boolean", kv.key), env.ctx);
  if (v && spec.unused)
    env.ctx.fail(kv.value_column, std::string(kv.key) + " is unused by " + env.mnemonic +
                                      " and must be 0, got " + quote(kv.value));
  return v;
}

isa::DType value_of(Tag<isa::DType>, const KeyValue& kv, const Env& env, const FieldSpec& spec) {
  return parse_dtype(kv, spec.dtypes, env);
}

isa::EventPair value_of(Tag<isa::EventPair>, const KeyValue& kv, const Env& env, const FieldSpec&) {
  return parse_event(kv, env);
}

TypeInfo type_of(Tag<isa::Addr>, const isa::Addr&) {
  return {"operand", 0, ""};
}

TypeInfo type_of(Tag<uint8_t>, uint8_t d) {
  return {"u8", 0xFF, std::to_string(d)};
}

TypeInfo type_of(Tag<uint16_t>, uint16_t d) {
  return {"u16", 0xFFFF, std::to_string(d)};
}

TypeInfo type_of(Tag<uint32_t>, uint32_t d) {
  return {"u32", 0xFFFFFFFF, std::to_string(d)};
}

TypeInfo type_of(Tag<uint64_t>, uint64_t d) {
  return {"u64", UINT64_MAX, std::to_string(d)};
}

TypeInfo type_of(Tag<isa::QuantMode>, isa::QuantMode d) {
  return {"quant", 0, isa::to_string(d)};
}

TypeInfo type_of(Tag<bool>, bool d) {
  return {"boolean", 1, d ? "1" : "0"};
}

TypeInfo type_of(Tag<isa::DType>, isa::DType d) {
  return {"dtype", 0, isa::to_string(d)};
}

TypeInfo type_of(Tag<isa::EventPair>, const isa::EventPair&) {
  return {"event", 0, ""};
}

FieldSpec in(SpaceMask spaces) {
  FieldSpec s;
  s.spaces = spaces;
  return s;
}

FieldSpec dtypes(DTypeMask mask) {
  FieldSpec s;
  s.dtypes = mask;
  return s;
}

FieldSpec at_most(uint64_t max) {
  FieldSpec s;
  s.max = max;
  return s;
}

FieldSpec one_of(std::initializer_list<uint64_t> values) {
  FieldSpec s;
  for (const uint64_t v : values) s.values |= uint64_t{1} << v;
  return s;
}

// The accepted values of a one_of field, for the docs' tables.
std::string one_of_text(const FieldSpec& spec) {
  return values_text(spec.values);
}

FieldSpec unused() {
  FieldSpec s;
  s.unused = true;
  return s;
}

}  // namespace aicore::trace::detail
