#include "aicore/isa/access.hpp"

#include <algorithm>
#include <vector>

#include "aicore/isa/check.hpp"
#include "aicore/isa/load3d.hpp"

namespace aicore::isa {

uint64_t OperandAccess::bytes() const {
  uint64_t n = 0;
  for (const ByteRange& r : ranges) n += r.size();
  return n;
}

void AccessList::open(const char* operand, Space s, uint32_t tensor, bool write, bool exact) {
  OperandAccess& o = ops_[count_++];
  o.operand = operand;
  o.space = s;
  o.tensor = s == Space::GM ? tensor : 0;
  o.write = write;
  o.exact = exact;
  o.ranges.clear();
  sorted_ = true;
}

void AccessList::seal() {
  std::vector<ByteRange>& v = ops_[count_ - 1].ranges;
  if (sorted_) return;
  std::sort(v.begin(), v.end(), [](ByteRange a, ByteRange b) { return a.begin < b.begin; });
  size_t w = 0;
  for (size_t i = 1; i < v.size(); ++i) {
    if (v[i].begin <= v[w].end) {
      v[w].end = std::max(v[w].end, v[i].end);
    } else {
      v[++w] = v[i];
    }
  }
  v.resize(w + 1);
}

namespace {

// The bytes of one 16-row fractal block read by the Cube: rows < `rows`, bytes < `row_bytes`
// of each `pitch`-byte row, from `base`.
void rows_of(AccessList& out, uint64_t base, uint64_t rows, uint64_t row_bytes, uint64_t pitch) {
  if (row_bytes == pitch) return out.append(base, base + rows * pitch);  // whole rows: one range
  for (uint64_t r = 0; r < rows; ++r) out.append(base + r * pitch, base + r * pitch + row_bytes);
}

struct Exact {
  AccessList& out;
  bool gm_reads = true;

  // A whole operand as one hull (isa::footprint): for degenerate instructions (still exact = true:
  // the best there is), and for GM sources when the caller asks for hulls.
  void hull(const Op& op, const char* operand, Space s, uint32_t tensor, bool write, bool exact = true) {
    for (const Extent& e : footprint(op))
      if (e.space == s && e.write == write && e.tensor == tensor) {
        out.open(operand, s, tensor, write, exact);
        out.append(e.begin, e.end);
        out.seal();
        return;
      }
  }

  void operator()(const DataCopy& o) {
    if (o.blockCount == 0 || o.blockLen == 0) return;
    const uint64_t len = uint64_t{o.blockLen} * 32;
    const uint64_t src_step = (uint64_t{o.blockLen} + o.srcGap) * 32;
    const uint64_t dst_step = (uint64_t{o.blockLen} + o.dstGap) * 32;
    if (gm_reads) {
      out.open("src", Space::GM, o.src.tensor, false);
      for (uint64_t i = 0; i < o.blockCount; ++i)
        out.append(o.src.offset + i * src_step, o.src.offset + i * src_step + len);
      out.seal();
    } else {
      hull(o, "src", Space::GM, o.src.tensor, false, false);
    }
    out.open("dst", Space::L1, 0, true);
    for (uint64_t i = 0; i < o.blockCount; ++i)
      out.append(o.dst.offset + i * dst_step, o.dst.offset + i * dst_step + len);
    out.seal();
  }

  void operator()(const DataCopyL1ToBT& o) {
    if (o.blockCount == 0 || o.blockLen == 0) return;
    const uint64_t src_len = bt_src_block_bytes(o), dst_len = uint64_t{o.blockLen} * kBiasBlockBytes;
    const uint64_t src_step = src_len + uint64_t{o.srcGap} * 32;
    const uint64_t dst_step = dst_len + uint64_t{o.dstGap} * kBiasBlockBytes;
    out.open("src", Space::L1, 0, false);
    for (uint64_t i = 0; i < o.blockCount; ++i)
      out.append(o.src.offset + i * src_step, o.src.offset + i * src_step + src_len);
    out.seal();
    out.open("dst", Space::BiasTable, 0, true);
    for (uint64_t i = 0; i < o.blockCount; ++i)
      out.append(o.dst.offset + i * dst_step, o.dst.offset + i * dst_step + dst_len);
    out.seal();
  }

