// Fractal layouts (docs/semantics.md §2) as byte-offset functions, plus whole-matrix packers
// used by the generators and tools. Matrices outside the simulator are row-major.
#pragma once
#include <cstdint>
#include <vector>

namespace aicore::sem {

// int8 A (M x K) in Zz: fractals (m1, k1) row-major, 16 rows x 32 bytes inside.
inline uint64_t zz_offset_i8(uint64_t m, uint64_t k, uint64_t K) {
  const uint64_t k1n = (K + 31) / 32;
  return ((m / 16) * k1n + k / 32) * 512 + (m % 16) * 32 + (k % 32);
}
// int8 B (K x N) in Zn: fractals (k1, n1) row-major, 16 n-rows x 32 k-bytes inside.
inline uint64_t zn_offset_i8(uint64_t k, uint64_t n, uint64_t N) {
  const uint64_t n1n = (N + 15) / 16;
  return ((k / 32) * n1n + n / 16) * 512 + (n % 16) * 32 + (k % 32);
}
// 32-bit C (M x N) in Nz: fractals column-block-major, 16x16 cells row-major inside.
inline uint64_t nz_offset_c(uint64_t m, uint64_t n, uint64_t M) {
  const uint64_t m1n = (M + 15) / 16;
  return ((n / 16) * m1n + m / 16) * 1024 + (m % 16) * 64 + (n % 16) * 4;
}
// A (M x K int8) as DataCopyNd2Nz writes it to L1 with dstNzC0Stride = ceil16(M),
// dstNzNStride = 1: 32-byte column block c of row r at (c * ceil16(M) + r) * 32.
inline uint64_t nz_l1_offset_i8(uint64_t m, uint64_t k, uint64_t M) {
  const uint64_t m16 = (M + 15) / 16 * 16;
  return ((k / 32) * m16 + m) * 32 + (k % 32);
}

// Whole-matrix packers; padding bytes are zero.
std::vector<int8_t> pack_zz_i8(const int8_t* a, uint32_t M, uint32_t K);
std::vector<int8_t> pack_zn_i8(const int8_t* b, uint32_t K, uint32_t N);
std::vector<int8_t> pack_nz_l1_i8(const int8_t* a, uint32_t M, uint32_t K);

}  // namespace aicore::sem
