// Data-movement instructions: DataCopy (plain, ND2NZ), LoadData 2D, LoadData3DV2, LoadDataWithSparse,
// Fixpipe.
#include <cstring>
#include <string>
#include <vector>

#include <algorithm>

#include "aicore/common/error.hpp"
#include "aicore/isa/check.hpp"
#include "aicore/isa/load3d.hpp"
#include "aicore/semantics/atomic.hpp"
#include "aicore/semantics/convert.hpp"
#include "aicore/semantics/execute.hpp"

namespace aicore::sem {

using isa::kFractalBytes;
using isa::kIndexFractalBytes;

void data_copy(const isa::DataCopy& op, const MemoryView& mem) {
  isa::check(op, mem.limits());
  const uint8_t* src = mem.ptr(op.src);
  uint8_t* dst = mem.ptr(op.dst);
  const uint64_t len = uint64_t{op.blockLen} * 32;
  const uint64_t src_step = (uint64_t{op.blockLen} + op.srcGap) * 32;
  const uint64_t dst_step = (uint64_t{op.blockLen} + op.dstGap) * 32;
  if (op.srcGap == 0 && op.dstGap == 0) {  // contiguous: one copy
    std::memcpy(dst, src, len * op.blockCount);
    return;
  }
  for (uint32_t i = 0; i < op.blockCount; ++i) std::memcpy(dst + i * dst_step, src + i * src_step, len);
}

// Block by block: a gap of 0 packs the blocks (docs/semantics.md, "Bias table").
void data_copy_l1_to_bt(const isa::DataCopyL1ToBT& op, const MemoryView& mem) {
  isa::check(op, mem.limits());
  if (op.blockCount == 0 || op.blockLen == 0) return;
  const uint8_t* src = mem.ptr(op.src);
  uint8_t* dst = mem.ptr(op.dst);
  const uint64_t src_block = isa::bt_src_block_bytes(op),
                 dst_block = uint64_t{op.blockLen} * isa::kBiasBlockBytes;
  const uint64_t src_step = src_block + uint64_t{op.srcGap} * 32;
  const uint64_t dst_step = dst_block + uint64_t{op.dstGap} * isa::kBiasBlockBytes;
  for (uint32_t i = 0; i < op.blockCount; ++i) {
    const uint8_t* s = src + i * src_step;
    uint8_t* d = dst + i * dst_step;
    if (!op.convControl) {
      std::memcpy(d, s, dst_block);
      continue;
    }
    for (uint64_t e = 0; e < dst_block / 4; ++e) {  // each half of L1 becomes the float it is
      const float f = half_to_float(static_cast<uint16_t>(s[2 * e] | s[2 * e + 1] << 8));
      std::memcpy(d + 4 * e, &f, 4);
    }
  }
}

void data_copy_nd2nz(const isa::DataCopyNd2Nz& op, const MemoryView& mem) {
  isa::check(op, mem.limits());
  // Counts in elements to bytes: int4 moves as bytes, two elements each (check makes its counts even).
  const auto bytes = [&](uint64_t elements) { return isa::bytes_of(op.dtype, elements); };
  const uint64_t row_bytes = bytes(op.dValue);
  const uint64_t blocks = isa::ceil_div(row_bytes, 32);
  for (uint32_t d = 0; d < op.ndNum; ++d) {
    const uint8_t* src_m = mem.ptr(op.src) + bytes(d * uint64_t{op.srcNdMatrixStride});
    uint8_t* dst_m = mem.ptr(op.dst) + bytes(d * uint64_t{op.dstNzMatrixStride});
    for (uint32_t r = 0; r < op.nValue; ++r) {
      const uint8_t* src_r = src_m + bytes(r * uint64_t{op.srcDValue});
      uint8_t* dst_r = dst_m + r * uint64_t{op.dstNzNStride} * 32;
      for (uint64_t c = 0; c < blocks; ++c) {
        uint8_t* out = dst_r + c * uint64_t{op.dstNzC0Stride} * 32;
        const uint64_t n = row_bytes - c * 32 < 32 ? row_bytes - c * 32 : 32;
        std::memcpy(out, src_r + c * 32, n);
        if (n < 32) std::memset(out + n, 0, 32 - n);  // last partial block is zero-padded
      }
    }
  }
}

namespace {
// 16x16 transpose of 2-byte elements (one b16 fractal).
void transpose_b16_fractal(uint8_t* dst, const uint8_t* src) {
  for (int r = 0; r < 16; ++r)
    for (int c = 0; c < 16; ++c) std::memcpy(dst + (c * 16 + r) * 2, src + (r * 16 + c) * 2, 2);
}
}  // namespace

void load_data(const isa::LoadData& op, const MemoryView& mem) {
  isa::check(op, mem.limits());
  const uint8_t* src = mem.ptr(op.src);
  uint8_t* dst = mem.ptr(op.dst);
  for (uint32_t i = 0; i < op.repeatTimes; ++i) {
    const uint8_t* s = src + (uint64_t{op.startIndex} + uint64_t{i} * op.srcStride) * kFractalBytes;
    uint8_t* d = dst + uint64_t{i} * (uint64_t{op.dstGap} + 1) * kFractalBytes;
    if (op.ifTranspose)
      transpose_b16_fractal(d, s);
    else
      std::memcpy(d, s, kFractalBytes);
  }
}

// Each repeat: its square into a buffer, then every destination element from its place in the
// transposed square (isa::transpose_source; docs/semantics.md, "LoadDataWithTranspose"). Repeats
// write in order, so where destinations overlap the later one's fractal stays.
void load_data_with_transpose(const isa::LoadDataWithTranspose& op, const MemoryView& mem) {
  isa::check(op, mem.limits());
  const bool b4 = op.dtype == isa::DType::Int4;  // nibbles: transpose_source gives nibble indexes
  const uint32_t es = isa::byte_size(op.dtype), fractals = isa::transpose_fractals(op.dtype);
  const uint64_t square = isa::transpose_square_bytes(op.dtype);
  const uint8_t* src = mem.ptr(op.src) + uint64_t{op.startIndex} * square;
  const uint32_t cols = isa::k0_of(op.dtype);  // elements in a fractal row
  uint8_t s[4 * kFractalBytes];
  for (uint64_t i = 0; i < op.repeatTimes; ++i) {
    std::memcpy(s, src + i * op.srcStride * square, square);
    for (uint32_t f = 0; f < fractals; ++f) {
      uint8_t* d = mem.ptr(op.dst.space, 0, isa::transpose_dst_fractal(op, i, f));
      for (uint32_t k = 0; k < 16; ++k)
        for (uint32_t j = 0; j < cols; ++j) {
          const uint64_t from = isa::transpose_source(op.dtype, f, k, j);
          if (!b4) {
            std::memcpy(d + k * 32 + j * es, s + from, es);
            continue;
          }
          const uint8_t v = (s[from / 2] >> (4 * (from % 2))) & 0xF;
          uint8_t& to = d[k * 32 + j / 2];
          to = j % 2 ? static_cast<uint8_t>((to & 0x0F) | v << 4) : static_cast<uint8_t>((to & 0xF0) | v);
        }
    }
  }
}

// Image to column: every element of the window from its C0 group in the map, or padValue
// (isa/load3d.hpp has the geometry, docs/semantics.md "LoadData3DV2" the rules).
void load_data_3dv2(const isa::LoadData3DV2& op, const MemoryView& mem) {
  isa::check(op, mem.limits());
  const isa::Load3DShape s = isa::load3d_shape(op);
  if (s.noop) return;
  const uint8_t* src = mem.ptr(op.src);
  uint8_t* dst = mem.ptr(op.dst);
  uint8_t pad[4];  // the element's bytes, least significant first (L1 holds elements little-endian)
  for (uint32_t b = 0; b < 4; ++b) pad[b] = static_cast<uint8_t>(op.padValue >> (8 * b));
  if (op.dtype == isa::DType::Int4) {  // into L0A as it is: each 32-byte C0 group (64 nibbles) whole
    uint8_t pad_group[32];
    std::memset(pad_group, static_cast<int>((op.padValue & 0xF) * 0x11), 32);
    for (uint64_t i = 0; i < op.mExtension; ++i)
      for (uint64_t j = 0; j < op.kExtension; j += s.c0) {
        const int64_t group = isa::load3d_source_group(op, s, op.mStartPt + i, op.kStartPt + j);
        std::memcpy(dst + isa::load3d_dest(op, s, i, j), group < 0 ? pad_group : src + group, 32);
      }
    return;
  }
  for (uint64_t i = 0; i < op.mExtension; ++i)
    for (uint64_t j = 0; j < op.kExtension; j += s.c0) {
      const int64_t group = isa::load3d_source_group(op, s, op.mStartPt + i, op.kStartPt + j);
      for (uint64_t e = 0; e < s.c0; ++e) {
        const uint8_t* from = group < 0 ? pad : src + group + e * s.size;
        std::memcpy(dst + isa::load3d_dest(op, s, i, j + e), from, s.size);
      }
    }
}

void load_data_with_sparse(const isa::LoadDataWithSparse& op, const MemoryView& mem) {
  isa::check(op, mem.limits());
  if (op.repeatTimes == 0) return;
  const uint64_t r = op.repeatTimes;
  std::memcpy(mem.ptr(op.dst), mem.ptr(op.src) + uint64_t{op.startIndex} * kFractalBytes, r * kFractalBytes);
  std::memcpy(mem.ptr(isa::Space::SparseIndex, 0, op.dst.offset / 4),
              mem.ptr(op.idx) + uint64_t{op.startIndex} * kIndexFractalBytes, r * kIndexFractalBytes);
}

namespace {

float float_of(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

// One 16-cell row piece of a column block, from L0C cells to the output type (docs/semantics.md,
// "Fixpipe conversions"), cell i by q[i] (one scalar for every column, or each column's own word).
// NoQuant copies the cells (reluEn clamps negatives to 0).
void convert_cells(const isa::Fixpipe& op, const DeqScalar* q, const uint8_t* s, uint8_t* d) {
  uint32_t cells[16];
  std::memcpy(cells, s, 64);
  switch (isa::scalar_of(op.quantPre)) {
    case isa::QuantMode::NoQuant:
      if (op.reluEn) {
        for (uint32_t& c : cells) {
          const bool negative =
              op.dtype == isa::DType::Int32 ? static_cast<int32_t>(c) < 0 : float_of(c) < 0.0f;
          if (negative) c = 0;
        }
      }
      std::memcpy(d, cells, 64);
      return;
    case isa::QuantMode::F322F16:
    case isa::QuantMode::F322BF16: {
      uint16_t out[16];
      for (int i = 0; i < 16; ++i) {
        uint32_t c = cells[i];
        if (op.reluEn && float_of(c) < 0.0f) c = 0;
        out[i] = op.quantPre == isa::QuantMode::F322F16 ? f32_to_f16_sat(c) : f32_to_bf16_sat(c);
      }
      std::memcpy(d, out, 32);
      return;
    }
    case isa::QuantMode::DEQF16: {
      uint16_t out[16];
      for (int i = 0; i < 16; ++i) out[i] = deqf16(static_cast<int32_t>(cells[i]), q[i], op.reluEn);
      std::memcpy(d, out, 32);
      return;
    }
    case isa::QuantMode::REQ8:
      for (int i = 0; i < 16; ++i) d[i] = req8(static_cast<int32_t>(cells[i]), q[i], op.reluEn);
      return;
    case isa::QuantMode::QF322B8_PRE:
      for (int i = 0; i < 16; ++i) d[i] = qf322b8(cells[i], q[i], op.reluEn);
      return;
    default:
      return;  // scalar_of maps the per-channel modes to the scalar ones
  }
}

// A per-channel word obeys deqScalar's rules (isa::quant_word_fault); it is data, so it is checked
// as it is read, and a fault names its column and L1 byte.
DeqScalar channel_word(const isa::Fixpipe& op, const uint8_t* words, uint32_t n) {
  uint64_t w;
  std::memcpy(&w, words + uint64_t{n} * 8, 8);
  if (const isa::QuantWordFault f = isa::quant_word_fault(w, op.quantPre); f != isa::QuantWordFault::None)
    throw Fault(FaultKind::InvalidQuantWord, std::string("quantPre ") + isa::to_string(op.quantPre) +
                                                 ": the word of column " + std::to_string(n) + " (L1 byte " +
                                                 std::to_string(op.quantAddr + uint64_t{n} * 8) + ") " +
                                                 isa::describe(f));
  return decode_deq_scalar(w);
}

// The conversion parameters of every column: deqScalar for all, or word n of the L1 table.
std::vector<DeqScalar> column_params(const isa::Fixpipe& op, const MemoryView& mem) {
  const uint32_t padded = (op.nSize + 15u) / 16 * 16 + 8;  // + 8: a split block's second half reads 16 too
  if (!isa::per_channel(op.quantPre)) return std::vector<DeqScalar>(padded, decode_deq_scalar(op.deqScalar));
  std::vector<DeqScalar> q(padded);  // the columns past nSize of a last block are never written
  const uint8_t* words = mem.ptr(isa::Space::L1, 0, op.quantAddr);
  for (uint32_t n = 0; n < op.nSize; ++n) q[n] = channel_word(op, words, n);
  return q;
}

}  // namespace

namespace {

// Every 16-cell row piece of a Fixpipe, in order: f(L0C source, GM destination, first column,
// columns), the last piece of a row holding nSize % 16 columns when nSize is not a multiple of 16.
template <class F>
void for_each_piece(const isa::Fixpipe& op, const MemoryView& mem, F&& f) {
  const uint32_t blocks = (op.nSize + 15u) / 16;
  const uint64_t es = isa::output_size(op);
  if (op.channelSplit) {  // NZ only (ndNum 1): half h of L0C block c is GM block 2c + h, 8 columns a row
    const uint8_t* src = mem.ptr(op.src);
    uint8_t* dst = mem.ptr(op.dst);
    for (uint32_t j = 0; j < op.mSize; ++j)
      for (uint32_t c = 0; c < blocks; ++c)
        for (uint32_t h = 0; h < 2 && c * 16 + h * 8 < op.nSize; ++h) {
          uint8_t row[64] = {};  // the half's 8 cells, padded to a whole piece for the converter
          std::memcpy(row, src + (uint64_t{c} * op.srcStride + j) * 64 + h * 32, 32);
          f(row, dst + uint64_t{2 * c + h} * op.dstStride * 32 + uint64_t{j} * 8 * es, c * 16 + h * 8, 8u);
        }
    return;
  }
  for (uint32_t nd = 0; nd < op.ndNum; ++nd) {
    const uint8_t* src = mem.ptr(op.src) + uint64_t{nd} * op.srcNdStride * isa::kCFractalBytes;
    uint8_t* dst = mem.ptr(op.dst) + uint64_t{nd} * op.dstNdStride * es;
    // NZ: block c, row j; int8 merges L0C blocks 2b and 2b + 1 into 32-byte rows of output block b.
    const auto nz_at = [&](uint32_t c, uint32_t j) {
      if (es == 1) return dst + uint64_t{c / 2} * op.dstStride * 32 + uint64_t{j} * 32 + (c % 2) * 16;
      return dst + uint64_t{c} * op.dstStride * 32 + uint64_t{j} * 16 * es;
    };
    for (uint32_t j = 0; j < op.mSize; ++j)
      for (uint32_t c = 0; c < blocks; ++c)
        f(src + (uint64_t{c} * op.srcStride + j) * 64,
          op.nz ? nz_at(c, j) : dst + (uint64_t{j} * op.dstStride + uint64_t{c} * 16) * es, c * 16,
          std::min<uint32_t>(16, op.nSize - c * 16));
  }
}

}  // namespace

void fixpipe(const isa::Fixpipe& op, const MemoryView& mem) {
  isa::check(op, mem.limits());
  const uint64_t es = isa::output_size(op);
  const std::vector<DeqScalar> q = column_params(op, mem);
  for_each_piece(op, mem, [&](const uint8_t* src, uint8_t* dst, uint32_t first, uint32_t columns) {
    if (columns == 16) return convert_cells(op, q.data() + first, src, dst);
    // A partial last block: convert its whole piece aside, write its first `columns` (the cells
    // past nSize are neither read as data nor written).
    uint8_t piece[64];
    convert_cells(op, q.data() + first, src, piece);
    std::memcpy(dst, piece, columns * es);
  });
}

void fixpipe_atomic_add(const isa::Fixpipe& op, const MemoryView& mem) {
  isa::check(op, mem.limits());
  const isa::DType type = isa::output_dtype(op);
  const std::vector<DeqScalar> q = column_params(op, mem);
  // Each converted 16-cell piece is added to the bytes already there.
  for_each_piece(op, mem, [&](const uint8_t* src, uint8_t* dst, uint32_t first, uint32_t columns) {
    uint8_t piece[64];
    convert_cells(op, q.data() + first, src, piece);
    atomic_add(type, dst, piece, columns);
  });
}

}  // namespace aicore::sem