  void operator()(const DataCopyNd2Nz& o) {
    if (o.ndNum == 0 || o.nValue == 0 || o.dValue == 0) return;
    // Element counts to bytes (int4: two a byte; check makes its counts even).
    const auto bytes = [&](uint64_t elements) { return bytes_of(o.dtype, elements); };
    const uint64_t row = bytes(o.dValue), blocks = ceil_div(row, 32);
    const uint64_t rows = uint64_t{o.ndNum} * o.nValue;
    if (rows * blocks > kMaxExactRanges) {
      hull(o, "src", Space::GM, o.src.tensor, false);
      hull(o, "dst", Space::L1, 0, true);
      return;
    }
    // Each source row is dValue contiguous elements; each destination block is a whole 32 bytes
    // (the semantics zero-pads the last one).
    if (gm_reads) {
      out.open("src", Space::GM, o.src.tensor, false);
      for (uint64_t d = 0; d < o.ndNum; ++d)
        rows_of(out, o.src.offset + bytes(d * o.srcNdMatrixStride), o.nValue, row, bytes(o.srcDValue));
      out.seal();
    } else {
      hull(o, "src", Space::GM, o.src.tensor, false, false);
    }
    out.open("dst", Space::L1, 0, true);
    for (uint64_t d = 0; d < o.ndNum; ++d)
      for (uint64_t c = 0; c < blocks; ++c)  // column-block major: with dstNzNStride 1, one range each
        rows_of(out, o.dst.offset + bytes(d * o.dstNzMatrixStride) + c * uint64_t{o.dstNzC0Stride} * 32,
                o.nValue, 32, uint64_t{o.dstNzNStride} * 32);
    out.seal();
  }

  void operator()(const LoadData& o) {
    if (o.repeatTimes == 0) return;
    const uint64_t first = o.src.offset + uint64_t{o.startIndex} * kFractalBytes;
    out.open("src", Space::L1, 0, false);
    if (o.srcStride == 1) {  // consecutive fractals: one range
      out.append(first, first + uint64_t{o.repeatTimes} * kFractalBytes);
    } else {
      for (uint64_t i = 0; i < o.repeatTimes; ++i)
        out.append(first + i * o.srcStride * kFractalBytes, first + (i * o.srcStride + 1) * kFractalBytes);
    }
    out.seal();
    out.open("dst", o.dst.space, 0, true);
    if (o.dstGap == 0) {
      out.append(o.dst.offset, o.dst.offset + uint64_t{o.repeatTimes} * kFractalBytes);
    } else {
      for (uint64_t i = 0; i < o.repeatTimes; ++i) {
        const uint64_t d = o.dst.offset + i * (uint64_t{o.dstGap} + 1) * kFractalBytes;
        out.append(d, d + kFractalBytes);
      }
    }
    out.seal();
  }

  void operator()(const LoadDataWithSparse& o) {
    if (o.repeatTimes == 0) return;
    const uint64_t r = o.repeatTimes;
    const uint64_t w = o.src.offset + uint64_t{o.startIndex} * kFractalBytes;
    const uint64_t ix = o.idx.offset + uint64_t{o.startIndex} * kIndexFractalBytes;
    out.open("src", Space::L1, 0, false);
    out.append(w, w + r * kFractalBytes);
    out.seal();
    out.open("idx", Space::L1, 0, false);
    out.append(ix, ix + r * kIndexFractalBytes);
    out.seal();
    out.open("dst", Space::L0B, 0, true);
    out.append(o.dst.offset, o.dst.offset + r * kFractalBytes);
    out.seal();
    out.open("index", Space::SparseIndex, 0, true);
    out.append(o.dst.offset / 4, o.dst.offset / 4 + r * kIndexFractalBytes);
    out.seal();
  }

