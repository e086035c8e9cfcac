// The v1 instruction table as data: for each mnemonic, its keys in Ascend C spelling, which are
// required, the isa struct member each one fills, what it accepts beyond its member's type
// (operand memories, tighter bounds, unused members, element types) and one line saying what it
// means. The parser runs on this table and instruction_info() describes it, so the generated
// field tables of docs/trace-format.md are this table. Rules that span fields or need memory
// sizes (alignment, bounds, ifTranspose only for b16, ...) are run-time checks (isa::check).
#include <algorithm>

#include "aicore/trace/instruction_info.hpp"
#include "fields.hpp"
#include "instruction_parser.hpp"

namespace aicore::trace::detail {

namespace {

// ---- the table --------------------------------------------------------------------------------

template <class T>
std::vector<Field<T>> fields_of();

template <>
std::vector<Field<isa::DataCopy>> fields_of() {
  using T = isa::DataCopy;
  return {req<T, &T::dst>("dst", "destination in L1, byte offset", in(kL1)),
          req<T, &T::src>("src", "source tensor in GM, optionally +byte offset", in(kGM)),
          req<T, &T::blockLen>("blockLen", "length of each block, in 32-byte units"),
          opt<T, &T::blockCount>("blockCount", "number of blocks"),
          opt<T, &T::srcGap>("srcGap", "gap between source blocks, in 32-byte units"),
          opt<T, &T::dstGap>("dstGap", "gap between destination blocks, in 32-byte units")};
}

template <>
std::vector<Field<isa::DataCopyNd2Nz>> fields_of() {
  using T = isa::DataCopyNd2Nz;
  return {
      req<T, &T::dst>("dst", "destination in L1, byte offset", in(kL1)),
      req<T, &T::src>("src", "source ND matrix in GM, optionally +byte offset", in(kGM)),
      opt<T, &T::dtype>("dtype", "element type (sets the element size)"),
      opt<T, &T::ndNum>("ndNum", "number of matrices"),
      req<T, &T::nValue>("nValue", "rows per matrix"),
      req<T, &T::dValue>("dValue", "elements per row"),
      opt<T, &T::srcNdMatrixStride>("srcNdMatrixStride", "source distance between matrices, in elements"),
      req<T, &T::srcDValue>("srcDValue", "source distance between rows, in elements"),
      req<T, &T::dstNzC0Stride>("dstNzC0Stride",
                                "destination distance between 32-byte column blocks, in 32-byte units"),
      opt<T, &T::dstNzNStride>("dstNzNStride", "destination distance between rows, in 32-byte units"),
      opt<T, &T::dstNzMatrixStride>(
          "dstNzMatrixStride", "destination distance between matrices, in elements (not 0 when ndNum > 1)")};
}

template <>
std::vector<Field<isa::LoadData>> fields_of() {
  using T = isa::LoadData;
  return {req<T, &T::dst>("dst", "destination in L0A or L0B, byte offset", in(kL0A | kL0B)),
          req<T, &T::src>("src", "source in L1, byte offset", in(kL1)),
          opt<T, &T::dtype>("dtype", "element type; matters only for ifTranspose", dtypes(kInputTypes)),
          opt<T, &T::startIndex>("startIndex", "first source fractal, in 512-byte fractals from src"),
          req<T, &T::repeatTimes>("repeatTimes", "fractals to move (0 = nothing)"),
          opt<T, &T::srcStride>("srcStride", "source fractals between repeats (0 = the same fractal)"),
          opt<T, &T::dstGap>("dstGap", "destination fractals skipped between repeats"),
          opt<T, &T::ifTranspose>("ifTranspose",
                                  "transpose each 16 x 16 fractal; half/bf16 only (int8: refused)"),
          opt<T, &T::sid>("sid", "stream id; must be 0"),
          opt<T, &T::addrMode>("addrMode", "address mode; not 0 is not modelled (refused)")};
}

template <>
std::vector<Field<isa::LoadDataWithSparse>> fields_of() {
  using T = isa::LoadDataWithSparse;
  return {req<T, &T::dst>("dst", "destination in L0B, byte offset; indexes go to dst / 4 in the index buffer",
                          in(kL0B)),
          req<T, &T::src>("src", "dense weight fractals in L1, byte offset", in(kL1)),
          req<T, &T::idx>("idx", "index fractals (128 B each) in L1, byte offset", in(kL1)),
          opt<T, &T::startIndex>("startIndex", "first fractal pair to load"),
          req<T, &T::repeatTimes>("repeatTimes", "fractal pairs to load (0 = nothing)"),
          opt<T, &T::srcStride>("srcStride", "unused (Ascend C struct member)", unused()),
          opt<T, &T::dstGap>("dstGap", "unused (Ascend C struct member)", unused()),
          opt<T, &T::ifTranspose>("ifTranspose", "unused (Ascend C struct member)", unused()),
          opt<T, &T::sid>("sid", "unused (Ascend C struct member)", unused()),
          opt<T, &T::addrMode>("addrMode", "unused (Ascend C struct member)", unused())};
}

template <class T>
std::vector<Field<T>> mmad_common_fields(const char* k_meaning) {
  return {
      req<T, &T::dst>("dst", "C in L0C (Nz), byte offset", in(kL0C)),
      req<T, &T::fm>("fm", "A (feature map) in L0A (Zz), byte offset", in(kL0A)),
      req<T, &T::filter>("filter", "B (weights) in L0B (Zn), byte offset", in(kL0B)),
      req<T, &T::m>("m", "rows of A and C; at most 4095"),
      req<T, &T::n>("n", "columns of B and C; at most 4095"),
      req<T, &T::k>("k", k_meaning),
      opt<T, &T::cmatrixInitVal>("cmatrixInitVal", "1: C = A x B; 0: C += A x B"),
      opt<T, &T::cmatrixSource>("cmatrixSource", "1: initial C from the bias table; not modelled (refused)"),
      opt<T, &T::isBias>("isBias", "1: accumulate into C (older spelling of cmatrixInitVal=0)"),
      opt<T, &T::unitFlag>("unitFlag", "Mmad/Fixpipe fine-grained sync; accepted, not modelled")};
}

template <>
std::vector<Field<isa::Mmad>> fields_of() {
  using T = isa::Mmad;
  auto f = mmad_common_fields<T>("reduction length (columns of A, rows of B); at most 4095");
  const auto after_k = f.begin() + 6;  // where the writer puts it
  f.insert(after_k, opt<T, &T::dtype>("dtype", "input type: int8 -> int32 cells, half/bf16 -> float cells",
                                      dtypes(kInputTypes)));
  return f;
}

template <>
std::vector<Field<isa::MmadWithSparse>> fields_of() {
  return mmad_common_fields<isa::MmadWithSparse>(
      "the original K (B' holds K/2 rows); a multiple of 4, at most 4095");
}

template <>
std::vector<Field<isa::Fixpipe>> fields_of() {
  using T = isa::Fixpipe;
  return {
      req<T, &T::dst>("dst", "destination tensor in GM, optionally +byte offset", in(kGM)),
      req<T, &T::src>("src", "C in L0C (Nz), byte offset", in(kL0C)),
      opt<T, &T::dtype>("dtype", "L0C cell type, copied as is", dtypes(kCellTypes)),
      req<T, &T::nSize>("nSize", "columns to write; a multiple of 16, at most 4095"),
      req<T, &T::mSize>("mSize", "rows to write"),
      req<T, &T::srcStride>("srcStride", "L0C rows per 16-column block (ceil16(M) for a whole C)"),
      req<T, &T::dstStride>("dstStride", "elements per destination row"),
      opt<T, &T::ndNum>("ndNum", "number of matrices"),
      opt<T, &T::srcNdStride>(
          "srcNdStride", "source distance between matrices, in 1024-byte fractals (1..512 when ndNum > 1)"),
      opt<T, &T::dstNdStride>("dstNdStride",
                              "destination distance between matrices, in elements (not 0 when ndNum > 1)"),
      opt<T, &T::reluEn>("reluEn", "1: negative values are written as 0")};
}

template <>
std::vector<Field<isa::SetFlag>> fields_of() {
  using T = isa::SetFlag;
  return {req<T, &T::event>(
              "event",
              "SRC_DST: the pipe that sets and the pipe that waits; a pair the hardware lacks is refused"),
          req<T, &T::id>("id", "flag id", at_most(isa::kEventIds - 1))};
}

template <>
std::vector<Field<isa::WaitFlag>> fields_of() {
  using T = isa::WaitFlag;
  return {req<T, &T::event>(
              "event",
              "SRC_DST: the pipe that sets and the pipe that waits; a pair the hardware lacks is refused"),
          req<T, &T::id>("id", "flag id", at_most(isa::kEventIds - 1))};
}

TypeInfo barrier_pipe_type() {
  return {"pipe", 0, ""};
}

template <>
std::vector<Field<isa::PipeBarrier>> fields_of() {
  return {{"pipe", true, &parse_barrier_pipe, &barrier_pipe_type, "the pipe to drain, or PIPE_ALL"}};
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
    if (slots[i]) table.fields[i].set(op, *slots[i], env, table.fields[i].spec);
  return op;
}

// ---- the description ---------------------------------------------------------------------------

std::string accepts_text(const TypeInfo& t, const FieldSpec& spec) {
  const std::string type = t.type;
  if (type == "operand") return describe_spaces(spec.spaces);
  if (type == "dtype") return describe_dtypes(spec.dtypes);
  if (type == "event") return "SRC_DST, SRC and DST each one of S, MTE1, MTE2, MTE3, M, FIX";
  if (type == "pipe") {
    std::string s;
    for (const auto& n : barrier_pipe_names()) s += (s.empty() ? "" : ", ") + n;
    return s;
  }
  if (spec.unused) return "0 only";
  if (type == "boolean") return "0, 1, false, true";
  return "0.." + std::to_string(std::min(t.max, spec.max));
}

template <class T>
std::vector<FieldInfo> describe() {
  std::vector<FieldInfo> out;
  for (const Field<T>& f : Table<T>().fields) {
    const TypeInfo t = f.type();
    FieldInfo i;
    i.key = f.key;
    i.type = t.type;
    i.required = f.required;
    i.accepts = accepts_text(t, f.spec);
    if (!f.required) i.default_value = t.default_value;
    for (const isa::Space s :
         {isa::Space::GM, isa::Space::L1, isa::Space::L0A, isa::Space::L0B, isa::Space::L0C})
      if (f.spec.spaces & bit(s)) i.spaces.push_back(s);
    i.max = f.spec.unused ? 0 : std::min(t.max, f.spec.max);
    i.unused = f.spec.unused;
    i.meaning = f.meaning;
    out.push_back(std::move(i));
  }
  return out;
}

struct Entry {
  const char* mnemonic;
  isa::Op (*parse)(const std::vector<Token>&, const Env&);
  std::vector<FieldInfo> (*describe)();
  const char* pipe;
  const char* summary;
};
const Entry kEntries[] = {
    {"DataCopy", &parse_as<isa::DataCopy>, &describe<isa::DataCopy>, "MTE2", "GM -> L1 copy of equal blocks"},
    {"DataCopyNd2Nz", &parse_as<isa::DataCopyNd2Nz>, &describe<isa::DataCopyNd2Nz>, "MTE2",
     "GM -> L1 copy of row-major (ND) matrices into the NZ layout"},
    {"LoadData", &parse_as<isa::LoadData>, &describe<isa::LoadData>, "MTE1",
     "L1 -> L0A/L0B copy of whole 512-byte fractals"},
    {"LoadDataWithSparse", &parse_as<isa::LoadDataWithSparse>, &describe<isa::LoadDataWithSparse>, "MTE1",
     "L1 -> L0B copy of 4:2 dense weight fractals, and their indexes to the index buffer"},
    {"Mmad", &parse_as<isa::Mmad>, &describe<isa::Mmad>, "M", "dense matrix multiply L0A x L0B -> L0C"},
    {"MmadWithSparse", &parse_as<isa::MmadWithSparse>, &describe<isa::MmadWithSparse>, "M",
     "4:2 sparse int8 matrix multiply L0A x L0B (+ index buffer) -> L0C"},
    {"Fixpipe", &parse_as<isa::Fixpipe>, &describe<isa::Fixpipe>, "FIX",
     "L0C (Nz) -> GM (row-major) copy of results"},
    {"SetFlag", &parse_as<isa::SetFlag>, &describe<isa::SetFlag>, "SRC of the event",
     "sets flag (event, id) once every earlier SRC instruction has finished"},
    {"WaitFlag", &parse_as<isa::WaitFlag>, &describe<isa::WaitFlag>, "DST of the event",
     "holds pipe DST until flag (event, id) is set, then clears it"},
    {"PipeBarrier", &parse_as<isa::PipeBarrier>, &describe<isa::PipeBarrier>, "the named pipe (PIPE_ALL: S)",
     "later instructions of the pipe wait until its earlier ones have finished"},
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

namespace aicore::trace {

const std::vector<InstructionInfo>& instruction_info() {
  static const std::vector<InstructionInfo> table = [] {
    std::vector<InstructionInfo> v;
    for (const auto& e : detail::kEntries) v.push_back({e.mnemonic, e.pipe, e.summary, e.describe()});
    return v;
  }();
  return table;
}

std::vector<std::string> space_aliases(isa::Space s) {
  return detail::aliases_of(s);
}

}  // namespace aicore::trace
