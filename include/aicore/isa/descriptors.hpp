// One descriptor per instruction: its mnemonic, the pipe that runs it, one line saying what it
// does, and its fields (isa/field.hpp) in the order a trace writes them. This table is the only
// place these are written down: the trace reader parses by it, the trace writer writes by it, the
// checker compares and hashes ops by it, isa::mnemonic() and isa::pipe_of() answer from it, the
// Ascend C intrinsics copy their parameter structs by it, and docs/trace-format.md's tables and
// fuzz/trace.dict are generated from it (tools/docgen). Adding an instruction: docs/design.md.
#pragma once
#include <array>
#include <tuple>
#include <utility>
#include <variant>

#include "aicore/isa/field.hpp"

namespace aicore::isa {

// Which pipe runs an instruction: a fixed one, or one its fields name.
enum class PipeRule : uint8_t {
  Fixed,             // `pipe`
  EventSource,       // SRC of its event field (SetFlag)
  EventDestination,  // DST of its event field (WaitFlag)
  Barrier,           // the pipe its barrier field names; PIPE_ALL is handled by the scalar unit (S)
};
// "SRC of the event", ...: the pipe column of the docs for a rule other than Fixed.
const char* to_string(PipeRule r);

struct InstructionFacts {
  const char* mnemonic;
  PipeRule pipe_rule;
  Pipe pipe;  // PipeRule::Fixed only
  const char* summary;
};
constexpr InstructionFacts runs_on(const char* mnemonic, Pipe p, const char* summary) {
  return {mnemonic, PipeRule::Fixed, p, summary};
}
constexpr InstructionFacts runs_on(const char* mnemonic, PipeRule r, const char* summary) {
  return {mnemonic, r, Pipe::S, summary};
}

template <class T>
struct Descriptor;  // specialised for every alternative of Op below

// ---- the table ---------------------------------------------------------------------------------
// One field per line (clang-format would pack short ones together).
// clang-format off

template <>
struct Descriptor<DataCopy> {
  using T = DataCopy;
  static constexpr InstructionFacts facts = runs_on("DataCopy", Pipe::MTE2, "GM -> L1 copy of equal blocks");
  static constexpr auto fields =
      std::make_tuple(AICORE_REQUIRED(T, dst, "destination in L1, byte offset", in(kL1)),
                      AICORE_REQUIRED(T, src, "source tensor in GM, optionally +byte offset", in(kGM)),
                      AICORE_REQUIRED(T, blockLen, "length of each block, in 32-byte units"),
                      AICORE_OPTIONAL(T, blockCount, "number of blocks"),
                      AICORE_OPTIONAL(T, srcGap, "gap between source blocks, in 32-byte units"),
                      AICORE_OPTIONAL(T, dstGap, "gap between destination blocks, in 32-byte units"));
};

template <>
struct Descriptor<DataCopyNd2Nz> {
  using T = DataCopyNd2Nz;
  static constexpr InstructionFacts facts =
      runs_on("DataCopyNd2Nz", Pipe::MTE2, "GM -> L1 copy of row-major (ND) matrices into the NZ layout");
  static constexpr auto fields = std::make_tuple(
      AICORE_REQUIRED(T, dst, "destination in L1, byte offset", in(kL1)),
      AICORE_REQUIRED(T, src, "source ND matrix in GM, optionally +byte offset", in(kGM)),
      AICORE_OPTIONAL(T, dtype, "element type (sets the element size; int4: counts in elements must be even)"),
      AICORE_OPTIONAL(T, ndNum, "number of matrices"),
      AICORE_REQUIRED(T, nValue, "rows per matrix"),
      AICORE_REQUIRED(T, dValue, "elements per row"),
      AICORE_OPTIONAL(T, srcNdMatrixStride, "source distance between matrices, in elements"),
      AICORE_REQUIRED(T, srcDValue, "source distance between rows, in elements"),
      AICORE_REQUIRED(T, dstNzC0Stride,
                      "destination distance between 32-byte column blocks, in 32-byte units"),
      AICORE_OPTIONAL(T, dstNzNStride, "destination distance between rows, in 32-byte units"),
      AICORE_OPTIONAL(T, dstNzMatrixStride,
                      "destination distance between matrices, in elements (not 0 when ndNum > 1)"));
};

template <>
struct Descriptor<LoadData> {
  using T = LoadData;
  static constexpr InstructionFacts facts =
      runs_on("LoadData", Pipe::MTE1, "L1 -> L0A/L0B copy of whole 512-byte fractals");
  static constexpr auto fields = std::make_tuple(
      AICORE_REQUIRED(T, dst, "destination in L0A or L0B, byte offset", in(kL0A | kL0B)),
      AICORE_REQUIRED(T, src, "source in L1, byte offset", in(kL1)),
      AICORE_OPTIONAL(T, dtype, "element type; matters only for ifTranspose (an int4 fractal is 16 x 64)"),
      AICORE_OPTIONAL(T, startIndex, "first source fractal, in 512-byte fractals from src"),
      AICORE_REQUIRED(T, repeatTimes, "fractals to move (0 = nothing)"),
      AICORE_OPTIONAL(T, srcStride, "source fractals between repeats (0 = the same fractal)"),
      AICORE_OPTIONAL(T, dstGap, "destination fractals skipped between repeats"),
      AICORE_OPTIONAL(T, ifTranspose,
                      "transpose each 16 x 16 fractal; half/bf16 only (int4, int8, float, int32: refused)"),
      AICORE_OPTIONAL(T, sid, "stream id; must be 0"),
      AICORE_OPTIONAL(T, addrMode, "address mode; not 0 is not modelled (refused)"));
};

template <>
struct Descriptor<LoadDataWithSparse> {
  using T = LoadDataWithSparse;
  static constexpr InstructionFacts facts =
      runs_on("LoadDataWithSparse", Pipe::MTE1,
              "L1 -> L0B copy of 4:2 dense weight fractals, and their indexes to the index buffer");
  static constexpr auto fields = std::make_tuple(
      AICORE_REQUIRED(T, dst, "destination in L0B, byte offset; indexes go to dst / 4 in the index buffer",
                      in(kL0B)),
      AICORE_REQUIRED(T, src, "dense weight fractals in L1, byte offset", in(kL1)),
      AICORE_REQUIRED(T, idx, "index fractals (128 B each) in L1, byte offset", in(kL1)),
      AICORE_OPTIONAL(T, startIndex, "first fractal pair to load"),
      AICORE_REQUIRED(T, repeatTimes, "fractal pairs to load (0 = nothing)"),
      AICORE_OPTIONAL(T, srcStride, "unused (Ascend C struct member)", unused()),
      AICORE_OPTIONAL(T, dstGap, "unused (Ascend C struct member)", unused()),
      AICORE_OPTIONAL(T, ifTranspose, "unused (Ascend C struct member)", unused()),
      AICORE_OPTIONAL(T, sid, "unused (Ascend C struct member)", unused()),
      AICORE_OPTIONAL(T, addrMode, "unused (Ascend C struct member)", unused()));
};

namespace detail {
// The fields Mmad and MmadWithSparse share: the operands and sizes before k, the flags after.
template <class T>
constexpr auto mmad_operands() {
  return std::make_tuple(AICORE_REQUIRED(T, dst, "C in L0C (Nz), byte offset", in(kL0C)),
                         AICORE_REQUIRED(T, fm, "A (feature map) in L0A (Zz), byte offset", in(kL0A)),
                         AICORE_REQUIRED(T, filter, "B (weights) in L0B (Zn), byte offset", in(kL0B)),
                         AICORE_REQUIRED(T, m, "rows of A and C; at most 4095"),
                         AICORE_REQUIRED(T, n, "columns of B and C; at most 4095"));
}
template <class T>
constexpr auto mmad_flags() {
  return std::make_tuple(
      AICORE_OPTIONAL(T, cmatrixInitVal, "1: C = A x B; 0: C += A x B"),
      AICORE_OPTIONAL(T, cmatrixSource,
                      "with cmatrixInitVal=0: 1 = C = bias + A x B (bias from the bias table), 0 = C += A x B"),
      AICORE_OPTIONAL(T, isBias, "1: do not start C from zero (older spelling of cmatrixInitVal=0)"),
      AICORE_OPTIONAL(T, biasAddr,
                      "cmatrixSource=1: bias table (BT) byte offset of the n bias cells (int32 or float, "
                      "as C), 64-byte aligned",
                      not_in_params()),
      AICORE_OPTIONAL(T, unitFlag,
                      "hand C to Fixpipe at the L0C granule: 2 on accumulating steps, 3 on the last (0 = off)",
                      one_of({0, 2, 3})));
}
}  // namespace detail

template <>
struct Descriptor<Mmad> {
  using T = Mmad;
  static constexpr InstructionFacts facts =
      runs_on("Mmad", Pipe::M, "dense matrix multiply L0A x L0B -> L0C");
  static constexpr auto fields = std::tuple_cat(
      detail::mmad_operands<T>(),
      std::make_tuple(
          AICORE_REQUIRED(
              T, k, "reduction length (columns of A, rows of B); at most 4095"),
          AICORE_OPTIONAL(T, dtype, "input type: int8/int4 -> int32 cells, half/bf16/float -> float cells",
                          dtypes(kMmadTypes)),
          AICORE_OPTIONAL(T, kDirectionAlign,
                          "float only: A's K in L0A padded to 16, so each 16-row block of A is ceil(k / 16) * 2 "
                          "fractals apart (the Cube skips the padding)")),
      detail::mmad_flags<T>());
};

template <>
struct Descriptor<MmadWithSparse> {
  using T = MmadWithSparse;
  static constexpr InstructionFacts facts =
      runs_on("MmadWithSparse", Pipe::M, "4:2 sparse int8 matrix multiply L0A x L0B (+ index buffer) -> L0C");
  static constexpr auto fields = std::tuple_cat(
      detail::mmad_operands<T>(),
      std::make_tuple(AICORE_REQUIRED(T, k,
                                      "the original K (B' holds K/2 rows); a multiple of 4, at most "
                                      "4095")),
      detail::mmad_flags<T>());
};

template <>
struct Descriptor<Fixpipe> {
  using T = Fixpipe;
  static constexpr InstructionFacts facts =
      runs_on("Fixpipe", Pipe::FIX, "L0C (Nz) -> GM (row-major) copy of results, converting on the way");
  static constexpr auto fields = std::make_tuple(
      AICORE_REQUIRED(T, dst, "destination tensor in GM, optionally +byte offset", in(kGM)),
      AICORE_REQUIRED(T, src, "C in L0C (Nz), byte offset", in(kL0C)),
      AICORE_OPTIONAL(T, dtype, "L0C cell type: int32 from an int8/int4 Mmad, float from a half/bf16/float one",
                      dtypes(kCellTypes)),
      AICORE_REQUIRED(T, nSize, "columns to write, 1..4095 (a last block of fewer than 16 columns is written in part)"),
      AICORE_REQUIRED(T, mSize, "rows to write"),
      AICORE_REQUIRED(T, srcStride, "L0C rows per 16-column block (ceil16(M) for a whole C)"),
      AICORE_REQUIRED(T, dstStride, "elements per destination row (nz: 32-byte units between column blocks)"),
      AICORE_OPTIONAL(T, quantPre,
                      "conversion on the way out: NoQuant copies the cells; F322F16/F322BF16 float -> half/bf16; "
                      "DEQF16 int32 -> half, REQ8 int32 -> int8, QF322B8_PRE float -> int8 by deqScalar; VDEQF16, VREQ8, "
                      "VQF322B8_PRE the same, column n by word n of the L1 table at quantAddr (dtype "
                      "must be the mode's cell type, else fault at run time)"),
      AICORE_OPTIONAL(T, deqScalar,
                      "scalar modes: bits 0-31 the fp32 scale (top 10 mantissa bits used), 37-45 the int8 "
                      "modes' 9-bit offset, 46 set = int8 result, clear = uint8"),
      AICORE_OPTIONAL(T, quantAddr,
                      "per-channel modes (VDEQF16, VREQ8, VQF322B8_PRE): L1 byte offset (8-aligned) of nSize "
                      "64-bit words, column n converted by word n as the scalar mode by deqScalar",
                      not_in_params()),
      AICORE_OPTIONAL(T, ndNum, "number of matrices"),
      AICORE_OPTIONAL(T, srcNdStride,
                      "source distance between matrices, in 1024-byte fractals (1..512 when ndNum > 1)"),
      AICORE_OPTIONAL(T, dstNdStride,
                      "destination distance between matrices, in elements (not 0 when ndNum > 1)"),
      AICORE_OPTIONAL(T, reluEn, "1: negative values are written as 0"),
      AICORE_OPTIONAL(T, unitFlag,
                      "3: wait, at the L0C granule, for the cells a Mmad with unitFlag=3 hands over (no M_FIX "
                      "flags), and hand them back; 2: wait, keep them; 0 = off",
                      one_of({0, 2, 3})),
      AICORE_OPTIONAL(T, nz,
                      "1: NZ output (CFG_NZ): 16-column blocks of mSize rows, dstStride in 32-byte units between "
                      "blocks; nSize a multiple of 16, 2- or 4-byte outputs, ndNum 1",
                      not_in_params()),
      AICORE_OPTIONAL(T, channelSplit,
                      "1 (with nz=1, float output): 8-column blocks instead of 16, dstStride apart; nSize a "
                      "multiple of 8",
                      not_in_params()));
};

namespace detail {
template <class T>
constexpr auto flag_fields() {
  return std::make_tuple(
      AICORE_REQUIRED(
          T, event,
          "SRC_DST: the pipe that sets and the pipe that waits; a pair the hardware lacks is refused"),
      AICORE_REQUIRED(T, id, "flag id", at_most(kEventIds - 1)));
}
}  // namespace detail

template <>
struct Descriptor<SetFlag> {
  static constexpr InstructionFacts facts =
      runs_on("SetFlag", PipeRule::EventSource,
              "sets flag (event, id) once every earlier SRC instruction has finished");
  static constexpr auto fields = detail::flag_fields<SetFlag>();
};

template <>
struct Descriptor<WaitFlag> {
  static constexpr InstructionFacts facts = runs_on(
      "WaitFlag", PipeRule::EventDestination, "holds pipe DST until flag (event, id) is set, then clears it");
  static constexpr auto fields = detail::flag_fields<WaitFlag>();
};

template <>
struct Descriptor<PipeBarrier> {
  static constexpr InstructionFacts facts =
      runs_on("PipeBarrier", PipeRule::Barrier,
              "later instructions of the pipe wait until its earlier ones have finished");
  // Its one field is the whole op: PIPE_X names `pipe`, PIPE_ALL sets `all`.
  static constexpr auto fields = std::make_tuple(
      make_field<PipeBarrier, nullptr, true>("pipe", "the pipe to drain, or PIPE_ALL", detail::NoParams{}));
};

template <>
struct Descriptor<SyncAll> {
  static constexpr InstructionFacts facts =
      runs_on("SyncAll", Pipe::S,
              "every pipe of the core drains, then the core waits until every core of the launch has reached "
              "its matching (n-th) SyncAll");
  static constexpr auto fields = std::make_tuple();
};

template <>
struct Descriptor<SetAtomicAdd> {
  using T = SetAtomicAdd;
  static constexpr InstructionFacts facts =
      runs_on("SetAtomicAdd", Pipe::S,
              "later Fixpipes of this core add their results to GM instead of overwriting (until SetAtomicNone)");
  static constexpr auto fields = std::make_tuple(AICORE_REQUIRED(
      T, dtype, "element type added: the Fixpipe output type (float, half or int32)", dtypes(kAtomicTypes)));
};

template <>
struct Descriptor<SetAtomicNone> {
  static constexpr InstructionFacts facts =
      runs_on("SetAtomicNone", Pipe::S, "later Fixpipes of this core overwrite GM again");
  static constexpr auto fields = std::make_tuple();
};

template <>
struct Descriptor<LoadData3DV2> {
  using T = LoadData3DV2;
  static constexpr InstructionFacts facts =
      runs_on("LoadData3DV2", Pipe::MTE1,
              "L1 -> L0A/L0B image-to-column (Load3Dv2) of an NC1HWC0 feature map");
  static constexpr auto fields = std::make_tuple(
      AICORE_REQUIRED(T, dst, "destination in L0A (zZ) or L0B (Zn: b16, b32), byte offset",
                      in(kL0A | kL0B)),
      AICORE_REQUIRED(T, src, "feature map in L1 (NC1HWC0, C0 = 32 bytes of elements), byte offset", in(kL1)),
      AICORE_OPTIONAL(T, dtype,
                      "element type (C0 = 32 bytes of elements: 64 int4, 32 b8, 16 b16, 8 b32); int4 into L0A "
                      "as it is only",
                      dtypes(kAnyDType)),
      AICORE_OPTIONAL(T, padLeft, "padList[0]: columns of padValue left of the map", not_in_params()),
      AICORE_OPTIONAL(T, padRight, "padList[1]: columns of padValue right of the map", not_in_params()),
      AICORE_OPTIONAL(T, padTop, "padList[2]: rows of padValue above the map", not_in_params()),
      AICORE_OPTIONAL(T, padBottom, "padList[3]: rows of padValue below the map", not_in_params()),
      AICORE_REQUIRED(T, l1H, "feature map height, in elements (0 = nothing)", at_most(32767)),
      AICORE_REQUIRED(T, l1W, "feature map width, in elements (0 = nothing)", at_most(32767)),
      AICORE_REQUIRED(T, channelSize, "channels C of the map, a multiple of C0 (0 = nothing)"),
      AICORE_REQUIRED(T, kExtension, "columns of the im2col matrix written, a multiple of C0 (0 = nothing)"),
      AICORE_REQUIRED(T, mExtension,
                      "rows of the im2col matrix written; a multiple of 16 unless it reaches the last row "
                      "(0 = nothing)"),
      AICORE_OPTIONAL(T, kStartPt, "first column of the window, a multiple of C0"),
      AICORE_OPTIONAL(T, mStartPt, "first row of the window", at_most(32767)),
      AICORE_OPTIONAL(T, strideW, "filter step along W, 1..63", at_most(63)),
      AICORE_OPTIONAL(T, strideH, "filter step along H, 1..63", at_most(63)),
      AICORE_OPTIONAL(T, filterW, "filter width (+256 with filterSizeW; 0 and no filterSizeW = nothing)"),
      AICORE_OPTIONAL(T, filterH, "filter height (+256 with filterSizeH; 0 and no filterSizeH = nothing)"),
      AICORE_OPTIONAL(T, dilationFilterW, "filter dilation along W, 1..255"),
      AICORE_OPTIONAL(T, dilationFilterH, "filter dilation along H, 1..255"),
      AICORE_OPTIONAL(T, enTranspose, "L0A: write the window transposed (b16, b32); L0B: ignored"),
      AICORE_OPTIONAL(T, enSmallK, "small-K fractals; not supported by arch 2201 (refused)"),
      AICORE_OPTIONAL(T, padValue, "padding element, as the bits of one dtype element", not_in_params()),
      AICORE_OPTIONAL(T, filterSizeW, "add 256 to filterW"),
      AICORE_OPTIONAL(T, filterSizeH, "add 256 to filterH"),
      AICORE_OPTIONAL(T, fMatrixCtrl, "take the map from the right FMATRIX register; not modelled (refused)"));
};

template <>
struct Descriptor<LoadDataWithTranspose> {
  using T = LoadDataWithTranspose;
  static constexpr InstructionFacts facts =
      runs_on("LoadDataWithTranspose", Pipe::MTE1,
              "L1 -> L0A/L0B copy of square matrices, each transposed (b4: 64 x 64, b8: 32 x 32, b16 and "
              "b32: 16 x 16)");
  static constexpr auto fields = std::make_tuple(
      AICORE_REQUIRED(T, dst, "destination in L0A or L0B, byte offset", in(kL0A | kL0B)),
      AICORE_REQUIRED(T, src, "source in L1, byte offset", in(kL1)),
      AICORE_OPTIONAL(T, dtype,
                      "element type: int4 (4 fractals a square, into L0B only), int8 (2), half/bf16 (1), "
                      "float/int32 (2)",
                      dtypes(kAnyDType)),
      AICORE_OPTIONAL(T, startIndex, "first source square, in squares (1, 2 or 4 fractals, as dtype) from src"),
      AICORE_REQUIRED(T, repeatTimes, "squares to move (0 = nothing)"),
      AICORE_OPTIONAL(T, srcStride, "source squares from one repeat's square to the next (0 = the same one)"),
      AICORE_OPTIONAL(T, dstGap,
                      "512-byte fractals from the end of a repeat's first destination fractal to the next "
                      "repeat's first"),
      AICORE_OPTIONAL(T, dstFracGap,
                      "512-byte fractals between a repeat's destination fractals (b4, b8, b32; b16: ignored)"),
      AICORE_OPTIONAL(T, addrMode, "address mode; not 0 is not modelled (refused)"));
};

template <>
struct Descriptor<DataCopyL1ToBT> {
  using T = DataCopyL1ToBT;
  static constexpr InstructionFacts facts =
      runs_on("DataCopyL1ToBT", Pipe::MTE1, "L1 -> bias table copy of equal blocks (half -> float on the way)");
  static constexpr auto fields = std::make_tuple(
      AICORE_REQUIRED(T, dst, "destination in the bias table, byte offset, 64-byte aligned", in(kBT)),
      AICORE_REQUIRED(T, src, "source in L1, byte offset, 32-byte aligned", in(kL1)),
      AICORE_REQUIRED(T, blockLen, "length of each block, in 64-byte units of the table (0 = nothing)"),
      AICORE_OPTIONAL(T, blockCount, "number of blocks, at most 4095 (0 = nothing)", at_most(4095)),
      AICORE_OPTIONAL(T, srcGap, "gap between source blocks, in 32-byte units"),
      AICORE_OPTIONAL(T, dstGap, "gap between destination blocks, in 64-byte units"),
      AICORE_OPTIONAL(T, convControl, "1: the L1 elements are halves, written to the table as floats",
                      not_in_params()));
};

// clang-format on

// ---- walking it ------------------------------------------------------------------------------

// Calls f(field) for every field of instruction T, in table order. `field` is a Field (field.hpp):
// field.facts for the data, std::decay_t<decltype(field)>::of(op) for the member.
template <class T, class F>
constexpr void for_each_field(F&& f) {
  std::apply([&](const auto&... field) { (f(field), ...); }, Descriptor<std::remove_const_t<T>>::fields);
}

// Field I of instruction T, usable in constant expressions (`if constexpr (field.facts.required)`).
template <class T, size_t I>
inline constexpr const auto& field_at = std::get<I>(Descriptor<T>::fields);
template <class T>
constexpr size_t field_count = std::tuple_size_v<std::remove_const_t<decltype(Descriptor<T>::fields)>>;

// Calls f(std::integral_constant<size_t, I>{}) for every field index I of T, in table order: for
// hot code that decides on a field's facts at compile time through field_at<T, I>.
namespace detail {
template <class F, size_t... I>
constexpr void each_index(F& f, std::index_sequence<I...>) {
  (f(std::integral_constant<size_t, I>{}), ...);
}
}  // namespace detail
template <class T, class F>
constexpr void for_each_field_index(F&& f) {
  detail::each_index(f, std::make_index_sequence<field_count<std::remove_const_t<T>>>{});
}

// Calls f(facts, value) for every field of `op`, in table order (value is a reference into op).
template <class T, class F>
constexpr void for_each_value(T& op, F&& f) {
  for_each_field<T>([&](const auto& field) { f(field.facts, std::decay_t<decltype(field)>::of(op)); });
}

// Calls f(facts, addr) for every memory operand of `op` (Addr fields), in table order.
template <class T, class F>
constexpr void for_each_operand(T& op, F&& f) {
  for_each_value(op, [&](const FieldFacts& facts, auto& v) {
    if constexpr (std::is_same_v<std::remove_const_t<std::remove_reference_t<decltype(v)>>, Addr>)
      f(facts, v);
  });
}
template <class F>
void for_each_operand(Op& op, F&& f) {
  std::visit([&](auto& x) { for_each_operand(x, f); }, op);
}
template <class F>
void for_each_operand(const Op& op, F&& f) {
  std::visit([&](const auto& x) { for_each_operand(x, f); }, op);
}

// Copies every integer and boolean field of `op` that is in_params from the member of the same
// name of `params` (an Ascend C parameter struct, include/ascendc/detail/params.hpp).
template <class T, class P>
void fill_from_params(T& op, const P& params) {
  for_each_field_index<T>([&](auto i) {
    constexpr const auto& field = field_at<T, decltype(i)::value>;
    using F = std::decay_t<decltype(field)>;
    using V = typename F::Value;
    // dtypes and the quantisation mode are enumerations the intrinsic maps itself; a not_in_params
    // field is the intrinsic's too (decided at compile time: the struct need not have the member).
    if constexpr (ValueTraits<V>::scalar && ValueTraits<V>::type != FieldType::DType &&
                  ValueTraits<V>::type != FieldType::Quant && field.facts.in_params) {
      using Read = decltype(field.params);
      if constexpr (std::is_invocable_v<const Read&, const P&>) {
        using PV = std::decay_t<std::invoke_result_t<const Read&, const P&>>;
        if constexpr (std::is_integral_v<PV>)
          static_assert(std::numeric_limits<PV>::max() <= std::numeric_limits<V>::max(),
                        "the Ascend C member is wider than the isa member it fills");
        F::of(op) = static_cast<V>(field.params(params));
      } else {
        static_assert(std::is_invocable_v<const Read&, const P&>,
                      "the Ascend C parameter struct has no member named as this field: give the field "
                      "not_in_params() and set it in the intrinsic");
      }
    }
  });
}

// ---- the table as data -------------------------------------------------------------------------

// One instruction's descriptor without its types: what tables, docs and messages read.
struct InstructionDescriptor {
  InstructionFacts facts;
  const FieldFacts* fields;
  size_t field_count;
  const FieldFacts* begin() const { return fields; }
  const FieldFacts* end() const { return fields + field_count; }
};

constexpr size_t kInstructionCount = std::variant_size_v<Op>;

namespace detail {
template <class T>
inline constexpr auto kFieldFacts = std::apply(
    [](const auto&... f) { return std::array<FieldFacts, sizeof...(f)>{f.facts...}; }, Descriptor<T>::fields);
template <size_t... I>
constexpr std::array<InstructionDescriptor, sizeof...(I)> descriptor_table(std::index_sequence<I...>) {
  return {InstructionDescriptor{Descriptor<std::variant_alternative_t<I, Op>>::facts,
                                kFieldFacts<std::variant_alternative_t<I, Op>>.data(),
                                kFieldFacts<std::variant_alternative_t<I, Op>>.size()}...};
}
template <class T, size_t... I>
constexpr size_t op_index(std::index_sequence<I...>) {
  size_t index = kInstructionCount;
  ((std::is_same_v<T, std::variant_alternative_t<I, Op>> ? (index = I) : 0), ...);
  return index;
}
}  // namespace detail

// Every instruction, in the order of Op's alternatives (so kDescriptors[op.index()] is op's).
inline constexpr std::array<InstructionDescriptor, kInstructionCount> kDescriptors =
    detail::descriptor_table(std::make_index_sequence<kInstructionCount>{});

inline const InstructionDescriptor& descriptor(const Op& op) {
  return kDescriptors[op.index()];
}
// T's position among Op's alternatives.
template <class T>
constexpr size_t op_index_of = detail::op_index<T>(std::make_index_sequence<kInstructionCount>{});

}  // namespace aicore::isa