  // The C0 groups of the map the window reads (padding reads nothing), and the destination rows
  // it writes: zZ rows of 32 bytes, or (transposed, L0B) fractal rows of the window's columns.
  void operator()(const LoadData3DV2& o) {
    const Load3DShape s = load3d_shape(o);
    if (s.noop) return;
    std::vector<uint64_t> groups;  // a window of padding only reads nothing
    for (uint64_t i = 0; i < o.mExtension; ++i)
      for (uint64_t j = 0; j < o.kExtension; j += s.c0) {
        const int64_t g = load3d_source_group(o, s, o.mStartPt + i, o.kStartPt + j);
        if (g >= 0) groups.push_back(o.src.offset + static_cast<uint64_t>(g));
      }
    if (!groups.empty()) {
      out.open("src", Space::L1, 0, false);
      for (const uint64_t g : groups) out.append(g, g + 32);
      out.seal();
    }
    out.open("dst", o.dst.space, 0, true);
    if (s.size == 4 && (o.enTranspose || o.dst.space == Space::L0B)) {  // b32 transposed: element by element
      for (uint64_t i = 0; i < o.mExtension; ++i)
        for (uint64_t j = 0; j < o.kExtension; ++j) {
          const uint64_t d = o.dst.offset + load3d_dest(o, s, i, j);
          out.append(d, d + 4);
        }
      return out.seal();
    }
    const bool transposed = o.dst.space == Space::L0B || o.enTranspose;
    for (uint64_t m1 = 0; m1 < s.m1; ++m1) {
      const uint64_t rows = std::min<uint64_t>(16, o.mExtension - m1 * 16);
      for (uint64_t k1 = 0; k1 < s.k1; ++k1) {
        const uint64_t base = o.dst.offset + load3d_dest(o, s, m1 * 16, k1 * s.c0);
        if (transposed)  // 16 rows (columns j), each the window's rows of this fractal
          rows_of(out, base, 16, rows * s.size, 32);
        else
          rows_of(out, base, rows, 32, 32);
      }
    }
    out.seal();
  }

  // Each repeat reads its square (whole) and writes its one or two whole fractals.
  void operator()(const LoadDataWithTranspose& o) {
    if (o.repeatTimes == 0) return;
    const uint64_t square = transpose_square_bytes(o.dtype), fractals = transpose_fractals(o.dtype);
    const uint64_t first = o.src.offset + uint64_t{o.startIndex} * square;
    out.open("src", Space::L1, 0, false);
    for (uint64_t i = 0; i < o.repeatTimes; ++i)
      out.append(first + i * o.srcStride * square, first + i * o.srcStride * square + square);
    out.seal();
    out.open("dst", o.dst.space, 0, true);
    for (uint64_t i = 0; i < o.repeatTimes; ++i)
      for (uint64_t f = 0; f < fractals; ++f) {
        const uint64_t d = transpose_dst_fractal(o, i, f);
        out.append(d, d + kFractalBytes);
      }
    out.seal();
  }

  // A in L0A (Zz): fractal (m1, k1) at (m1 * K1s + k1) * 512, row = m % 16, bytes of k < K; K1s
  // is K1 (the fractals along k), or more when the block's K is padded (kDirectionAlign): the
  // padding fractals are not read.
  void zz(const MmadCommon& o, uint64_t k_bytes, uint64_t k1_stride = 0) {
    const uint64_t m1n = ceil_div(o.m, 16), k1n = ceil_div(k_bytes, 32);
    const uint64_t k1s = k1_stride ? k1_stride : k1n;
    out.open("fm", Space::L0A, 0, false);
    if (o.m % 16 == 0 && k_bytes % 32 == 0 && k1s == k1n) {  // no padding: every fractal whole, one range
      out.append(o.fm.offset, o.fm.offset + m1n * k1n * kFractalBytes);
      return out.seal();
    }
    for (uint64_t m1 = 0; m1 < m1n; ++m1)
      for (uint64_t k1 = 0; k1 < k1n; ++k1)
        rows_of(out, o.fm.offset + (m1 * k1s + k1) * kFractalBytes, std::min<uint64_t>(16, o.m - m1 * 16),
                std::min<uint64_t>(32, k_bytes - k1 * 32), 32);
    out.seal();
  }

