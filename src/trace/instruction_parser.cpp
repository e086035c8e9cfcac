// The v1 instruction table of trace-format.md as data: for each mnemonic, its keys in Ascend C
// spelling, which are required, the isa struct member each one fills and, for operands, the
// memories it may name (value syntax: values.cpp). Field ranges beyond the member's width (event
// pairs, ids, dtypes per instruction, alignment) are checked at run time by isa::check_fields.
#include "instruction_parser.hpp"
#include "values.hpp"

namespace aicore::trace::detail {

namespace {

template <class T>
struct Field {
  using Setter = void (*)(T&, const KeyValue&, const Env&, SpaceMask);
  const char* key;
  bool required;
  Setter set;
  SpaceMask spaces = 0;  // operands only
};

// ---- member setters ---------------------------------------------------------------------------

template <class V>
struct Tag {};

What field_name(const char* type, const KeyValue& kv) {
  return What(type, kv.key);
}

isa::Addr value_of(Tag<isa::Addr>, const KeyValue& kv, const Env& env, SpaceMask spaces) {
  return parse_operand(kv, spaces, env);
}
uint8_t value_of(Tag<uint8_t>, const KeyValue& kv, const Env& env, SpaceMask) {
  return static_cast<uint8_t>(parse_uint(kv.value, kv.value_column, 0xFF, field_name("u8", kv), env.ctx));
}
uint16_t value_of(Tag<uint16_t>, const KeyValue& kv, const Env& env, SpaceMask) {
  return static_cast<uint16_t>(parse_uint(kv.value, kv.value_column, 0xFFFF, field_name("u16", kv), env.ctx));
}
uint32_t value_of(Tag<uint32_t>, const KeyValue& kv, const Env& env, SpaceMask) {
  return static_cast<uint32_t>(
      parse_uint(kv.value, kv.value_column, 0xFFFFFFFF, field_name("u32", kv), env.ctx));
}
bool value_of(Tag<bool>, const KeyValue& kv, const Env& env, SpaceMask) {
  return parse_bool(kv.value, kv.value_column, field_name("boolean", kv), env.ctx);
}
isa::DType value_of(Tag<isa::DType>, const KeyValue& kv, const Env& env, SpaceMask) {
  return parse_dtype(kv, env.ctx);
}
isa::EventPair value_of(Tag<isa::EventPair>, const KeyValue& kv, const Env& env, SpaceMask) {
  return parse_event(kv, env);
}

template <class P>
struct MemberOf;
template <class C, class V>
struct MemberOf<V C::*> {
  using Value = V;
};

// Setter of one struct member: the member's type picks the value syntax and its range.
template <class T, auto Member>
void assign(T& op, const KeyValue& kv, const Env& env, SpaceMask spaces) {
  op.*Member = value_of(Tag<typename MemberOf<decltype(Member)>::Value>{}, kv, env, spaces);
}

// ---- the table --------------------------------------------------------------------------------

template <class T>
std::vector<Field<T>> fields_of();

template <>
std::vector<Field<isa::DataCopy>> fields_of() {
  using T = isa::DataCopy;
  return {{"dst", true, &assign<T, &T::dst>, kL1},      {"src", true, &assign<T, &T::src>, kGM},
          {"blockLen", true, &assign<T, &T::blockLen>}, {"blockCount", false, &assign<T, &T::blockCount>},
          {"srcGap", false, &assign<T, &T::srcGap>},    {"dstGap", false, &assign<T, &T::dstGap>}};
}

template <>
std::vector<Field<isa::DataCopyNd2Nz>> fields_of() {
  using T = isa::DataCopyNd2Nz;
  return {{"dst", true, &assign<T, &T::dst>, kL1},
          {"src", true, &assign<T, &T::src>, kGM},
          {"dtype", false, &assign<T, &T::dtype>},
          {"ndNum", false, &assign<T, &T::ndNum>},
          {"nValue", true, &assign<T, &T::nValue>},
          {"dValue", true, &assign<T, &T::dValue>},
          {"srcNdMatrixStride", false, &assign<T, &T::srcNdMatrixStride>},
          {"srcDValue", true, &assign<T, &T::srcDValue>},
          {"dstNzC0Stride", true, &assign<T, &T::dstNzC0Stride>},
          {"dstNzNStride", false, &assign<T, &T::dstNzNStride>},
          {"dstNzMatrixStride", false, &assign<T, &T::dstNzMatrixStride>}};
}

template <>
std::vector<Field<isa::LoadData>> fields_of() {
  using T = isa::LoadData;
  return {{"dst", true, &assign<T, &T::dst>, static_cast<SpaceMask>(kL0A | kL0B)},
          {"src", true, &assign<T, &T::src>, kL1},
          {"dtype", false, &assign<T, &T::dtype>},
          {"startIndex", false, &assign<T, &T::startIndex>},
          {"repeatTimes", true, &assign<T, &T::repeatTimes>},
          {"srcStride", false, &assign<T, &T::srcStride>},
          {"dstGap", false, &assign<T, &T::dstGap>},
          {"ifTranspose", false, &assign<T, &T::ifTranspose>},
          {"sid", false, &assign<T, &T::sid>},
          {"addrMode", false, &assign<T, &T::addrMode>}};
}

template <>
std::vector<Field<isa::LoadDataWithSparse>> fields_of() {
  using T = isa::LoadDataWithSparse;
  // srcStride..addrMode are accepted because the Ascend C struct has them (a transliterated call
  // may pass the whole struct); check_fields rejects non-zero values at run time.
  return {{"dst", true, &assign<T, &T::dst>, kL0B},
          {"src", true, &assign<T, &T::src>, kL1},
          {"idx", true, &assign<T, &T::idx>, kL1},
          {"startIndex", false, &assign<T, &T::startIndex>},
          {"repeatTimes", true, &assign<T, &T::repeatTimes>},
          {"srcStride", false, &assign<T, &T::srcStride>},
          {"dstGap", false, &assign<T, &T::dstGap>},
          {"ifTranspose", false, &assign<T, &T::ifTranspose>},
          {"sid", false, &assign<T, &T::sid>},
          {"addrMode", false, &assign<T, &T::addrMode>}};
}

template <class T>
std::vector<Field<T>> mmad_common_fields() {
  return {{"dst", true, &assign<T, &T::dst>, kL0C},
          {"fm", true, &assign<T, &T::fm>, kL0A},
          {"filter", true, &assign<T, &T::filter>, kL0B},
          {"m", true, &assign<T, &T::m>},
          {"n", true, &assign<T, &T::n>},
          {"k", true, &assign<T, &T::k>},
          {"cmatrixInitVal", false, &assign<T, &T::cmatrixInitVal>},
          {"cmatrixSource", false, &assign<T, &T::cmatrixSource>},
          {"isBias", false, &assign<T, &T::isBias>},
          {"unitFlag", false, &assign<T, &T::unitFlag>}};
}

template <>
std::vector<Field<isa::Mmad>> fields_of() {
  auto f = mmad_common_fields<isa::Mmad>();
  f.push_back({"dtype", false, &assign<isa::Mmad, &isa::Mmad::dtype>});
  return f;
}

template <>
std::vector<Field<isa::MmadWithSparse>> fields_of() {
  return mmad_common_fields<isa::MmadWithSparse>();
}

template <>
std::vector<Field<isa::Fixpipe>> fields_of() {
  using T = isa::Fixpipe;
  return {{"dst", true, &assign<T, &T::dst>, kGM},
          {"src", true, &assign<T, &T::src>, kL0C},
          {"dtype", false, &assign<T, &T::dtype>},
          {"nSize", true, &assign<T, &T::nSize>},
          {"mSize", true, &assign<T, &T::mSize>},
          {"srcStride", true, &assign<T, &T::srcStride>},
          {"dstStride", true, &assign<T, &T::dstStride>},
          {"ndNum", false, &assign<T, &T::ndNum>},
          {"srcNdStride", false, &assign<T, &T::srcNdStride>},
          {"dstNdStride", false, &assign<T, &T::dstNdStride>},
          {"reluEn", false, &assign<T, &T::reluEn>}};
}

template <>
std::vector<Field<isa::SetFlag>> fields_of() {
  using T = isa::SetFlag;
  return {{"event", true, &assign<T, &T::event>}, {"id", true, &assign<T, &T::id>}};
}

template <>
std::vector<Field<isa::WaitFlag>> fields_of() {
  using T = isa::WaitFlag;
  return {{"event", true, &assign<T, &T::event>}, {"id", true, &assign<T, &T::id>}};
}

template <>
std::vector<Field<isa::PipeBarrier>> fields_of() {
  return {{"pipe", true, &parse_barrier_pipe}};
}

// ---- generic parsing --------------------------------------------------------------------------

template <class T>
struct Table {
  std::vector<Field<T>> fields = fields_of<T>();
  std::vector<std::string> keys = [this] {
    std::vector<std::string> k;
    for (const auto& f : fields) k.emplace_back(f.key);
    return k;
  }();
};

template <class T>
isa::Op parse_as(const std::vector<Token>& tokens, const Env& env) {
  static const Table<T> table;
  // Reused across lines: parsing a trace allocates nothing per instruction.
  thread_local std::vector<KeyValue> pairs;
  thread_local std::vector<const KeyValue*> slots;
  collect_fields(tokens.data() + 1, tokens.data() + tokens.size(), table.keys, env.mnemonic, env.ctx, pairs,
                 slots);
  std::string missing;
  size_t n_missing = 0;
  for (size_t i = 0; i < table.fields.size(); ++i) {
    if (table.fields[i].required && !slots[i]) {
      missing += (n_missing++ ? ", '" : "'") + table.keys[i] + "'";
    }
  }
  if (n_missing)
    env.ctx.fail(tokens[0].column, std::string(env.mnemonic) + " is missing required key" +
                                       (n_missing > 1 ? "s " : " ") + missing);
  T op{};
  for (size_t i = 0; i < table.fields.size(); ++i)
    if (slots[i]) table.fields[i].set(op, *slots[i], env, table.fields[i].spaces);
  return op;
}

struct Entry {
  const char* mnemonic;
  isa::Op (*parse)(const std::vector<Token>&, const Env&);
};
constexpr Entry kEntries[] = {
    {"DataCopy", &parse_as<isa::DataCopy>}, {"DataCopyNd2Nz", &parse_as<isa::DataCopyNd2Nz>},
    {"LoadData", &parse_as<isa::LoadData>}, {"LoadDataWithSparse", &parse_as<isa::LoadDataWithSparse>},
    {"Mmad", &parse_as<isa::Mmad>},         {"MmadWithSparse", &parse_as<isa::MmadWithSparse>},
    {"Fixpipe", &parse_as<isa::Fixpipe>},   {"SetFlag", &parse_as<isa::SetFlag>},
    {"WaitFlag", &parse_as<isa::WaitFlag>}, {"PipeBarrier", &parse_as<isa::PipeBarrier>},
};

}  // namespace

const std::vector<std::string>& mnemonics() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const auto& e : kEntries) v.emplace_back(e.mnemonic);
    return v;
  }();
  return names;
}

isa::Op parse_instruction(const std::vector<Token>& tokens, const TensorTable& tensors,
                          const LineContext& ctx) {
  const Token& mn = tokens.at(0);
  for (const auto& e : kEntries)
    if (mn.text == e.mnemonic) return e.parse(tokens, Env{ctx, tensors, e.mnemonic});
  if (mn.text.find('=') != std::string_view::npos)
    ctx.fail(mn.column,
             "a statement starts with an instruction mnemonic or a directive, not " + quote(mn.text));
  ctx.fail(mn.column, "unknown instruction " + quote(mn.text) + suggestion(mn.text, mnemonics()));
}

}  // namespace aicore::trace::detail
