// The v1 instruction table of trace-format.md as data: for each mnemonic, its keys in Ascend C
// spelling, which are required, the isa struct member each one fills and, for operands, the
// memories it may name. Field ranges beyond the member's width (event pairs, ids, dtypes per
// instruction, alignment) are checked at run time by isa::check_fields, not here.
#include "instruction_parser.hpp"

#include <limits>

namespace aicore::trace::detail {

namespace {

using isa::Space;
using SpaceMask = uint8_t;
constexpr SpaceMask bit(Space s) { return static_cast<SpaceMask>(1u << static_cast<unsigned>(s)); }
constexpr SpaceMask kGM = bit(Space::GM), kL1 = bit(Space::L1), kL0A = bit(Space::L0A), kL0B = bit(Space::L0B),
                    kL0C = bit(Space::L0C);

struct Env {
  const LineContext& ctx;
  const TensorTable& tensors;
  const char* mnemonic;
};

template <class T>
struct Field {
  using Setter = void (*)(T&, const KeyValue&, const Env&, SpaceMask);
  const char* key;
  bool required;
  Setter set;
  SpaceMask spaces = 0;  // operands only
};

// ---- operands ---------------------------------------------------------------------------------

struct SpaceName {
  const char* name;
  Space space;
};
constexpr SpaceName kSpaceNames[] = {{"L1", Space::L1},  {"L0A", Space::L0A}, {"L0B", Space::L0B},
                                     {"L0C", Space::L0C}, {"A1", Space::L1},   {"B1", Space::L1},
                                     {"A2", Space::L0A},  {"B2", Space::L0B},  {"CO1", Space::L0C}};

const std::vector<std::string>& space_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const auto& s : kSpaceNames) v.emplace_back(s.name);
    return v;
  }();
  return names;
}

std::string describe(SpaceMask mask) {
  std::string out;
  const auto add = [&](SpaceMask b, const char* text) {
    if (!(mask & b)) return;
    if (!out.empty()) out += " or ";
    out += text;
  };
  add(kGM, "GM (a .gm tensor)");
  add(kL1, "L1 (L1/A1/B1)");
  add(kL0A, "L0A (L0A/A2)");
  add(kL0B, "L0B (L0B/B2)");
  add(kL0C, "L0C (L0C/CO1)");
  return out;
}

constexpr uint64_t kU64Max = std::numeric_limits<uint64_t>::max();

isa::Addr parse_operand(const KeyValue& kv, SpaceMask allowed, const Env& env) {
  const LineContext& ctx = env.ctx;
  const std::string_view v = kv.value;
  const std::string key(kv.key);
  const auto wrong_space = [&](const std::string& got) {
    ctx.fail(kv.key_column, key + " of " + env.mnemonic + " must be in " + describe(allowed) + ", got " + got);
  };
  isa::Addr a;
  const size_t colon = v.find(':');
  if (colon != std::string_view::npos) {
    const std::string_view name = v.substr(0, colon);
    const SpaceName* found = nullptr;
    for (const auto& s : kSpaceNames)
      if (name == s.name) found = &s;
    if (!found) {
      if (name == "GM")
        ctx.fail(kv.value_column, "GM operands are written as a .gm tensor name, optionally +OFFSET (e.g. c+256)");
      ctx.fail(kv.value_column, "unknown memory space " + quote(name) +
                                    "; expected L1, L0A, L0B, L0C, A1, B1, A2, B2 or CO1" +
                                    suggestion(name, space_names()));
    }
    a.space = found->space;
    a.offset = parse_uint(v.substr(colon + 1), kv.value_column + static_cast<uint32_t>(colon) + 1, kU64Max,
                          "offset of " + key, ctx);
    if (!(allowed & bit(a.space))) {
      std::string got(found->name);
      if (got != isa::to_string(a.space)) got += " (= " + std::string(isa::to_string(a.space)) + ")";
      wrong_space(got);
    }
    return a;
  }
  const size_t plus = v.find('+');
  const std::string_view name = v.substr(0, plus);
  if (!(allowed & kGM)) wrong_space(quote(v) + " (a GM tensor; on-chip operands are written SPACE:OFFSET)");
  a.space = Space::GM;
  const GmDecl* tensor = env.tensors.find(name);
  if (!tensor) {
    std::string msg = "unknown tensor " + quote(name);
    for (const auto& s : kSpaceNames)
      if (name == s.name) msg += " (on-chip operands are written SPACE:OFFSET, e.g. L1:0)";
    if (env.tensors.list().empty()) msg += " (no .gm tensor is declared before this line)";
    ctx.fail(kv.value_column, msg + env.tensors.suggest(name));
  }
  a.tensor = tensor->id;
  if (plus != std::string_view::npos)
    a.offset = parse_uint(v.substr(plus + 1), kv.value_column + static_cast<uint32_t>(plus) + 1, kU64Max,
                          "offset of " + key, ctx);
  return a;
}

// ---- enumerations -----------------------------------------------------------------------------

const std::vector<std::string>& pipe_names() {
  static const std::vector<std::string> names = {"S", "MTE1", "MTE2", "MTE3", "M", "FIX"};
  return names;
}

