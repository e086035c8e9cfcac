#include "aicore/gen/random.hpp"

#include <stdexcept>
#include <string>

namespace aicore::gen {

int8_t Rng::nonzero_i8() {
  // 255 non-zero values: map a draw onto -128..-1, 1..127.
  const int v = static_cast<int>(next() % 255) - 128;
  return static_cast<int8_t>(v >= 0 ? v + 1 : v);
}

std::vector<int8_t> random_i8(Rng& rng, uint64_t count, double density) {
  std::vector<int8_t> v(count, 0);
  for (auto& x : v) x = density >= 1.0 ? rng.any_i8() : (rng.chance(density) ? rng.nonzero_i8() : 0);
  return v;
}

std::vector<int8_t> random_sparse_b(Rng& rng, uint32_t K, uint32_t N, double density, double lossy) {
  if (K % 4 != 0)
    throw std::invalid_argument("4:2 sparse B needs K a multiple of 4 (got " + std::to_string(K) + ")");
  static const uint8_t kPairs[6] = {0b0011, 0b0101, 0b1001, 0b0110, 0b1010, 0b1100};
  static const uint8_t kLossy[5] = {0b0111, 0b1011, 0b1101, 0b1110, 0b1111};
  std::vector<int8_t> b(uint64_t{K} * N, 0);
  for (uint32_t g = 0; g < K / 4; ++g)
    for (uint32_t n = 0; n < N; ++n) {
      uint8_t mask;
      if (lossy > 0.0 && rng.chance(lossy)) {
        mask = kLossy[rng.below(5)];
      } else {
        mask = kPairs[rng.below(6)];
        for (int i = 0; i < 4; ++i)
          if ((mask >> i & 1) && !rng.chance(density)) mask = static_cast<uint8_t>(mask & ~(1u << i));
      }
      for (uint32_t i = 0; i < 4; ++i)
        if (mask >> i & 1) b[(uint64_t{g} * 4 + i) * N + n] = rng.nonzero_i8();
    }
  return b;
}

}  // namespace aicore::gen
