#include "aicore/model/gm_write.hpp"

#include <cmath>

namespace aicore::model {

namespace {

// x with x * a = 1 (mod m), for a and m coprime (m >= 1).
uint64_t inverse_mod(uint64_t a, uint64_t m) {
  int64_t r0 = static_cast<int64_t>(m), r1 = static_cast<int64_t>(a % m), t0 = 0, t1 = 1;
  while (r1 != 0) {
    const int64_t q = r0 / r1;
    const int64_t r2 = r0 - q * r1, t2 = t0 - q * t1;
    r0 = r1, r1 = r2, t0 = t1, t1 = t2;
  }
  const auto mm = static_cast<int64_t>(m);
  return static_cast<uint64_t>(((t0 % mm) + mm) % mm);
}

uint64_t gcd(uint64_t a, uint64_t b) {
  while (b) {
    const uint64_t t = a % b;
    a = b, b = t;
  }
  return a;
}

}  // namespace

uint64_t aligned_starts(uint64_t first, uint64_t step, uint64_t count, uint64_t align) {
  if (count == 0) return 0;
  if (align <= 1) return count;
  const uint64_t c = first % align, b = step % align;
  if (b == 0) return c == 0 ? count : 0;
  // j * b = -c (mod align): solvable iff gcd(b, align) divides it, then j = j0 (mod align / g).
  const uint64_t t = (align - c) % align, g = gcd(b, align);
  if (t % g != 0) return 0;
  const uint64_t period = align / g;
  const uint64_t j0 = (t / g) % period * inverse_mod(b / g, period) % period;
  return j0 < count ? (count - 1 - j0) / period + 1 : 0;
}

GmWriteCost gm_write_cost(const isa::Fixpipe& f, const config::GmWrite& path, bool atomic) {
  GmWriteCost w;
  const uint64_t es = isa::output_size(f);
  const uint64_t row_bytes = uint64_t{f.nSize} * es;
  w.rows = uint64_t{f.ndNum} * f.mSize;
  w.bytes = w.rows * row_bytes;
  if (w.bytes == 0) {
    w.rate = path.bytes_per_cycle;
    return w;
  }
  if (f.nz) {
    // NZ output: each 16-column block is one run of mSize * 16 elements at c * dstStride * 32
    // bytes (blocks that follow each other in GM are one run), charged as rows are.
    const uint64_t cols = isa::nz_block_columns(f), blocks = (f.nSize + cols - 1) / cols,
                   run = uint64_t{f.mSize} * cols * es;
    w.rows = uint64_t{f.dstStride} * 32 == run ? 1 : blocks;
    const uint64_t run_bytes = w.bytes / w.rows;
    w.unaligned_rows = w.rows - aligned_starts(f.dst.offset, w.rows == 1 ? 0 : uint64_t{f.dstStride} * 32,
                                               w.rows, path.align_bytes);
    w.weighted_bytes = static_cast<double>(w.bytes - w.unaligned_rows * run_bytes) +
                       path.unaligned_cost * static_cast<double>(w.unaligned_rows * run_bytes);
    if (atomic) w.weighted_bytes /= path.atomic_share;
    w.rate = path.bytes_per_cycle * static_cast<double>(w.bytes) / w.weighted_bytes;
    w.cycles = static_cast<uint64_t>(std::ceil(w.weighted_bytes / path.bytes_per_cycle));
    return w;
  }
  // Row j of matrix nd starts at dst + (nd * dstNdStride + j * dstStride) elements. Rows that
  // follow each other in GM (dstStride = nSize) are one run: only its start counts.
  const bool contiguous = uint64_t{f.dstStride} * es == row_bytes;
  for (uint64_t nd = 0; nd < f.ndNum; ++nd) {
    const uint64_t first = f.dst.offset + nd * f.dstNdStride * es;
    if (contiguous)
      w.unaligned_rows += path.align_bytes > 1 && first % path.align_bytes ? f.mSize : 0;
    else
      w.unaligned_rows +=
          f.mSize - aligned_starts(first, uint64_t{f.dstStride} * es, f.mSize, path.align_bytes);
  }
  w.weighted_bytes = static_cast<double>(w.bytes - w.unaligned_rows * row_bytes) +
                     path.unaligned_cost * static_cast<double>(w.unaligned_rows * row_bytes);
  if (atomic) w.weighted_bytes /= path.atomic_share;
  w.rate = path.bytes_per_cycle * static_cast<double>(w.bytes) / w.weighted_bytes;
  w.cycles = static_cast<uint64_t>(std::ceil(w.weighted_bytes / path.bytes_per_cycle));
  return w;
}

}  // namespace aicore::model