isa::EventPair parse_event(const KeyValue& kv, const Env& env) {
  const std::string_view v = kv.value;
  const size_t us = v.find('_');
  if (us == std::string_view::npos)
    env.ctx.fail(kv.value_column, "malformed event " + quote(v) +
                                      ": expected SRC_DST with pipes S, MTE1, MTE2, MTE3, M or FIX (e.g. MTE2_MTE1)");
  const auto pipe = [&](std::string_view part, uint32_t column, const char* role) {
    const auto p = isa::pipe_from_string(std::string(part));
    if (!p)
      env.ctx.fail(column, std::string("unknown ") + role + " pipe " + quote(part) + " in event " + quote(v) +
                               "; expected S, MTE1, MTE2, MTE3, M or FIX" + suggestion(part, pipe_names()));
    return *p;
  };
  isa::EventPair e;
  e.src = pipe(v.substr(0, us), kv.value_column, "source");
  e.dst = pipe(v.substr(us + 1), kv.value_column + static_cast<uint32_t>(us) + 1, "destination");
  return e;
}

void parse_barrier_pipe(isa::PipeBarrier& b, const KeyValue& kv, const Env& env, SpaceMask) {
  static const std::vector<std::string> names = {"PIPE_S",    "PIPE_MTE1", "PIPE_MTE2", "PIPE_MTE3",
                                                 "PIPE_M",    "PIPE_FIX",  "PIPE_ALL"};
  const std::string v(kv.value);
  if (v == "PIPE_ALL") {
    b.pipe = isa::Pipe::S;
    b.all = true;
    return;
  }
  if (v.rfind("PIPE_", 0) == 0) {
    if (const auto p = isa::pipe_from_string(v.substr(5))) {
      b.pipe = *p;
      b.all = false;
      return;
    }
  }
  std::string hint = suggestion(v, names);
  if (hint.empty() && isa::pipe_from_string(v)) hint = "; did you mean 'PIPE_" + v + "'?";
  env.ctx.fail(kv.value_column, "unknown pipe " + quote(v) +
                                    "; expected PIPE_MTE2, PIPE_MTE1, PIPE_M, PIPE_FIX, PIPE_MTE3, PIPE_S or PIPE_ALL" +
                                    hint);
}

isa::DType parse_dtype(const KeyValue& kv, const LineContext& ctx) {
  static const std::vector<std::string> names = {"int8", "half", "bf16", "int32", "float"};
  if (const auto t = isa::dtype_from_string(std::string(kv.value))) return *t;
  ctx.fail(kv.value_column, "unknown dtype " + quote(kv.value) + " for " + std::string(kv.key) +
                                "; expected int8, half, bf16, int32 or float" + suggestion(kv.value, names));
}

// ---- member setters ---------------------------------------------------------------------------

template <class V>
struct Tag {};

std::string field_name(const char* type, const KeyValue& kv) { return std::string(type) + " field " + std::string(kv.key); }

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
  return static_cast<uint32_t>(parse_uint(kv.value, kv.value_column, 0xFFFFFFFF, field_name("u32", kv), env.ctx));
}
bool value_of(Tag<bool>, const KeyValue& kv, const Env& env, SpaceMask) {
  return parse_bool(kv.value, kv.value_column, field_name("boolean", kv), env.ctx);
}
isa::DType value_of(Tag<isa::DType>, const KeyValue& kv, const Env& env, SpaceMask) { return parse_dtype(kv, env.ctx); }
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
  return {{"dst", true, &assign<T, &T::dst>, kL1},          {"src", true, &assign<T, &T::src>, kGM},
          {"blockLen", true, &assign<T, &T::blockLen>},     {"blockCount", false, &assign<T, &T::blockCount>},
          {"srcGap", false, &assign<T, &T::srcGap>},        {"dstGap", false, &assign<T, &T::dstGap>}};
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
  return {{"dst", true, &assign<T, &T::dst>, kL0B},       {"src", true, &assign<T, &T::src>, kL1},
          {"idx", true, &assign<T, &T::idx>, kL1},        {"startIndex", false, &assign<T, &T::startIndex>},
          {"repeatTimes", true, &assign<T, &T::repeatTimes>}, {"srcStride", false, &assign<T, &T::srcStride>},
          {"dstGap", false, &assign<T, &T::dstGap>},      {"ifTranspose", false, &assign<T, &T::ifTranspose>},
          {"sid", false, &assign<T, &T::sid>},            {"addrMode", false, &assign<T, &T::addrMode>}};
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
  std::vector<KeyValue> pairs;
  std::vector<const KeyValue*> slots;
  collect_fields(tokens.data() + 1, tokens.data() + tokens.size(), table.keys, env.mnemonic, env.ctx, pairs, slots);
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
    {"DataCopy", &parse_as<isa::DataCopy>},
    {"DataCopyNd2Nz", &parse_as<isa::DataCopyNd2Nz>},
    {"LoadData", &parse_as<isa::LoadData>},
    {"LoadDataWithSparse", &parse_as<isa::LoadDataWithSparse>},
    {"Mmad", &parse_as<isa::Mmad>},
    {"MmadWithSparse", &parse_as<isa::MmadWithSparse>},
    {"Fixpipe", &parse_as<isa::Fixpipe>},
    {"SetFlag", &parse_as<isa::SetFlag>},
    {"WaitFlag", &parse_as<isa::WaitFlag>},
    {"PipeBarrier", &parse_as<isa::PipeBarrier>},
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

isa::Op parse_instruction(const std::vector<Token>& tokens, const TensorTable& tensors, const LineContext& ctx) {
  const Token& mn = tokens.at(0);
  for (const auto& e : kEntries)
    if (mn.text == e.mnemonic) return e.parse(tokens, Env{ctx, tensors, e.mnemonic});
  if (mn.text.find('=') != std::string_view::npos)
    ctx.fail(mn.column, "a statement starts with an instruction mnemonic or a directive, not " + quote(mn.text));
  ctx.fail(mn.column, "unknown instruction " + quote(mn.text) + suggestion(mn.text, mnemonics()));
}

}  // namespace aicore::trace::detail
