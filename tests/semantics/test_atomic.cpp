// GM atomic adds (SetAtomicAdd, docs/semantics.md §9): the per-element adds against references
// written here (a correctly rounded sum from exact wider arithmetic, the nearest-value search of
// convert_reference.cpp), and a Fixpipe under the atomic mode against a plain loop.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "aicore/semantics/atomic.hpp"
#include "aicore/semantics/execute.hpp"
#include "convert_reference.hpp"
#include "reference.hpp"

using namespace aicore;

namespace {
uint32_t bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
float value(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}
// A half's value, from the format (1-5-10).
double half(uint16_t h) {
  const int e = (h >> 10) & 31, m = h & 1023;
  const double v = e == 0 ? std::ldexp(m, -24) : std::ldexp(m + 1024, e - 25);
  return (h & 0x8000) ? -v : v;
}
}  // namespace

TEST_CASE("atomic add fp32: one IEEE add, to nearest even", "[atomic]") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> mant(1.0, 2.0);
  std::uniform_int_distribution<int> ex(-20, 20);
  for (int i = 0; i < 20000; ++i) {
    const float a = static_cast<float>(std::ldexp(mant(rng), ex(rng)) * (rng() % 2 ? -1 : 1));
    const float b = static_cast<float>(std::ldexp(mant(rng), ex(rng)) * (rng() % 2 ? -1 : 1));
    // Exponents 40 apart at most: the double sum is exact, its rounding to float is the one rounding.
    const float want = static_cast<float>(static_cast<double>(a) + static_cast<double>(b));
    REQUIRE(sem::f32_add(bits(a), bits(b)) == bits(want));
  }
  CHECK(sem::f32_add(bits(16777216.0f), bits(1.0f)) == bits(16777216.0f));  // tie: even
  CHECK(sem::f32_add(bits(16777216.0f), bits(3.0f)) == bits(16777220.0f));  // tie: even
  CHECK(sem::f32_add(bits(3.4028235e38f), bits(3.4028235e38f)) == bits(INFINITY));
  CHECK(sem::f32_add(bits(1e-45f), bits(1e-45f)) == bits(2.8e-45f));  // subnormals are kept
  CHECK(sem::f32_add(bits(-0.0f), bits(-0.0f)) == bits(-0.0f));
  CHECK(sem::f32_add(bits(1.0f), bits(-1.0f)) == bits(0.0f));
  CHECK(sem::f32_add(bits(INFINITY), bits(-INFINITY)) == 0x7FC00000u);
  CHECK(sem::f32_add(bits(std::numeric_limits<float>::quiet_NaN()), bits(1.0f)) == 0x7FC00000u);
}

TEST_CASE("atomic add fp16: the exact sum rounded once to half", "[atomic]") {
  std::mt19937 rng(8);
  for (int i = 0; i < 20000; ++i) {
    // Finite halves of exponents -5..5 (the float sum is exact; no overflow).
    const auto pick = [&] {
      return static_cast<uint16_t>((rng() % 2) << 15 | (10 + rng() % 11) << 10 | (rng() % 1024));
    };
    const uint16_t a = pick(), b = pick();
    const float sum = static_cast<float>(half(a) + half(b));
    REQUIRE(static_cast<double>(sum) == half(a) + half(b));
    if (sum == 0.0f) continue;  // the sign of zero: below
    REQUIRE(sem::f16_add(a, b) == ref::to_half(bits(sum)));
  }
  CHECK(sem::f16_add(0x6800, 0x3C00) == 0x6800);  // 2048 + 1: tie, even (2048)
  CHECK(sem::f16_add(0x6800, 0x4200) == 0x6802);  // 2048 + 3 = 2051: tie, even (2052)
  CHECK(sem::f16_add(0x7BFF, 0x5000) == 0x7C00);  // 65504 + 32 overflows: infinity
  CHECK(sem::f16_add(0x7BFF, 0x4C00) == 0x7C00);  // 65504 + 16 = 65520: tie, even is 65536: infinity
  CHECK(sem::f16_add(0x7BFF, 0x4800) == 0x7BFF);  // 65504 + 8: nearer 65504
  CHECK(sem::f16_add(0x0001, 0x0001) == 0x0002);  // subnormals
  CHECK(sem::f16_add(0x03FF, 0x0001) == 0x0400);  // into the normals
  CHECK(sem::f16_add(0x8000, 0x8000) == 0x8000);
  CHECK(sem::f16_add(0x3C00, 0xBC00) == 0x0000);
  CHECK(sem::f16_add(0x7C00, 0xFC00) == 0x7E00);
  CHECK(sem::f16_add(0x7E01, 0x3C00) == 0x7E00);
}