  // B in L0B (Zn): fractal (k1, n1) at (k1 * N1 + n1) * frac, row = n % 16 of `pitch` bytes, of
  // which the first `k_bytes - k1 * 32` feed C (divided by `divisor` for the index buffer, which
  // packs 4 indexes per byte).
  void zn(const char* operand, Space s, uint64_t base, uint64_t n, uint64_t k_bytes, uint64_t frac,
          uint64_t pitch, uint64_t divisor) {
    const uint64_t n1n = ceil_div(n, 16), k1n = ceil_div(k_bytes, 32);
    out.open(operand, s, 0, false);
    if (n % 16 == 0 && k_bytes % 32 == 0) {  // no padding: one range
      out.append(base, base + k1n * n1n * frac);
      return out.seal();
    }
    for (uint64_t k1 = 0; k1 < k1n; ++k1)
      for (uint64_t n1 = 0; n1 < n1n; ++n1)
        rows_of(out, base + (k1 * n1n + n1) * frac, std::min<uint64_t>(16, n - n1 * 16),
                ceil_div(std::min<uint64_t>(32, k_bytes - k1 * 32), divisor), pitch);
    out.seal();
  }

  // C in L0C (Nz): the accumulating read covers rows < m and columns < n; the write covers the
  // whole fractals (the Cube computes 16 x 16 outputs, docs/decisions.md).
  void c_matrix(const MmadCommon& o) {
    const uint64_t m1n = ceil_div(o.m, 16), n1n = ceil_div(o.n, 16);
    if (o.adds_bias()) {  // the bias: one 4-byte cell per column of C
      out.open("bias", Space::BiasTable, 0, false);
      out.append(o.biasAddr, o.biasAddr + uint64_t{o.n} * 4);
      out.seal();
    }
    if (o.accumulates() && o.m % 16 == 0 && o.n % 16 == 0) {  // no padding: one range
      out.open("dst", Space::L0C, 0, false);
      out.append(o.dst.offset, o.dst.offset + m1n * n1n * kCFractalBytes);
      out.seal();
    } else if (o.accumulates()) {
      out.open("dst", Space::L0C, 0, false);
      for (uint64_t n1 = 0; n1 < n1n; ++n1)
        for (uint64_t m1 = 0; m1 < m1n; ++m1)
          rows_of(out, o.dst.offset + (n1 * m1n + m1) * kCFractalBytes, std::min<uint64_t>(16, o.m - m1 * 16),
                  4 * std::min<uint64_t>(16, o.n - n1 * 16), 64);
      out.seal();
    }
    out.open("dst", Space::L0C, 0, true);
    out.append(o.dst.offset, o.dst.offset + m1n * n1n * kCFractalBytes);
    out.seal();
  }

  void operator()(const Mmad& o) {
    if (o.m == 0 || o.n == 0 || o.k == 0) return;
    const uint64_t k_bytes = bytes_of(o.dtype, o.k);  // int4: an odd k reads its last byte whole
    zz(o, k_bytes, mmad_a_k_fractals(o));
    zn("filter", Space::L0B, o.filter.offset, o.n, k_bytes, kFractalBytes, 32, 1);
    c_matrix(o);
  }

  void operator()(const MmadWithSparse& o) {
    if (o.m == 0 || o.n == 0 || o.k == 0) return;
    // A holds the original K; B' and its indexes hold K/2 dense elements, 4 indexes per byte.
    zz(o, o.k);
    zn("filter", Space::L0B, o.filter.offset, o.n, uint64_t{o.k} / 2, kFractalBytes, 32, 1);
    zn("index", Space::SparseIndex, o.filter.offset / 4, o.n, uint64_t{o.k} / 2, kIndexFractalBytes, 8, 4);
    c_matrix(o);
  }

