// Reproducible test data for the GEMM generators. std::mt19937_64 is fully specified by the
// standard, but the std distributions are not, so values are derived from raw draws here:
// the same --seed gives the same bytes with any standard library.
#pragma once
#include <cstdint>
#include <random>
#include <vector>

namespace aicore::gen {

class Rng {
 public:
  explicit Rng(uint64_t seed) : eng_(seed) {}
  uint64_t next() { return eng_(); }
  int8_t any_i8() {
    return static_cast<int8_t>(static_cast<uint8_t>(next() >> 56));
  }  // full range, -128 included
  int8_t nonzero_i8();
  bool chance(double p) { return static_cast<double>(next() >> 11) * 0x1.0p-53 < p; }
  uint32_t below(uint32_t n) { return static_cast<uint32_t>(next() % n); }  // tiny bias is irrelevant here

 private:
  std::mt19937_64 eng_;
};

// count int8 values; each is non-zero with probability `density` (density >= 1: any value, 0 included).
std::vector<int8_t> random_i8(Rng& rng, uint64_t count, double density = 1.0);

// K x N row-major B with 4:2 structure along K. Per group of 4: two distinct positions are
// drawn uniformly (the six two-value rows of the docs/semantics.md §5 table), then each is
// occupied with probability `density`, which yields the one-value rows (slot 3 included)
// and the all-zero row. With probability `lossy` a group instead gets 3 or 4 non-zeros
// (data the densifier must drop). K must be a multiple of 4.
std::vector<int8_t> random_sparse_b(Rng& rng, uint32_t K, uint32_t N, double density, double lossy = 0.0);

}  // namespace aicore::gen
