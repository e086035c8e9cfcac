// The value parsers and type descriptions behind fields.hpp.
#include "fields.hpp"

#include <algorithm>

namespace aicore::trace::detail {

namespace {

// An integer field: the type's range, narrowed by the table; an unused member only takes 0.
uint64_t int_value(const KeyValue& kv, const Env& env, const FieldSpec& spec, const char* type,
                   uint64_t max) {
  const What what(type, kv.key);
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

FieldSpec unused() {
  FieldSpec s;
  s.unused = true;
  return s;
}

}  // namespace aicore::trace::detail
