// Private to the trace reader: one field of the instruction table (instruction_parser.cpp) as
// data: its key, whether it is required, the setter that parses its value into the isa struct
// member, the member's type and default for the description, and its spec (values.hpp). The
// struct member's type picks the value syntax, so a field is declared by naming its member:
//   req<isa::DataCopy, &isa::DataCopy::blockLen>("blockLen", "length of each block, ...")
#pragma once
#include <cstdint>
#include <initializer_list>
#include <string>

#include "values.hpp"

namespace aicore::trace::detail {

// The type part of a field's description, from its struct member.
struct TypeInfo {
  const char* type;
  uint64_t max;  // integers and booleans; 0 otherwise
  std::string default_value;
};

template <class T>
struct Field {
  using Setter = void (*)(T&, const KeyValue&, const Env&, const FieldSpec&);
  const char* key;
  bool required;
  Setter set;
  TypeInfo (*type)();
  const char* meaning;
  FieldSpec spec{};
};

template <class V>
struct Tag {};

// The value of a member of each type, by the rules of its field's spec.
isa::Addr value_of(Tag<isa::Addr>, const KeyValue& kv, const Env& env, const FieldSpec& spec);
uint8_t value_of(Tag<uint8_t>, const KeyValue& kv, const Env& env, const FieldSpec& spec);
uint16_t value_of(Tag<uint16_t>, const KeyValue& kv, const Env& env, const FieldSpec& spec);
uint32_t value_of(Tag<uint32_t>, const KeyValue& kv, const Env& env, const FieldSpec& spec);
uint64_t value_of(Tag<uint64_t>, const KeyValue& kv, const Env& env, const FieldSpec& spec);
isa::QuantMode value_of(Tag<isa::QuantMode>, const KeyValue& kv, const Env& env, const FieldSpec&);
bool value_of(Tag<bool>, const KeyValue& kv, const Env& env, const FieldSpec& spec);
isa::DType value_of(Tag<isa::DType>, const KeyValue& kv, const Env& env, const FieldSpec& spec);
isa::EventPair value_of(Tag<isa::EventPair>, const KeyValue& kv, const Env& env, const FieldSpec&);

// The type's name, largest value and the default `d` as a trace writes it.
TypeInfo type_of(Tag<isa::Addr>, const isa::Addr&);
TypeInfo type_of(Tag<uint8_t>, uint8_t d);
TypeInfo type_of(Tag<uint16_t>, uint16_t d);
TypeInfo type_of(Tag<uint32_t>, uint32_t d);
TypeInfo type_of(Tag<uint64_t>, uint64_t d);
TypeInfo type_of(Tag<isa::QuantMode>, isa::QuantMode d);
TypeInfo type_of(Tag<bool>, bool d);
TypeInfo type_of(Tag<isa::DType>, isa::DType d);
TypeInfo type_of(Tag<isa::EventPair>, const isa::EventPair&);

template <class P>
struct MemberOf;
template <class C, class V>
struct MemberOf<V C::*> {
  using Value = V;
};

// Setter of one struct member: the member's type picks the value syntax and its range.
template <class T, auto Member>
void assign(T& op, const KeyValue& kv, const Env& env, const FieldSpec& spec) {
  op.*Member = value_of(Tag<typename MemberOf<decltype(Member)>::Value>{}, kv, env, spec);
}
// Its type and default: the default is the member's value in a default-constructed op.
template <class T, auto Member>
TypeInfo member_type() {
  return type_of(Tag<typename MemberOf<decltype(Member)>::Value>{}, T{}.*Member);
}

template <class T, auto Member>
Field<T> req(const char* key, const char* meaning, FieldSpec spec = {}) {
  return {key, true, &assign<T, Member>, &member_type<T, Member>, meaning, spec};
}
template <class T, auto Member>
Field<T> opt(const char* key, const char* meaning, FieldSpec spec = {}) {
  return {key, false, &assign<T, Member>, &member_type<T, Member>, meaning, spec};
}

// Specs: an operand's memories, the dtypes a dtype field takes, a tighter bound.
FieldSpec in(SpaceMask spaces);
FieldSpec dtypes(DTypeMask mask);
FieldSpec at_most(uint64_t max);
// A small integer field that takes only these values (each < 64), e.g. unitFlag 0, 2 or 3.
FieldSpec one_of(std::initializer_list<uint64_t> values);
std::string one_of_text(const FieldSpec& spec);  // "0, 2 or 3"
// A member of the Ascend C struct that this instruction does not use: a transliterated call
// may pass the whole struct, so the key is accepted, but only as 0.
FieldSpec unused();

constexpr DTypeMask kInputTypes = bit(isa::DType::Int8) | bit(isa::DType::Half) | bit(isa::DType::BF16);
constexpr DTypeMask kCellTypes = bit(isa::DType::Int32) | bit(isa::DType::Float);

}  // namespace aicore::trace::detail
