#include "aicore/semantics/layout.hpp"

namespace aicore::sem {

std::vector<int8_t> pack_zz_i8(const int8_t* a, uint32_t M, uint32_t K) {
  const uint64_t m1 = (M + 15) / 16, k1 = (K + 31) / 32;
  std::vector<int8_t> out(m1 * k1 * 512, 0);
  for (uint32_t m = 0; m < M; ++m)
    for (uint32_t k = 0; k < K; ++k) out[zz_offset_i8(m, k, K)] = a[uint64_t{m} * K + k];
  return out;
}

std::vector<int8_t> pack_zn_i8(const int8_t* b, uint32_t K, uint32_t N) {
  const uint64_t k1 = (K + 31) / 32, n1 = (N + 15) / 16;
  std::vector<int8_t> out(k1 * n1 * 512, 0);
  for (uint32_t k = 0; k < K; ++k)
    for (uint32_t n = 0; n < N; ++n) out[zn_offset_i8(k, n, N)] = b[uint64_t{k} * N + n];
  return out;
}

std::vector<int8_t> pack_nz_l1_i8(const int8_t* a, uint32_t M, uint32_t K) {
  const uint64_t m16 = (M + 15) / 16 * 16, k1 = (K + 31) / 32;
  std::vector<int8_t> out(k1 * m16 * 32, 0);
  for (uint32_t m = 0; m < M; ++m)
    for (uint32_t k = 0; k < K; ++k) out[nz_l1_offset_i8(m, k, M)] = a[uint64_t{m} * K + k];
  return out;
}

}  // namespace aicore::sem
