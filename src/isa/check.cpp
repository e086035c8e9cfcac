#include "aicore/isa/check.hpp"

#include <string>
#include <type_traits>

#include "aicore/common/error.hpp"
#include "aicore/isa/descriptors.hpp"
#include "aicore/isa/load3d.hpp"

namespace aicore::isa {

namespace {

// Offsets above this are out of any buffer; rejecting them early keeps extent arithmetic
// far from uint64 overflow.
constexpr uint64_t kMaxOffset = uint64_t{1} << 44;

[[noreturn]] void fail(FaultKind k, const std::string& msg) {
  throw Fault(k, msg);
}

std::string where(const char* operand, const Addr& a) {
  return std::string(operand) + " (" + to_string(a.space) + " offset " + std::to_string(a.offset) + ")";
}

// The rules the descriptor states (isa/descriptors.hpp) for ops that come from elsewhere than a
// trace (the front end, generators): each operand in one of its memories and inside any buffer,
// each dtype one the instruction takes.
void need_space(const char* operand, const Addr& a, SpaceMask allowed) {
  if (!(allowed & bit(a.space))) {
    std::string want;
    for (const Space s : {Space::GM, Space::L1, Space::L0A, Space::L0B, Space::L0C, Space::BiasTable})
      if (allowed & bit(s)) want += (want.empty() ? "" : " or ") + std::string(to_string(s));
    fail(FaultKind::InvalidField,
         std::string(operand) + " must be in " + want + ", not " + to_string(a.space));
  }
  if (a.offset > kMaxOffset) fail(FaultKind::OutOfBounds, where(operand, a) + " is beyond any buffer");
}

void need_dtype(const char* mnemonic, const FieldFacts& f, DType t) {
  if (f.dtypes & bit(t)) return;
  fail(FaultKind::InvalidField, std::string(mnemonic) + " " + f.name + " must be " +
                                    describe_dtypes(f.dtypes) + ", not " + to_string(t));
}

// Decided at compile time from the table: only the fields with a rule cost a comparison.
template <class T>
void described_rules(const T& op) {
  for_each_field_index<T>([&](auto i) {
    constexpr const auto& field = field_at<T, decltype(i)::value>;
    constexpr const FieldFacts& f = field.facts;
    using F = std::decay_t<decltype(field)>;
    using V = typename F::Value;
    const V& v = F::of(op);
    if constexpr (std::is_same_v<V, Addr>) need_space(f.name, v, f.spaces);
    if constexpr (std::is_same_v<V, DType> && f.dtypes != kAnyDType)
      need_dtype(Descriptor<T>::facts.mnemonic, f, v);
    if constexpr (std::is_integral_v<V> && !std::is_same_v<V, bool> && !f.unused && f.max < f.type_max)
      if (v > f.max)
        fail(FaultKind::InvalidField, std::string(f.name) + " must be 0.." + std::to_string(f.max) +
                                          " (got " + std::to_string(v) + ")");
  });
}

void need_align(const char* operand, const Addr& a, uint64_t align) {
  if (a.offset % align != 0)
    fail(FaultKind::Misaligned, where(operand, a) + " must be " + std::to_string(align) + "-byte aligned");
}

struct FieldCheck {
  void operator()(const DataCopy& o) const { need_align("dst", o.dst, 32); }
  void operator()(const DataCopyNd2Nz& o) const {
    need_align("dst", o.dst, 32);
    // int4 moves as bytes (two elements each): every count in elements must name whole bytes
    // (docs/semantics.md, "int4").
    if (o.dtype == DType::Int4)
      for (const auto& [name, v] : {std::pair<const char*, uint16_t>{"dValue", o.dValue},
                                    {"srcDValue", o.srcDValue},
                                    {"srcNdMatrixStride", o.srcNdMatrixStride},
                                    {"dstNzMatrixStride", o.dstNzMatrixStride}})
        if (v % 2 != 0)
          fail(FaultKind::InvalidField, std::string(name) +
                                            " must be even for int4 (two elements a byte; got " +
                                            std::to_string(v) + ")");
  }
  void operator()(const LoadData& o) const {
    need_align("dst", o.dst, kFractalBytes);
    need_align("src", o.src, 32);
    if (!(o.sid == 0)) fail(FaultKind::InvalidField, "sid must be 0 (got " + std::to_string(o.sid) + ")");
    if (o.ifTranspose && bits_of(o.dtype) != 16)
      fail(FaultKind::InvalidField,
           std::string("ifTranspose is only legal for b16 data (half/bf16), not ") + to_string(o.dtype));
    if (!(o.addrMode == 0))
      fail(FaultKind::Unsupported, "addrMode " + std::to_string(o.addrMode) + " is not modelled (only 0)");
  }
  void operator()(const LoadDataWithSparse& o) const {
    need_align("dst", o.dst, kFractalBytes);
    need_align("src", o.src, 32);
    need_align("idx", o.idx, 32);
    if (!(o.srcStride == 0 && o.dstGap == 0 && !o.ifTranspose && o.sid == 0 && o.addrMode == 0))
      fail(FaultKind::InvalidField,
           "LoadDataWithSparse uses only startIndex and repeatTimes: srcStride, dstGap, ifTranspose, sid and "
           "addrMode must be 0");
  }
  // Load3Dv2: the rules of the Ascend C LoadData3DParamsV2 table (docs/semantics.md, "LoadData3DV2").
  void operator()(const LoadData3DV2& o) const {
    need_align("dst", o.dst, kFractalBytes);
    need_align("src", o.src, 32);
    const auto num = [](uint64_t v) { return std::to_string(v); };
    const Load3DShape s = load3d_shape(o);
    if (o.enSmallK) fail(FaultKind::InvalidField, "enSmallK (16 x 4 fractals) is not supported by arch 2201");
    if (o.fMatrixCtrl)
      fail(FaultKind::Unsupported,
           "fMatrixCtrl=1 (the map from the right FMATRIX register) is not modelled (only 0, as the docs "
           "say)");
    const uint32_t pad_bits = bits_of(o.dtype);
    if (pad_bits < 32 && (o.padValue >> pad_bits) != 0)
      fail(FaultKind::InvalidField, "padValue " + num(o.padValue) + " does not fit one " +
                                        to_string(o.dtype) + " element (" + num(pad_bits) + " bits)");
    const bool b4 = o.dtype == DType::Int4;
    if (o.dst.space == Space::L0B && s.size == 1)
      fail(b4 ? FaultKind::Unsupported : FaultKind::InvalidField,
           std::string("LoadData3DV2 into L0B takes half, bf16, float or int32") +
               (b4 ? " (b4 into L0B is not modelled)" : " (the docs exclude b8)") + ", not " +
               to_string(o.dtype));
    if (o.enTranspose && o.dst.space == Space::L0A && s.size == 1)
      fail(b4 ? FaultKind::Unsupported : FaultKind::InvalidField,
           std::string("enTranspose into L0A takes half, bf16, float or int32") +
               (b4 ? " (b4 transposed is not modelled)" : " (the docs exclude b8)") + ", not " +
               to_string(o.dtype));
    if (o.strideW == 0 || o.strideH == 0)
      fail(FaultKind::InvalidField, "strideW and strideH must be 1..63 (got strideW=" + num(o.strideW) +
                                        " strideH=" + num(o.strideH) + ")");
    if (o.dilationFilterW == 0 || o.dilationFilterH == 0)
      fail(FaultKind::InvalidField, "dilationFilterW and dilationFilterH must be 1..255 (got " +
                                        num(o.dilationFilterW) + ", " + num(o.dilationFilterH) + ")");
    if (s.noop) return;
    if (const uint32_t r = o.channelSize % s.c0; r != 0) {
      const bool documented = (r == 4 || r == 8 || r == 16);
      fail(documented ? FaultKind::Unsupported : FaultKind::InvalidField,
           "channelSize " + num(o.channelSize) +
               (documented ? " (not a multiple of C0 = " + num(s.c0) +
                                 ") packs the map's channels in a layout that is not modelled"
                           : " must be a multiple of C0 = " + num(s.c0) + " for " + to_string(o.dtype)));
    }
    // "(got 24; the nearest are 16 and 32)": a value off the C0 grid, with its neighbours on it.
    const auto off_grid = [&](const char* field, uint64_t v) {
      const uint64_t below = v / s.c0 * s.c0;
      fail(FaultKind::InvalidField,
           std::string(field) + " must be a multiple of C0 = " + num(s.c0) + " for " + to_string(o.dtype) +
               " (got " + num(v) + "; the nearest are " + num(below) + " and " + num(below + s.c0) + ")");
    };
    if (o.kStartPt % s.c0 != 0) off_grid("kStartPt", o.kStartPt);
    if (o.kExtension % s.c0 != 0) off_grid("kExtension", o.kExtension);
    if (s.ho == 0 || s.wo == 0)
      fail(FaultKind::InvalidField, "the dilated filter (" + num(s.hk) + " x " + num(s.wk) +
                                        ") does not fit the padded map (l1H=" + num(o.l1H) +
                                        " l1W=" + num(o.l1W) + " with padList)");
    if (uint64_t{o.kStartPt} + o.kExtension > s.cols)
      fail(FaultKind::InvalidField, "kStartPt + kExtension = " + num(uint64_t{o.kStartPt} + o.kExtension) +
                                        " is past the im2col matrix's " + num(s.cols) +
                                        " columns (C1 * filterH * filterW * C0)");
    const uint64_t m_end = uint64_t{o.mStartPt} + o.mExtension;
    if (m_end > s.rows)
      fail(FaultKind::Unsupported, "mStartPt + mExtension = " + num(m_end) + " is past the im2col matrix's " +
                                       num(s.rows) + " rows (Ho * Wo = " + num(s.ho) + " * " + num(s.wo) +
                                       "): rows past the last output position are not modelled");
    // "Unless it covers the bottom fractal": the window ends in the matrix's last 16-row block.
    if (o.mExtension % 16 != 0 && ceil_div(m_end, 16) != ceil_div(s.rows, 16) && s.size != 4)
      fail(FaultKind::InvalidField,
           "mExtension must be a multiple of 16 unless the window ends in the last "
           "16-row block of the im2col matrix (got " +
               num(o.mExtension) + "; the matrix has " + num(s.rows) + " rows)");
  }
  void operator()(const LoadDataWithTranspose& o) const {
    need_align("dst", o.dst, kFractalBytes);
    need_align("src", o.src, 32);
    if (o.dtype == DType::Int4 && o.dst.space != Space::L0B)
      fail(FaultKind::InvalidField, "int4 (b4) squares transpose into L0B only (the docs' b4 form), not " +
                                        std::string(to_string(o.dst.space)));
    if (!(o.addrMode == 0))
      fail(FaultKind::Unsupported, "addrMode " + std::to_string(o.addrMode) + " is not modelled (only 0)");
  }
  void mmad_common(const MmadCommon& o, uint64_t dst_align) const {
    need_align("dst", o.dst, dst_align);
    need_align("fm", o.fm, kFractalBytes);
    need_align("filter", o.filter, kFractalBytes);
    if (!(o.m <= 4095 && o.n <= 4095 && o.k <= 4095))
      fail(FaultKind::InvalidField, "m, n and k must be in [0, 4095] (got m=" + std::to_string(o.m) +
                                        " n=" + std::to_string(o.n) + " k=" + std::to_string(o.k) + ")");
    if (o.adds_bias() && o.biasAddr % kBiasBlockBytes != 0)
      fail(FaultKind::Misaligned, "biasAddr (BT offset " + std::to_string(o.biasAddr) + ") must be " +
                                      std::to_string(kBiasBlockBytes) + "-byte aligned");
    if (!o.cmatrixSource && o.biasAddr != 0)
      fail(FaultKind::InvalidField, "biasAddr " + std::to_string(o.biasAddr) +
                                        " is read only with cmatrixSource=1 (C from the bias table)");
    unit_flag(o.unitFlag);
  }
  void unit_flag(uint8_t u) const {
    if (!(u == 0 || u == kUnitFlagKeep || u == kUnitFlagFlip))
      fail(FaultKind::InvalidField, "unitFlag must be 0, 2 or 3 (got " + std::to_string(u) + ")");
  }
  // The scale of the scalar modes: bits 0-31 as a float of which the hardware uses sign, exponent
  // and 10 mantissa bits; the docs forbid inf, NaN and subnormal scales.
  void deq_scalar(const Fixpipe& o) const {
    const QuantWordFault f = quant_word_fault(o.deqScalar, o.quantPre);
    if (f != QuantWordFault::None)
      fail(f == QuantWordFault::Shift ? FaultKind::Unsupported : FaultKind::InvalidField,
           std::string("deqScalar (for quantPre ") + to_string(o.quantPre) + ") " + describe(f));
  }
  void operator()(const Mmad& o) const {
    mmad_common(o, 64);
    if (o.kDirectionAlign && o.dtype != DType::Float)
      fail(FaultKind::Unsupported,
           std::string("kDirectionAlign is modelled for float only (its documented use: ") +
               "A's K padded to 16 in L0A), not " + to_string(o.dtype));
  }
  void operator()(const MmadWithSparse& o) const {
    mmad_common(o, kCFractalBytes);
    if (!(o.k % 4 == 0))
      fail(FaultKind::InvalidField,
           "MmadWithSparse k (the original K) must be a multiple of 4 (got " + std::to_string(o.k) + ")");
  }
  void operator()(const Fixpipe& o) const {
    need_align("src", o.src, 64);
    if (!(o.dtype == DType::Int32 || o.dtype == DType::Float))
      fail(
          FaultKind::InvalidField,
          std::string("Fixpipe dtype (the L0C cell type) must be int32 or float, not ") + to_string(o.dtype));
    if (const auto from = quant_source(o.quantPre); from && *from != o.dtype)
      fail(FaultKind::InvalidField,
           std::string("quantPre ") + to_string(o.quantPre) + " converts " + to_string(*from) +
               " L0C cells (from " + (*from == DType::Float ? "a half/bf16" : "an int8/int4") +
               " Mmad): dtype must be " + to_string(*from) + ", not " + to_string(o.dtype));
    if (o.quantPre == QuantMode::DEQF16 || o.quantPre == QuantMode::REQ8 ||
        o.quantPre == QuantMode::QF322B8_PRE)
      deq_scalar(o);
    // The per-channel words are 64-bit; their values are checked as they are read (semantics).
    if (per_channel(o.quantPre) && o.quantAddr % 8 != 0)
      fail(FaultKind::Misaligned, "quantAddr (the per-channel words in L1) must be 8-byte aligned (got " +
                                      std::to_string(o.quantAddr) + ")");
    unit_flag(o.unitFlag);
    // NZ2ND (row-major) output takes any column count; an NZ output needs whole 16-column blocks
    // (FixpipeParamsV220 docs). 0 columns is not a legal size.
    if (!(o.nSize >= 1 && o.nSize <= 4095))
      fail(FaultKind::InvalidField, "nSize must be in [1, 4095] (got " + std::to_string(o.nSize) + ")");
    if (o.channelSplit && !o.nz)
      fail(FaultKind::InvalidField, "channelSplit splits the blocks of an NZ output: it needs nz=1");
    if (o.channelSplit && output_dtype(o) != DType::Float)
      fail(FaultKind::InvalidField,
           std::string("channelSplit is for float output (fp32 cells, quantPre NoQuant), "
                       "not ") +
               to_string(output_dtype(o)));
    if (o.nz) {
      const uint32_t cols = nz_block_columns(o);
      if (o.nSize % cols != 0)
        fail(FaultKind::InvalidField, "an NZ output (nz=1) takes whole " + std::to_string(cols) +
                                          "-column blocks: nSize must be a multiple of " +
                                          std::to_string(cols) + " (got " + std::to_string(o.nSize) + ")");
      need_align("dst", o.dst, 32);
      if (o.ndNum != 1)
        fail(FaultKind::InvalidField,
             "ndNum, srcNdStride and dstNdStride are for row-major (NZ2ND) output: an "
             "NZ output (nz=1) takes ndNum 1 (got " +
                 std::to_string(o.ndNum) + ")");
      if (o.dstStride == 0)
        fail(FaultKind::InvalidField,
             "an NZ output (nz=1) needs dstStride, the 32-byte units between column "
             "blocks, not 0");
    }
    if (o.ndNum > 1) {
      if (!(o.srcNdStride >= 1 && o.srcNdStride <= 512))
        fail(FaultKind::InvalidField, "srcNdStride must be in [1, 512] fractals when ndNum > 1 (got " +
                                          std::to_string(o.srcNdStride) + ")");
      if (!(o.dstNdStride != 0)) fail(FaultKind::InvalidField, "dstNdStride must not be 0 when ndNum > 1");
    }
  }
  void operator()(const DataCopyL1ToBT& o) const {
    need_align("dst", o.dst, kBiasBlockBytes);
    need_align("src", o.src, 32);
  }
  void event(EventPair e) const {
    if (!(is_legal_event(e)))
      fail(FaultKind::IllegalEvent, std::string("event ") + to_string(e.src) + "_" + to_string(e.dst) +
                                        " is not a legal pair on the Cube core");
  }
  void operator()(const SetFlag& o) const { event(o.event); }
  void operator()(const WaitFlag& o) const { event(o.event); }
  void operator()(const PipeBarrier&) const {}
  void operator()(const SyncAll&) const {}
  void operator()(const SetAtomicAdd&) const {}  // its dtype is checked by the descriptor
  void operator()(const SetAtomicNone&) const {}
};

struct FootprintOf {
  Footprint fp;
  void operator()(const DataCopy& o) {
    if (o.blockCount == 0 || o.blockLen == 0) return;
    const uint64_t n = o.blockCount, len = o.blockLen;
    fp.add(Space::GM, o.src.tensor, o.src.offset, o.src.offset + ((n - 1) * (len + o.srcGap) + len) * 32,
           false);
    fp.add(Space::L1, 0, o.dst.offset, o.dst.offset + ((n - 1) * (len + o.dstGap) + len) * 32, true);
  }
  void operator()(const DataCopyNd2Nz& o) {
    if (o.ndNum == 0 || o.nValue == 0 || o.dValue == 0) return;
    const auto bytes = [&](uint64_t elements) { return bytes_of(o.dtype, elements); };
    const uint64_t blocks = ceil_div(bytes(o.dValue), 32);
    fp.add(Space::GM, o.src.tensor, o.src.offset,
           o.src.offset + bytes((o.ndNum - 1) * uint64_t{o.srcNdMatrixStride} +
                                (o.nValue - 1) * uint64_t{o.srcDValue} + o.dValue),
           false);
    fp.add(Space::L1, 0, o.dst.offset,
           o.dst.offset + bytes((o.ndNum - 1) * uint64_t{o.dstNzMatrixStride}) +
               (o.nValue - 1) * uint64_t{o.dstNzNStride} * 32 +
               (blocks - 1) * uint64_t{o.dstNzC0Stride} * 32 + 32,
           true);
  }
  void operator()(const LoadData& o) {
    if (o.repeatTimes == 0) return;
    const uint64_t r = o.repeatTimes;
    const uint64_t first = o.src.offset + uint64_t{o.startIndex} * kFractalBytes;
    fp.add(Space::L1, 0, first, first + ((r - 1) * o.srcStride + 1) * kFractalBytes, false);
    fp.add(o.dst.space, 0, o.dst.offset,
           o.dst.offset + ((r - 1) * (uint64_t{o.dstGap} + 1) + 1) * kFractalBytes, true);
  }
  void operator()(const LoadDataWithSparse& o) {
    if (o.repeatTimes == 0) return;
    const uint64_t r = o.repeatTimes;
    const uint64_t w = o.src.offset + uint64_t{o.startIndex} * kFractalBytes;
    const uint64_t ix = o.idx.offset + uint64_t{o.startIndex} * kIndexFractalBytes;
    fp.add(Space::L1, 0, w, w + r * kFractalBytes, false);
    fp.add(Space::L1, 0, ix, ix + r * kIndexFractalBytes, false);
    fp.add(Space::L0B, 0, o.dst.offset, o.dst.offset + r * kFractalBytes, true);
    fp.add(Space::SparseIndex, 0, o.dst.offset / 4, o.dst.offset / 4 + r * kIndexFractalBytes, true);
  }
  void operator()(const LoadData3DV2& o) {
    const Load3DShape s = load3d_shape(o);
    if (s.noop) return;
    fp.add(Space::L1, 0, o.src.offset, o.src.offset + s.map_bytes, false);
    fp.add(o.dst.space, 0, o.dst.offset, o.dst.offset + s.dst_bytes, true);
  }
  // The hull of the squares read and of the fractals written (isa/check.hpp transpose_* helpers).
  void operator()(const LoadDataWithTranspose& o) {
    if (o.repeatTimes == 0) return;
    const uint64_t r = o.repeatTimes, square = transpose_square_bytes(o.dtype);
    const uint64_t first = o.src.offset + uint64_t{o.startIndex} * square;
    fp.add(Space::L1, 0, first, first + ((r - 1) * o.srcStride + 1) * square, false);
    const uint64_t last = transpose_dst_fractal(o, r - 1, transpose_fractals(o.dtype) - 1);
    fp.add(o.dst.space, 0, o.dst.offset, last + kFractalBytes, true);
  }
  void mmad(const MmadCommon& o, uint64_t fm_fractals, uint64_t filter_fractals, bool sparse) {
    const uint64_t m1 = ceil_div(o.m, 16), n1 = ceil_div(o.n, 16);
    fp.add(Space::L0A, 0, o.fm.offset, o.fm.offset + fm_fractals * kFractalBytes, false);
    fp.add(Space::L0B, 0, o.filter.offset, o.filter.offset + filter_fractals * kFractalBytes, false);
    if (sparse)
      fp.add(Space::SparseIndex, 0, o.filter.offset / 4,
             o.filter.offset / 4 + filter_fractals * kIndexFractalBytes, false);
    const uint64_t c_end = o.dst.offset + m1 * n1 * kCFractalBytes;
    if (o.adds_bias())  // one 4-byte cell per column of C
      fp.add(Space::BiasTable, 0, o.biasAddr, o.biasAddr + uint64_t{o.n} * 4, false);
    if (o.accumulates()) fp.add(Space::L0C, 0, o.dst.offset, c_end, false);
    fp.add(Space::L0C, 0, o.dst.offset, c_end, true);
  }
  void operator()(const Mmad& o) {
    if (o.m == 0 || o.n == 0 || o.k == 0) return;
    const uint64_t k1 = ceil_div(o.k, k0_of(o.dtype));
    // A's blocks are mmad_a_k_fractals apart; the last block's padding (kDirectionAlign) is not read.
    mmad(o, (ceil_div(o.m, 16) - 1) * mmad_a_k_fractals(o) + k1, k1 * ceil_div(o.n, 16), false);
  }
  void operator()(const MmadWithSparse& o) {
    if (o.m == 0 || o.n == 0 || o.k == 0) return;
    // A holds the full K (int8: 32 per fractal); B' holds K/2, i.e. K/64 fractals along K.
    mmad(o, ceil_div(o.m, 16) * ceil_div(o.k, 32), ceil_div(o.k, 64) * ceil_div(o.n, 16), true);
  }
  void operator()(const Fixpipe& o) {
    if (o.nSize == 0 || o.mSize == 0 || o.ndNum == 0) return;
    // A last column block of fewer than 16 columns reads only its first (nSize - 16 * (cblocks - 1)) cells.
    const uint64_t cblocks = ceil_div(o.nSize, 16);
    const uint64_t tail = o.nSize - (cblocks - 1) * 16;
    const uint64_t nd = o.ndNum - 1;
    if (per_channel(o.quantPre))  // one 64-bit word per column
      fp.add(Space::L1, 0, o.quantAddr, o.quantAddr + uint64_t{o.nSize} * 8, false,
             "the per-channel words at quantAddr, nSize x 8 bytes");
    fp.add(Space::L0C, 0, o.src.offset,
           o.src.offset + nd * o.srcNdStride * uint64_t{kCFractalBytes} +
               ((cblocks - 1) * o.srcStride + o.mSize - 1) * 64 + tail * 4,
           false);
    if (o.nz) {  // column block c at c * dstStride * 32, its mSize rows of 16 (8 split, 32 int8) contiguous
      const uint64_t cols = nz_block_columns(o), blocks = ceil_div(o.nSize, cols);
      fp.add(Space::GM, o.dst.tensor, o.dst.offset,
             o.dst.offset + (blocks - 1) * uint64_t{o.dstStride} * 32 +
                 uint64_t{o.mSize} * cols * output_size(o),
             true);
    } else
      fp.add(Space::GM, o.dst.tensor, o.dst.offset,
             o.dst.offset +
                 (nd * o.dstNdStride + (o.mSize - 1) * uint64_t{o.dstStride} + o.nSize) * output_size(o),
             true);
  }
  void operator()(const DataCopyL1ToBT& o) {
    if (o.blockCount == 0 || o.blockLen == 0) return;
    const uint64_t n = o.blockCount, src_block = bt_src_block_bytes(o), dst_block = uint64_t{o.blockLen} * 64;
    fp.add(Space::L1, 0, o.src.offset,
           o.src.offset + (n - 1) * (src_block + o.srcGap * uint64_t{32}) + src_block, false);
    fp.add(Space::BiasTable, 0, o.dst.offset,
           o.dst.offset + (n - 1) * (dst_block + o.dstGap * uint64_t{kBiasBlockBytes}) + dst_block, true);
  }
  void operator()(const SetFlag&) {}
  void operator()(const WaitFlag&) {}
  void operator()(const PipeBarrier&) {}
  void operator()(const SyncAll&) {}
  void operator()(const SetAtomicAdd&) {}
  void operator()(const SetAtomicNone&) {}
};

}  // namespace

uint64_t transpose_square_bytes(DType t) {
  return uint64_t{transpose_fractals(t)} * kFractalBytes;
}

uint64_t transpose_dst_fractal(const LoadDataWithTranspose& o, uint64_t repeat, uint64_t fractal) {
  return o.dst.offset +
         (repeat * (uint64_t{o.dstGap} + 1) + fractal * (uint64_t{o.dstFracGap} + 1)) * kFractalBytes;
}

// Row k, column j of destination fractal f is, in the square S:
//   b16: S[j][k] of the 16 x 16 fractal;
//   b8:  S[j][16f + k] of the 32 x 32 square the two 16 x 32 fractals make stacked;
//   b4:  S[j][16f + k] of the 64 x 64 square the four 16 x 64 fractals make stacked (a nibble index);
//   b32: S[8f + j][k] of the 16 x 16 square the two 16 x 8 fractals make side by side.
uint64_t transpose_source(DType t, uint32_t fractal, uint32_t row, uint32_t col) {
  switch (bits_of(t)) {
    case 4:
      return uint64_t{col} * 64 + 16 * fractal + row;
    case 8:
      return uint64_t{col} * 32 + 16 * fractal + row;
    case 16:
      return (uint64_t{col} * 16 + row) * 2;
    default:
      return (row / 8) * uint64_t{kFractalBytes} + (8 * fractal + col) * 32 + (row % 8) * 4;
  }
}

uint32_t k0_of(DType t) {
  return 256 / bits_of(t);
}

uint64_t mmad_a_k_fractals(const Mmad& o) {
  const uint64_t k1 = ceil_div(o.k, k0_of(o.dtype));
  return o.kDirectionAlign ? ceil_div(k1, 2) * 2 : k1;
}

uint64_t Limits::capacity(Space s, uint32_t tensor) const {
  if (s == Space::GM) return tensor < gm_tensor_bytes.size() ? gm_tensor_bytes[tensor] : 0;
  return space_bytes[static_cast<size_t>(s)];
}

Footprint footprint(const Op& op) {
  FootprintOf f;
  std::visit(f, op);
  return f.fp;
}

uint64_t bytes_moved(const Op& op) {
  return bytes_moved(op, footprint(op));
}

uint64_t bytes_moved(const Op& op, const Footprint&) {
  // The data bytes, not the span they land in: gaps and strides between blocks move nothing
  // (index bytes ride along for LoadDataWithSparse and are counted separately by its footprint).
  if (const auto* f = std::get_if<Fixpipe>(&op))  // the bytes written, in the output type
    return uint64_t{f->ndNum} * f->mSize * f->nSize * output_size(*f);
  if (const auto* c = std::get_if<DataCopy>(&op)) return uint64_t{c->blockCount} * c->blockLen * 32;
  if (const auto* c = std::get_if<DataCopyL1ToBT>(&op))  // the bytes written to the table
    return uint64_t{c->blockCount} * c->blockLen * kBiasBlockBytes;
  if (const auto* n = std::get_if<DataCopyNd2Nz>(&op))  // each row padded to whole 32-byte blocks
    return uint64_t{n->ndNum} * n->nValue * ceil_div(bytes_of(n->dtype, n->dValue), 32) * 32;
  if (const auto* l = std::get_if<LoadData>(&op)) return uint64_t{l->repeatTimes} * kFractalBytes;
  if (const auto* l = std::get_if<LoadDataWithSparse>(&op)) return uint64_t{l->repeatTimes} * kFractalBytes;
  if (const auto* l = std::get_if<LoadDataWithTranspose>(&op))
    return uint64_t{l->repeatTimes} * transpose_fractals(l->dtype) * kFractalBytes;
  if (const auto* l = std::get_if<LoadData3DV2>(&op))  // the elements written
    return load3d_shape(*l).noop ? 0 : bytes_of(l->dtype, uint64_t{l->mExtension} * l->kExtension);
  return 0;  // Mmad, MmadWithSparse, sync
}

void check_fields(const Op& op) {
  std::visit(
      [](const auto& o) {
        described_rules(o);
        FieldCheck{}(o);
      },
      op);
}

QuantWordFault quant_word_fault(uint64_t word, QuantMode mode) {
  const auto m1 = static_cast<uint32_t>(word & 0xFFFFFFFFu);
  const uint32_t exponent = (m1 >> 23) & 0xFFu, mantissa = (m1 >> 13) & 0x3FFu;  // the bits used
  if (exponent == 0xFF) return QuantWordFault::ScaleInfNaN;
  if (exponent == 0 && mantissa != 0) return QuantWordFault::ScaleSubnormal;
  if (scalar_of(mode) != QuantMode::QF322B8_PRE && ((word >> 36) & 1u)) return QuantWordFault::Shift;
  return QuantWordFault::None;
}

const char* describe(QuantWordFault f) {
  switch (f) {
    case QuantWordFault::ScaleInfNaN:
      return "has a scale (bits 0-31) that is inf or NaN: it must be a normal float or 0";
    case QuantWordFault::ScaleSubnormal:
      return "has a scale (bits 0-31) that is subnormal: it must be a normal float or 0";
    case QuantWordFault::Shift:
      return "sets bit 36 (shift int32 cells right before the scale), which is not modelled";
    case QuantWordFault::None:
      break;
  }
  return "";
}

void check(const Op& op, const Limits& limits) {
  check_fields(op);
  check_bounds(footprint(op), limits);
}

void check_bounds(const Footprint& fp, const Limits& limits) {
  for (const Extent& e : fp) {
    const uint64_t cap = limits.capacity(e.space, e.tensor);
    if (e.end > cap) {
      throw Fault(FaultKind::OutOfBounds, std::string(e.write ? "writes " : "reads ") + to_string(e.space) +
                                              " bytes [" + std::to_string(e.begin) + ", " +
                                              std::to_string(e.end) + ") beyond its " + std::to_string(cap) +
                                              " bytes" + (e.what ? std::string(" (") + e.what + ")" : ""));
    }
  }
}

}  // namespace aicore::isa
