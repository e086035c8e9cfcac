// The vocabulary of instruction descriptors (isa/descriptors.hpp holds the table): one field of
// an instruction as data. A field names the isa struct member it fills; the member's C++ type
// gives the field's type, range and default (the default is the member's value in a
// default-constructed op), so a struct member declares those once and the descriptor adds what
// the type cannot say: the Ascend C name, whether a trace must give it, the memories an operand
// may name, a tighter bound, and one line of documentation. Plain constexpr data, no I/O.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
#include <type_traits>

#include "aicore/isa/instructions.hpp"

namespace aicore::isa {

using SpaceMask = uint8_t;
constexpr SpaceMask bit(Space s) {
  return static_cast<SpaceMask>(1u << static_cast<unsigned>(s));
}
constexpr SpaceMask kGM = bit(Space::GM), kL1 = bit(Space::L1), kL0A = bit(Space::L0A),
                    kL0B = bit(Space::L0B), kL0C = bit(Space::L0C), kBT = bit(Space::BiasTable);

using DTypeMask = uint8_t;
constexpr DTypeMask bit(DType t) {
  return static_cast<DTypeMask>(1u << static_cast<unsigned>(t));
}
constexpr DTypeMask kAnyDType = 0x3F;
// The element types of whole bytes (every type but int4).
constexpr DTypeMask kByteTypes = kAnyDType & ~bit(DType::Int4);
constexpr DTypeMask kInputTypes = bit(DType::Int8) | bit(DType::Half) | bit(DType::BF16);  // Cube inputs
// Dense Mmad inputs (float x float and int4 x int4 too).
constexpr DTypeMask kMmadTypes = kInputTypes | bit(DType::Float) | bit(DType::Int4);
constexpr DTypeMask kCellTypes = bit(DType::Int32) | bit(DType::Float);  // L0C cells
// What a GM atomic add (SetAtomicAdd) adds: the Fixpipe output types with an add of their own.
constexpr DTypeMask kAtomicTypes = bit(DType::Float) | bit(DType::Half) | bit(DType::Int32);
// "int8, half or bf16": the element types of a mask, as messages and docs name them.
std::string describe_dtypes(DTypeMask mask);

// How a field's value is written and what it may hold; fixed by its member's C++ type.
enum class FieldType : uint8_t { Operand, U8, U16, U32, U64, Boolean, DType, Quant, Event, BarrierPipe };
// "operand", "u8", "u16", "u32", "u64", "boolean", "dtype", "quant", "event", "pipe"
const char* to_string(FieldType t);

template <class V>
struct ValueTraits;  // per member type: its FieldType, its largest value, whether it is a number
template <FieldType F, uint64_t Max, bool Scalar>
struct ValueTraitsOf {
  static constexpr FieldType type = F;
  static constexpr uint64_t max = Max;  // integers and booleans; 0 otherwise
  // Integers, booleans and enumerations: a field of this type may have a default and is compared,
  // hashed and copied as one number.
  static constexpr bool scalar = Scalar;
};
template <>
struct ValueTraits<Addr> : ValueTraitsOf<FieldType::Operand, 0, false> {};
template <>
struct ValueTraits<uint8_t> : ValueTraitsOf<FieldType::U8, 0xFF, true> {};
template <>
struct ValueTraits<uint16_t> : ValueTraitsOf<FieldType::U16, 0xFFFF, true> {};
template <>
struct ValueTraits<uint32_t> : ValueTraitsOf<FieldType::U32, 0xFFFFFFFF, true> {};
template <>
struct ValueTraits<uint64_t> : ValueTraitsOf<FieldType::U64, UINT64_MAX, true> {};
template <>
struct ValueTraits<bool> : ValueTraitsOf<FieldType::Boolean, 1, true> {};
template <>
struct ValueTraits<DType> : ValueTraitsOf<FieldType::DType, 0, true> {};
// Fixpipe's conversion, a QuantMode_t name in a trace.
template <>
struct ValueTraits<QuantMode> : ValueTraitsOf<FieldType::Quant, 0, true> {};
template <>
struct ValueTraits<EventPair> : ValueTraitsOf<FieldType::Event, 0, false> {};
// PipeBarrier's one field is the whole op: PIPE_X sets `pipe`, PIPE_ALL sets `all`.
template <>
struct ValueTraits<PipeBarrier> : ValueTraitsOf<FieldType::BarrierPipe, 0, false> {};

// What a field accepts beyond its member's type. Combine with |: in(kL1) | at_most(7).
struct Rule {
  SpaceMask spaces = 0;          // operands: the memories it may name
  DTypeMask dtypes = kAnyDType;  // dtype fields: the element types the instruction takes
  uint64_t max = UINT64_MAX;     // integers: a bound tighter than the type's
  uint64_t values = 0;           // small integers: bit v set = v accepted (0: any up to max)
  bool unused = false;           // an Ascend C struct member the instruction ignores: only 0
  bool in_params = true;         // integers/booleans: filled from the Ascend C parameter struct
};
constexpr Rule in(SpaceMask spaces) {
  Rule r;
  r.spaces = spaces;
  return r;
}
constexpr Rule dtypes(DTypeMask mask) {
  Rule r;
  r.dtypes = mask;
  return r;
}
constexpr Rule at_most(uint64_t max) {
  Rule r;
  r.max = max;
  return r;
}
// A small integer that takes only these values (each < 64): one_of({0, 2, 3}) for unitFlag.
constexpr Rule one_of(std::initializer_list<unsigned> values) {
  Rule r;
  for (const unsigned v : values) {
    r.values |= uint64_t{1} << v;
    if (r.max == UINT64_MAX || v > r.max) r.max = v;
  }
  return r;
}
// A transliterated call may pass the whole Ascend C struct, so the key is accepted, but only as 0.
constexpr Rule unused() {
  Rule r;
  r.unused = true;
  return r;
}
// A number the intrinsic sets itself: the Ascend C parameter struct has no member of this name.
constexpr Rule not_in_params() {
  Rule r;
  r.in_params = false;
  return r;
}
constexpr Rule operator|(Rule a, Rule b) {
  Rule r;
  r.spaces = a.spaces | b.spaces;
  r.dtypes = a.dtypes & b.dtypes;
  r.max = a.max < b.max ? a.max : b.max;
  r.values = a.values | b.values;
  r.unused = a.unused || b.unused;
  r.in_params = a.in_params && b.in_params;
  return r;
}

// One field as data, whatever its instruction: what the trace reader, the writer, the docs and
// the checks read.
struct FieldFacts {
  const char* name = "";  // the Ascend C spelling (the struct member's name), also the trace key
  const char* doc = "";   // one line: what it says, with its unit
  FieldType type = FieldType::U8;
  bool required = false;       // no default: a trace must give it
  bool unused = false;         // kept for Ascend C struct compatibility; only 0 is accepted
  bool in_params = false;      // an integer/boolean the Ascend C intrinsic copies from its parameter struct
  uint64_t max = 0;            // integers and booleans: the largest value accepted (0: only 0)
  uint64_t type_max = 0;       // integers and booleans: the largest value of the member's type
  uint64_t values = 0;         // integers: bit v set = only the values v so marked (0: all up to max)
  SpaceMask spaces = 0;        // operands: the memories it may name
  DTypeMask dtypes = 0;        // dtype fields: the element types it may name
  uint64_t default_value = 0;  // optional fields: the default (a dtype as its enumerator's value)
};

namespace detail {
template <class T, class M>
struct MemberValue;
template <class T, class C, class V>
struct MemberValue<T, V C::*> {
  static_assert(std::is_base_of_v<C, T>, "the member must belong to the instruction's struct");
  using type = V;
};
template <class T>
struct MemberValue<T, std::nullptr_t> {  // the whole op
  using type = T;
};
struct NoParams {};
}  // namespace detail

// One field of instruction T: its facts, the member it fills (`Member`: a pointer to a member of
// T or of one of its bases; nullptr for a field that is the whole op), and `params`, which reads
// the member of the same name from another struct (the Ascend C parameter struct) if it has one.
template <class T, auto Member, class Params>
struct Field {
  using Op = T;
  using Value = typename detail::MemberValue<T, decltype(Member)>::type;
  FieldFacts facts;
  Params params;

