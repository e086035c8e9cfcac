// float x float Mmad against a naive reference written here: A (M x K) packed into Zz and B
// (K x N) into Zn with K0 = 8 (a 32-byte fractal row of floats) by index loops, C read back from
// its Nz fractals, each cell compared bit for bit with the documented decision (docs/semantics.md
// §6): float32 products summed in ascending k from 0, added to the old cell when accumulating.
#include <catch2/catch.hpp>
#include <cstring>
#include <random>
#include <string>

#include "aicore/common/error.hpp"
#include "aicore/semantics/execute.hpp"
#include "reference.hpp"

using namespace aicore;
using isa::DType;
using isa::Space;

namespace {

uint32_t bits_of(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

struct Case {
  uint32_t M, K, N;
  bool accumulate;
  bool kDirectionAlign = false;  // A's 16-row blocks ceil(K / 16) * 2 fractals apart in L0A
};

void run(const Case& c, std::mt19937& rng) {
  CAPTURE(c.M, c.K, c.N, c.accumulate, c.kDirectionAlign);
  std::uniform_real_distribution<float> value(-2.0f, 2.0f);
  std::vector<float> A(c.M * c.K), B(c.K * c.N), old(c.M * c.N);
  for (auto& x : A) x = value(rng);
  for (auto& x : B) x = value(rng);
  for (auto& x : old) x = value(rng);
  const uint32_t m1 = (c.M + 15) / 16, n1 = (c.N + 15) / 16, k1 = (c.K + 7) / 8;
  // With kDirectionAlign A's K is padded to 16: K1 fractals of 8 rounded up to even per row block.
  const uint32_t k1a = c.kDirectionAlign ? (c.K + 15) / 16 * 2 : k1;
  ref::Core core;
  // The padding (and every byte no element fills) is NaN: it must not reach C.
  const uint32_t nan_bits = 0x7fc00001u;
  for (size_t i = 0; i + 4 <= core.l0a.size(); i += 4) std::memcpy(&core.l0a[i], &nan_bits, 4);
  // Zz: fractal (m / 16, k / 8), row-major over k1a; inside row m % 16, element k % 8.
  for (uint32_t m = 0; m < c.M; ++m)
    for (uint32_t k = 0; k < c.K; ++k)
      std::memcpy(&core.l0a[((m / 16) * k1a + k / 8) * 512 + (m % 16) * 32 + (k % 8) * 4], &A[m * c.K + k],
                  4);
  // Zn: fractal (k / 8, n / 16), row-major over n1; inside row n % 16, element k % 8.
  for (uint32_t k = 0; k < c.K; ++k)
    for (uint32_t n = 0; n < c.N; ++n)
      std::memcpy(&core.l0b[((k / 8) * n1 + n / 16) * 512 + (n % 16) * 32 + (k % 8) * 4], &B[k * c.N + n], 4);
  // Nz: fractal (n / 16, m / 16), column-block major; inside row m % 16, cell n % 16.
  const auto cell = [&](uint32_t m, uint32_t n) {
    return ((n / 16) * m1 + m / 16) * 1024 + (m % 16) * 64 + (n % 16) * 4;
  };
  for (uint32_t m = 0; m < c.M; ++m)
    for (uint32_t n = 0; n < c.N; ++n) std::memcpy(&core.l0c[cell(m, n)], &old[m * c.N + n], 4);
  isa::Mmad op;
  op.dtype = DType::Float;
  op.dst = {Space::L0C, 0, 0};
  op.fm = {Space::L0A, 0, 0};
  op.filter = {Space::L0B, 0, 0};
  op.m = static_cast<uint16_t>(c.M), op.n = static_cast<uint16_t>(c.N), op.k = static_cast<uint16_t>(c.K);
  op.cmatrixInitVal = !c.accumulate;
  op.kDirectionAlign = c.kDirectionAlign;
  sem::mmad(op, core.view());
  for (uint32_t m = 0; m < c.M; ++m)
    for (uint32_t n = 0; n < c.N; ++n) {
      float sum = 0.0f;
      for (uint32_t k = 0; k < c.K; ++k) {
        const float p = A[m * c.K + k] * B[k * c.N + n];
        sum = sum + p;
      }
      const float want = c.accumulate ? old[m * c.N + n] + sum : sum;
      float got;
      std::memcpy(&got, &core.l0c[cell(m, n)], 4);
      CAPTURE(m, n, got, want);
      REQUIRE(bits_of(got) == bits_of(want));
    }
  (void)k1;
  (void)n1;
}

}  // namespace

TEST_CASE("Mmad float x float: float32 products summed in ascending k, bit for bit", "[mmad][float]") {
  std::mt19937 rng(3);
  for (const Case& c : {Case{16, 8, 16, false}, Case{32, 64, 48, false}, Case{16, 8, 16, true},
                        Case{20, 20, 17, false}, Case{33, 13, 40, true}, Case{1, 1, 1, false}})
    run(c, rng);
}

TEST_CASE("Mmad float x float: the Zz/Zn fractals hold 8 K elements a row (the K1 step)", "[mmad][float]") {
  // A = 1 everywhere and B[k][n] = k + 1: C[m][n] = K (K + 1) / 2, exact; a K0 of 16 would read
  // the next fractal's elements as k 8..15 and give another sum.
  const uint32_t M = 16, K = 24, N = 16;
  ref::Core core;
  for (uint32_t m = 0; m < M; ++m)
    for (uint32_t k = 0; k < K; ++k) {
      const float one = 1.0f;
      std::memcpy(&core.l0a[(k / 8) * 512 + m * 32 + (k % 8) * 4], &one, 4);
    }
  for (uint32_t k = 0; k < K; ++k)
    for (uint32_t n = 0; n < N; ++n) {
      const float v = static_cast<float>(k + 1);
      std::memcpy(&core.l0b[(k / 8) * 512 + n * 32 + (k % 8) * 4], &v, 4);
    }
  isa::Mmad op;
  op.dtype = DType::Float;
  op.dst = {Space::L0C, 0, 0};
  op.fm = {Space::L0A, 0, 0};
  op.filter = {Space::L0B, 0, 0};
  op.m = M, op.n = N, op.k = K;
  sem::mmad(op, core.view());
  float got;
  std::memcpy(&got, &core.l0c[5 * 64 + 7 * 4], 4);
  CHECK(got == 300.0f);
}

TEST_CASE("Mmad float x float with kDirectionAlign: A's row blocks are K padded to 16 apart",
          "[mmad][float]") {
  std::mt19937 rng(7);
  // K 20 and 70: 3 and 9 fractals of 8 along K, padded to 4 and 10 (Huawei's mmad sample: A
  // transposed 70 x 30 float); K 32: already even, the same layout as without the flag.
  for (const Case& c : {Case{30, 70, 40, false, true}, Case{33, 20, 17, true, true},
                        Case{16, 32, 16, false, true}, Case{48, 8, 16, false, true}})
    run(c, rng);
}

TEST_CASE("Mmad kDirectionAlign: only float is modelled; the L0A read reaches the padded length",
          "[mmad][error]") {
  isa::Mmad op;
  op.dst = {Space::L0C, 0, 0};
  op.fm = {Space::L0A, 0, 0};
  op.filter = {Space::L0B, 0, 0};
  op.m = 16, op.n = 16, op.k = 32;
  op.kDirectionAlign = true;
  op.dtype = DType::Half;
  ref::Core core;
  try {
    sem::mmad(op, core.view());
    FAIL("no fault");
  } catch (const aicore::Fault& f) {
    CHECK(std::string(f.what()).find("kDirectionAlign is modelled for float only (its documented use: A's K "
                                     "padded to 16 in L0A), not half") != std::string::npos);
  }
  // float, 4 row blocks of K 24 (3 fractals, padded to 4): the read spans 3 * 4 + 3 = 15 fractals
  // (the last block's padding is not read): 15 before the end of L0A fits, 14 runs past it.
  op.dtype = DType::Float;
  op.m = 64, op.k = 24;
  op.fm = {Space::L0A, 0, 64 * 1024 - 14 * 512};
  CHECK_THROWS_AS(sem::mmad(op, core.view()), aicore::Fault);
  op.fm = {Space::L0A, 0, 64 * 1024 - 15 * 512};
  CHECK_NOTHROW(sem::mmad(op, core.view()));
}
