// The independent golden model and the random data it is fed.
#include <catch2/catch.hpp>

#include <set>

#include "aicore/gen/random.hpp"
#include "aicore/gen/reference.hpp"
#include "aicore/semantics/sparsity.hpp"

using namespace aicore;

TEST_CASE("random 4:2 B covers every row of the docs/semantics.md 4:2 table", "[gen][data]") {
  gen::Rng rng(3);
  const uint32_t K = 64, N = 16;  // 256 groups, as the seed case
  const auto b = gen::random_sparse_b(rng, K, N, 0.75);
  std::set<int> masks;
  for (uint32_t g = 0; g < K / 4; ++g)
    for (uint32_t n = 0; n < N; ++n) {
      int mask = 0;
      for (int i = 0; i < 4; ++i) mask |= (b[(g * 4 + i) * N + n] != 0) << i;
      masks.insert(mask);
    }
  // 6 two-value rows, 4 one-value rows (0b1000 = the lone value in slot 3), the all-zero row.
  CHECK(masks ==
        std::set<int>{0b0011, 0b0101, 0b1001, 0b0110, 0b1010, 0b1100, 0b0001, 0b0010, 0b0100, 0b1000, 0});
}

TEST_CASE("random data uses the full int8 range and is reproducible", "[gen][data]") {
  gen::Rng r1(9), r2(9);
  const auto a = gen::random_i8(r1, 1 << 16);
  CHECK(a == gen::random_i8(r2, 1 << 16));
  CHECK(std::count(a.begin(), a.end(), int8_t{-128}) > 0);
  CHECK(std::count(a.begin(), a.end(), int8_t{127}) > 0);
  gen::Rng r3(9);
  const auto nz = gen::random_i8(r3, 4096, 0.5);
  const auto zeros = std::count(nz.begin(), nz.end(), int8_t{0});
  CHECK((zeros > 1700 && zeros < 2400));
}

TEST_CASE("keep_first_two keeps the two lowest-k non-zeros of each group", "[gen][ref]") {
  // One column (N = 1), groups: (1 2 3 4), (0 0 0 5), (0 6 0 7), (8 0 9 0)
  const int8_t b[] = {1, 2, 3, 4, 0, 0, 0, 5, 0, 6, 0, 7, 8, 0, 9, 0};
  const auto k = gen::keep_first_two(b, 16, 1);
  CHECK(k == std::vector<int8_t>{1, 2, 0, 0, 0, 0, 0, 5, 0, 6, 0, 7, 8, 0, 9, 0});
  const auto loss = gen::sparsity_loss(b, 16, 1);
  CHECK(loss.groups == 4);
  CHECK(loss.lossy_groups == 1);
  CHECK(loss.dropped_values == 2);
  REQUIRE(loss.examples.size() == 1);
  CHECK(loss.examples[0] == "column n=0, k=0..3: values 1 2 3 4 -> 2 dropped");
}

TEST_CASE("keep_first_two agrees with the semantics densifier on lossy data", "[gen][ref]") {
  gen::Rng rng(5);
  const uint32_t K = 128, N = 40;
  const auto b = gen::random_sparse_b(rng, K, N, 0.8, 0.3);
  const auto d = sem::densify_4to2(b.data(), K, N);
  CHECK(gen::keep_first_two(b.data(), K, N) == d.kept);
  const auto loss = gen::sparsity_loss(b.data(), K, N);
  CHECK(loss.lossy_groups == d.lossy_groups);
  CHECK(loss.dropped_values == d.dropped_values);
  CHECK(loss.lossy_groups > 0);
}

TEST_CASE("reference_gemm is a plain product with padded rows", "[gen][ref]") {
  const int8_t a[] = {1, 2, 3, -128, 127, 0};  // 2 x 3
  const int8_t b[] = {1, -1, 2, -2, 3, 100};   // 3 x 2
  const auto c = gen::reference_gemm(a, b, 2, 3, 2, 16);
  REQUIRE(c.size() == 32);
  CHECK(c[0] == 1 + 4 + 9);
  CHECK(c[1] == -1 - 4 + 300);
  CHECK(c[16] == -128 + 254);
  CHECK(c[17] == 128 - 254);
  CHECK(c[2] == 0);
  CHECK(c[31] == 0);
}