  void operator()(const Fixpipe& o) {
    if (o.nSize == 0 || o.mSize == 0 || o.ndNum == 0) return;
    const uint64_t cblocks = ceil_div(o.nSize, 16);
    if (per_channel(o.quantPre)) {  // the per-channel words: nSize x 8 bytes of L1
      out.open("quant", Space::L1, 0, false);
      out.append(o.quantAddr, o.quantAddr + uint64_t{o.nSize} * 8);
      out.seal();
    }
    if (uint64_t{o.ndNum} * o.mSize * cblocks > kMaxExactRanges) {
      hull(o, "src", Space::L0C, 0, false);
      hull(o, "dst", Space::GM, o.dst.tensor, true);
      return;
    }
    // Rows j of column block c: 64 bytes at (c * srcStride + j) * 64; a last block of fewer than
    // 16 columns reads only the cells of its columns.
    const uint64_t tail_bytes = (o.nSize - (cblocks - 1) * 16) * 4;
    out.open("src", Space::L0C, 0, false);
    for (uint64_t nd = 0; nd < o.ndNum; ++nd)
      for (uint64_t c = 0; c < cblocks; ++c)
        rows_of(out, o.src.offset + nd * o.srcNdStride * kCFractalBytes + c * o.srcStride * 64, o.mSize,
                c + 1 < cblocks ? 64 : tail_bytes, 64);
    out.seal();
    // Row j: nSize contiguous elements of the output type at j * dstStride; an NZ output: column
    // block c's mSize rows of 16 elements, contiguous, at c * dstStride * 32 bytes.
    const uint64_t es = output_size(o);
    out.open("dst", Space::GM, o.dst.tensor, true);
    if (o.nz) {
      const uint64_t cols = nz_block_columns(o), blocks = ceil_div(o.nSize, cols);
      for (uint64_t c = 0; c < blocks; ++c) {
        const uint64_t d = o.dst.offset + c * o.dstStride * 32;
        out.append(d, d + uint64_t{o.mSize} * cols * es);
      }
      return out.seal();
    }
    for (uint64_t nd = 0; nd < o.ndNum; ++nd)
      rows_of(out, o.dst.offset + nd * o.dstNdStride * es, o.mSize, o.nSize * es, uint64_t{o.dstStride} * es);
    out.seal();
  }

  void operator()(const SetFlag&) {}
  void operator()(const WaitFlag&) {}
  void operator()(const PipeBarrier&) {}
  void operator()(const SyncAll&) {}
  void operator()(const SetAtomicAdd&) {}
  void operator()(const SetAtomicNone&) {}
};

}  // namespace

void exact_accesses(const Op& op, AccessList& out, bool gm_reads) {
  out.clear();
  std::visit(Exact{out, gm_reads}, op);
}

std::vector<uint32_t> unit_flag_granules(const Op& op) {
  std::vector<uint32_t> out;
  const auto add = [&](uint64_t lo, uint64_t hi) {  // L0C bytes [lo, hi)
    for (uint64_t g = lo / kUnitFlagBytes; g * kUnitFlagBytes < hi; ++g)
      out.push_back(static_cast<uint32_t>(g));
  };
  const MmadCommon* m = nullptr;
  if (const auto* d = std::get_if<Mmad>(&op)) m = d;
  if (const auto* d = std::get_if<MmadWithSparse>(&op)) m = d;
  if (m && m->m && m->n && m->k) {  // whole output fractals from dst
    add(m->dst.offset, m->dst.offset + ceil_div(m->m, 16) * ceil_div(m->n, 16) * kCFractalBytes);
  } else if (const auto* f = std::get_if<Fixpipe>(&op)) {  // 64-byte rows of each column block
    for (uint64_t nd = 0; f->mSize && nd < f->ndNum; ++nd)
      for (uint64_t c = 0; c < ceil_div(f->nSize, 16); ++c) {
        const uint64_t lo = f->src.offset + nd * f->srcNdStride * kCFractalBytes + c * f->srcStride * 64;
        add(lo, lo + uint64_t{f->mSize} * 64);
      }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
  }
  return out;
}

}  // namespace aicore::isa
