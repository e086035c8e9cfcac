// The value parsers and descriptions behind fields.hpp.
#include "fields.hpp"

#include <string>
#include <vector>

namespace aicore::trace::detail {

namespace {

// "0, 2 or 3": the values of a one_of field.
std::string values_text(uint64_t mask) {
  std::vector<std::string> v;
  for (uint64_t i = 0; i < 64; ++i)
    if ((mask >> i) & 1u) v.push_back(std::to_string(i));
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += (i == 0 ? "" : i + 1 == v.size() ? " or " : ", ") + v[i];
  return out;
}

// An integer field: up to its bound, or one of its values; an unused member takes only 0.
uint64_t int_value(const KeyValue& kv, const Env& env, const FieldFacts& f) {
  const What what(isa::to_string(f.type), kv.key);
  if (f.values) {
    const uint64_t v = parse_uint(kv.value, kv.value_column, f.type_max, what, env.ctx);
    if (v >= 64 || !((f.values >> v) & 1u))
      env.ctx.fail(kv.value_column,
                   std::string(kv.key) + " must be " + values_text(f.values) + ", got " + quote(kv.value));
    return v;
  }
  if (!f.unused) return parse_uint(kv.value, kv.value_column, f.max, what, env.ctx);
  if (parse_uint(kv.value, kv.value_column, f.type_max, what, env.ctx) != 0)
    env.ctx.fail(kv.value_column, std::string(kv.key) + " is unused by " + env.mnemonic +
                                      " and must be 0, got " + quote(kv.value));
  return 0;
}

}  // namespace

isa::Addr value_of(Tag<isa::Addr>, const KeyValue& kv, const Env& env, const FieldFacts& f) {
  return parse_operand(kv, f.spaces, env);
}

uint8_t value_of(Tag<uint8_t>, const KeyValue& kv, const Env& env, const FieldFacts& f) {
  return static_cast<uint8_t>(int_value(kv, env, f));
}

uint16_t value_of(Tag<uint16_t>, const KeyValue& kv, const Env& env, const FieldFacts& f) {
  return static_cast<uint16_t>(int_value(kv, env, f));
}

uint32_t value_of(Tag<uint32_t>, const KeyValue& kv, const Env& env, const FieldFacts& f) {
  return static_cast<uint32_t>(int_value(kv, env, f));
}

uint64_t value_of(Tag<uint64_t>, const KeyValue& kv, const Env& env, const FieldFacts& f) {
  return int_value(kv, env, f);
}

bool value_of(Tag<bool>, const KeyValue& kv, const Env& env, const FieldFacts& f) {
  const bool v = parse_bool(kv.value, kv.value_column, What("boolean", kv.key), env.ctx);
  if (v && f.unused)
    env.ctx.fail(kv.value_column, std::string(kv.key) + " is unused by " + env.mnemonic +
                                      " and must be 0, got " + quote(kv.value));
  return v;
}

isa::DType value_of(Tag<isa::DType>, const KeyValue& kv, const Env& env, const FieldFacts& f) {
  return parse_dtype(kv, f.dtypes, env);
}

isa::QuantMode value_of(Tag<isa::QuantMode>, const KeyValue& kv, const Env& env, const FieldFacts&) {
  return parse_quant_mode(kv, env);
}

isa::EventPair value_of(Tag<isa::EventPair>, const KeyValue& kv, const Env& env, const FieldFacts&) {
  return parse_event(kv, env);
}

isa::PipeBarrier value_of(Tag<isa::PipeBarrier>, const KeyValue& kv, const Env& env, const FieldFacts&) {
  return parse_barrier_pipe(kv, env);
}

std::string accepts_text(const FieldFacts& f) {
  switch (f.type) {
    case isa::FieldType::Operand:
      return describe_spaces(f.spaces);
    case isa::FieldType::DType:
      return isa::describe_dtypes(f.dtypes);
    case isa::FieldType::Quant:
      return describe_quant_modes();
    case isa::FieldType::Event:
      return "SRC_DST, SRC and DST each one of S, MTE1, MTE2, MTE3, M, FIX";
    case isa::FieldType::BarrierPipe: {
      std::string s;
      for (const auto& n : barrier_pipe_names()) s += (s.empty() ? "" : ", ") + n;
      return s;
    }
    default:
      break;
  }
  if (f.unused) return "0 only";
  if (f.values) return values_text(f.values);
  if (f.type == isa::FieldType::Boolean) return "0, 1, false, true";
  return "0.." + std::to_string(f.max);
}

std::string default_text(const FieldFacts& f) {
  if (f.required) return "";
  if (f.type == isa::FieldType::DType) return isa::to_string(static_cast<isa::DType>(f.default_value));
  if (f.type == isa::FieldType::Quant) return isa::to_string(static_cast<isa::QuantMode>(f.default_value));
  return std::to_string(f.default_value);
}

}  // namespace aicore::trace::detail