TEST_CASE("atomic add int32 wraps", "[atomic]") {
  int32_t d[3] = {std::numeric_limits<int32_t>::max(), -5, 7};
  const int32_t s[3] = {1, 5, -10};
  sem::atomic_add(isa::DType::Int32, reinterpret_cast<uint8_t*>(d), reinterpret_cast<const uint8_t*>(s), 3);
  CHECK(d[0] == std::numeric_limits<int32_t>::min());
  CHECK(d[1] == 0);
  CHECK(d[2] == -3);
}

TEST_CASE("Fixpipe under the atomic mode adds each element it writes, tails and F322F16 included",
          "[atomic][fixpipe]") {
  for (const bool half_out : {false, true}) {
    CAPTURE(half_out);
    ref::Core core;
    const uint32_t M = 5, N = 21, M16 = 16, stride = 24;
    for (size_t i = 0; i < core.l0c.size() / 4; ++i) {
      const float v = static_cast<float>(static_cast<int>(i % 97) - 48) * 0.37f;
      std::memcpy(core.l0c.data() + i * 4, &v, 4);
    }
    const size_t es = half_out ? 2 : 4;
    core.gm.emplace_back(size_t{M} * stride * es);
    std::vector<uint8_t>& gm = core.gm[0];
    for (size_t i = 0; i < gm.size(); ++i) gm[i] = static_cast<uint8_t>(i * 7 + 3);
    if (half_out)  // halves of exponent -3..-2: the float sum with the added value is exact
      for (size_t i = 1; i < gm.size(); i += 2) gm[i] = static_cast<uint8_t>(0x30 + i % 8);
    const std::vector<uint8_t> before = gm;
    isa::Fixpipe op;
    op.dst = {isa::Space::GM, 0, 0};
    op.src = {isa::Space::L0C, 0, 0};
    op.dtype = isa::DType::Float;
    op.quantPre = half_out ? isa::QuantMode::F322F16 : isa::QuantMode::NoQuant;
    op.nSize = N;
    op.mSize = M;
    op.srcStride = M16;
    op.dstStride = stride;
    sem::fixpipe_atomic_add(op, core.view());
    for (uint32_t j = 0; j < M; ++j)
      for (uint32_t n = 0; n < stride; ++n) {
        const size_t at = (size_t{j} * stride + n) * es;
        if (n >= N) {
          REQUIRE(std::memcmp(gm.data() + at, before.data() + at, es) == 0);
          continue;
        }
        uint32_t cell;
        std::memcpy(&cell, core.l0c.data() + ((n / 16) * M16 + j) * 64 + (n % 16) * 4, 4);
        if (half_out) {
          uint16_t old, got;
          std::memcpy(&old, before.data() + at, 2);
          std::memcpy(&got, gm.data() + at, 2);
          const uint16_t add = ref::to_half(cell);
          const float sum = static_cast<float>(half(old) + half(add));  // exact: small exponents
          REQUIRE(got == ref::to_half(bits(sum)));
        } else {
          uint32_t old, got;
          std::memcpy(&old, before.data() + at, 4);
          std::memcpy(&got, gm.data() + at, 4);
          if (std::isnan(value(old) + value(cell))) continue;  // the pattern's NaNs: covered above
          REQUIRE(got == bits(value(old) + value(cell)));
        }
      }
  }
}
