// 4:2 structured sparsity: densification of B and the 2-bit index encoding (docs/semantics.md §5).
#pragma once
#include <cstdint>
#include <vector>

namespace aicore::sem {

// One group of 4 consecutive K-elements of a column, densified.
struct SparseGroup {
  int8_t v0 = 0, v1 = 0;           // dense pair, in order
  uint8_t index0 = 0, index1 = 0;  // 2-bit indexes (0..2)
  uint8_t nonzeros = 0;            // non-zeros in the original group (3 or 4 = data lost)
};
SparseGroup densify_group(const int8_t e[4]);

// A positions selected by the indexes of one group (a decision, docs/decisions.md:
// sel1 = max(index0, 1 + index1)).
inline uint8_t sparse_sel0(uint8_t index0) {
  return index0;
}
inline uint8_t sparse_sel1(uint8_t index0, uint8_t index1) {
  return static_cast<uint8_t>(index0 > 1 + index1 ? index0 : 1 + index1);
}

// Index byte packing: 4 indexes per byte, first in bits [1:0].
inline uint8_t pack_indexes(uint8_t i0, uint8_t i1, uint8_t i2, uint8_t i3) {
  return static_cast<uint8_t>((i0 & 3) | (i1 & 3) << 2 | (i2 & 3) << 4 | (i3 & 3) << 6);
}
// Offset of the index byte for dense element (k', n) of B' (K' x N), and its bit shift.
inline uint64_t index_byte_offset(uint64_t kp, uint64_t n, uint64_t N) {
  const uint64_t n1n = (N + 15) / 16;
  return ((kp / 32) * n1n + n / 16) * 128 + (n % 16) * 8 + (kp % 32) / 4;
}
inline uint32_t index_bit_shift(uint64_t kp) {
  return 2 * static_cast<uint32_t>(kp % 4);
}

struct DensifiedB {
  uint32_t K = 0, N = 0;         // original shape; B' is K/2 x N
  std::vector<int8_t> dense_zn;  // B' in Zn layout, ceil(K/64) x ceil(N/16) fractals of 512 B
  std::vector<uint8_t> index;    // packed indexes, same fractal order, 128 B each
  std::vector<int8_t> kept;      // K x N row-major: the original B with dropped values zeroed
  uint64_t groups = 0;           // K/4 * N
  uint64_t lossy_groups = 0;     // groups with 3 or 4 non-zeros
  uint64_t dropped_values = 0;   // non-zeros dropped from those groups
};
// b is K x N int8 row-major; K must be a multiple of 4 (throws std::invalid_argument otherwise).
DensifiedB densify_4to2(const int8_t* b, uint32_t K, uint32_t N);

}  // namespace aicore::sem