  static constexpr Value& of(T& op) {
    if constexpr (std::is_same_v<decltype(Member), std::nullptr_t>)
      return op;
    else
      return op.*Member;
  }
  static constexpr const Value& of(const T& op) {
    if constexpr (std::is_same_v<decltype(Member), std::nullptr_t>)
      return op;
    else
      return op.*Member;
  }
};

template <class T, auto Member, bool Required, class Params>
constexpr Field<T, Member, Params> make_field(const char* name, const char* doc, Rule rule, Params params) {
  using V = typename Field<T, Member, Params>::Value;
  using Traits = ValueTraits<V>;
  static_assert(Required || Traits::scalar, "only integer, boolean and dtype fields can have a default");
  FieldFacts f;
  f.name = name;
  f.doc = doc;
  f.type = Traits::type;
  f.required = Required;
  f.unused = rule.unused;
  f.in_params = Traits::scalar && Traits::type != FieldType::DType && Traits::type != FieldType::Quant &&
                rule.in_params;
  f.type_max = Traits::max;
  f.max = rule.unused ? 0 : (Traits::max < rule.max ? Traits::max : rule.max);
  f.values = rule.values;
  f.spaces = rule.spaces;
  f.dtypes = Traits::type == FieldType::DType ? rule.dtypes : 0;
  if constexpr (Traits::scalar) f.default_value = static_cast<uint64_t>(Field<T, Member, Params>::of(T{}));
  return {f, params};
}
template <class T, auto Member, bool Required, class Params>
constexpr Field<T, Member, Params> make_field(const char* name, const char* doc, Params params) {
  return make_field<T, Member, Required>(name, doc, Rule{}, params);
}

}  // namespace aicore::isa

// A field of struct T named `member` (its trace key and Ascend C name), then its doc line and
// optionally a Rule: AICORE_REQUIRED(T, dst, "destination in L1, byte offset", in(kL1)).
// An optional field's default is the member's initialiser.
#define AICORE_PARAMS_READER(member) [](const auto& p) -> decltype((p.member)) { return p.member; }
#define AICORE_REQUIRED(T, member, ...) \
  ::aicore::isa::make_field<T, &T::member, true>(#member, __VA_ARGS__, AICORE_PARAMS_READER(member))
#define AICORE_OPTIONAL(T, member, ...) \
  ::aicore::isa::make_field<T, &T::member, false>(#member, __VA_ARGS__, AICORE_PARAMS_READER(member))
