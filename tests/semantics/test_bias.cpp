// The bias table: DataCopyL1ToBT (blocks, gaps, half -> float) and Mmad with cmatrixSource=1
// (C = bias + A x B), against naive test-side loops on the original matrices.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>

#include "aicore/common/error.hpp"
#include "aicore/semantics/execute.hpp"
#include "reference.hpp"

using namespace aicore;
using isa::Space;

namespace {

// Test-side half encoder for values a half holds exactly (normal, subnormal, zero, inf).
uint16_t half_bits(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  const float a = std::fabs(f);
  if (a == 0) return sign;
  if (std::isinf(a)) return static_cast<uint16_t>(sign | 0x7c00u);
  if (a < std::ldexp(1.0f, -14))
    return static_cast<uint16_t>(sign | static_cast<uint16_t>(a * std::ldexp(1.0f, 24)));
  int e;
  const float m = std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
  const auto man = static_cast<uint16_t>((m * 2 - 1) * 1024);
  return static_cast<uint16_t>(sign | (e - 1 + 15) << 10 | man);
}

void put_u16(std::vector<uint8_t>& v, size_t at, uint16_t x) {
  v[at] = static_cast<uint8_t>(x), v[at + 1] = static_cast<uint8_t>(x >> 8);
}
template <class T>
T get(const std::vector<uint8_t>& v, size_t at) {
  T x;
  std::memcpy(&x, v.data() + at, sizeof x);
  return x;
}

isa::DataCopyL1ToBT copy_op(uint32_t dst, uint32_t src, uint16_t count, uint16_t len, bool conv = false) {
  isa::DataCopyL1ToBT o;
  o.convControl = conv;
  o.dst = {Space::BiasTable, 0, dst};
  o.src = {Space::L1, 0, src};
  o.blockCount = count;
  o.blockLen = len;
  return o;
}

}  // namespace

TEST_CASE("DataCopyL1ToBT copies 64-byte units block by block, gaps in 32 (L1) and 64 (table) bytes",
          "[bias]") {
  ref::Core core;
  for (size_t i = 0; i < 4096; ++i) core.l1[i] = static_cast<uint8_t>(i * 7 + 3);
  std::fill(core.bt.begin(), core.bt.end(), 0xEE);
  auto op = copy_op(64, 32, 3, 2);  // 3 blocks of 128 bytes
  op.srcGap = 1, op.dstGap = 1;
  sem::data_copy_l1_to_bt(op, core.view());
  for (size_t b = 0; b < 1024; ++b) {
    // Destination block i at 64 + i * (128 + 64), from L1 32 + i * (128 + 32).
    uint8_t want = 0xEE;
    for (size_t i = 0; i < 3; ++i) {
      const size_t d = 64 + i * 192;
      if (b >= d && b < d + 128) want = static_cast<uint8_t>((32 + i * 160 + (b - d)) * 7 + 3);
    }
    INFO("table byte " << b);
    REQUIRE(core.bt[b] == want);
  }
}

TEST_CASE("DataCopyL1ToBT with convControl writes each L1 half as the float it is", "[bias]") {
  ref::Core core;
  const float values[] = {0.0f,
                          -0.0f,
                          1.0f,
                          -2.5f,
                          65504.0f,
                          std::ldexp(1.0f, -14),
                          std::ldexp(3.0f, -24),
                          -std::ldexp(1.0f, -24),
                          INFINITY,
                          -INFINITY,
                          0.333251953125f,
                          1023.5f};
  const size_t n = sizeof values / sizeof values[0];
  for (size_t i = 0; i < 32; ++i) put_u16(core.l1, 256 + 2 * i, half_bits(values[i % n]));
  sem::data_copy_l1_to_bt(copy_op(0, 256, 1, 2, true),
                          core.view());  // 128 table bytes = 32 floats from 64 L1 bytes
  for (size_t i = 0; i < 32; ++i) {
    INFO("element " << i);
    const float got = get<float>(core.bt, 4 * i);
    CHECK(std::signbit(got) == std::signbit(values[i % n]));
    CHECK(got == values[i % n]);
  }
  // A half NaN stays a NaN.
  put_u16(core.l1, 0, 0x7e01);
  put_u16(core.l1, 2, 0x7e01);
  sem::data_copy_l1_to_bt(copy_op(0, 0, 1, 1, true), core.view());
  CHECK(std::isnan(get<float>(core.bt, 0)));
}

TEST_CASE("DataCopyL1ToBT faults: misaligned table address, past the table, nothing for 0 blocks",
          "[bias][error]") {
  ref::Core core;
  CHECK_THROWS_MATCHES(sem::data_copy_l1_to_bt(copy_op(32, 0, 1, 1), core.view()), Fault,
                       Catch::Message("dst (BT offset 32) must be 64-byte aligned"));
  CHECK_THROWS_MATCHES(sem::data_copy_l1_to_bt(copy_op(0, 16, 1, 1), core.view()), Fault,
                       Catch::Message("src (L1 offset 16) must be 32-byte aligned"));
  CHECK_THROWS_MATCHES(sem::data_copy_l1_to_bt(copy_op(960, 0, 1, 2), core.view()), Fault,
                       Catch::Message("writes BT bytes [960, 1088) beyond its 1024 bytes"));
  std::fill(core.bt.begin(), core.bt.end(), 0x11);
  sem::data_copy_l1_to_bt(copy_op(0, 0, 0, 4), core.view());
  sem::data_copy_l1_to_bt(copy_op(0, 0, 4, 0), core.view());
  CHECK(core.bt[0] == 0x11);
}

TEST_CASE("int8 Mmad with cmatrixSource=1 starts C from the bias: C = bias + A x B, then accumulates",
          "[bias][mmad]") {
  const uint32_t M = 20, K = 40, N = 40;  // partial fractals along every dimension
  std::mt19937 rng(77);
  const auto a = ref::random_i8(size_t{M} * K, rng), b = ref::random_i8(size_t{K} * N, rng);
  const auto a2 = ref::random_i8(size_t{M} * K, rng), b2 = ref::random_i8(size_t{K} * N, rng);
  std::vector<int32_t> bias(N);
  for (uint32_t n = 0; n < N; ++n)
    bias[n] = static_cast<int32_t>(rng() % 200001) - 100000 + (n == 3 ? 1 << 30 : 0);
  const auto p1 = ref::matmul(a, b, M, K, N), p2 = ref::matmul(a2, b2, M, K, N);
  ref::for_each_kernel([&](const char* kernel) {
    ref::Core core;
    std::fill(core.l0c.begin(), core.l0c.end(), 0x6d);  // C's old value must not matter
    std::memcpy(core.bt.data() + 128, bias.data(), N * 4);
    const auto load = [&](const ref::Mat8& x, const ref::Mat8& y) {
      const auto ai = ref::zz(x, M, K), bi = ref::zn(y, K, N);
      std::memcpy(core.l0a.data(), ai.data(), ai.size());
      std::memcpy(core.l0b.data(), bi.data(), bi.size());
    };
    isa::Mmad op;
    op.dst = {Space::L0C, 0, 0}, op.fm = {Space::L0A, 0, 0}, op.filter = {Space::L0B, 0, 0};
    op.m = M, op.n = N, op.k = K;
    op.cmatrixInitVal = false, op.cmatrixSource = true, op.biasAddr = 128;
    load(a, b);
    sem::mmad(op, core.view());
    for (uint32_t m = 0; m < M; ++m)
      for (uint32_t n = 0; n < N; ++n) {
        INFO(kernel << " m=" << m << " n=" << n);
        REQUIRE(ref::nz_at(core.l0c, 0, M, m, n) == bias[n] + p1[size_t{m} * N + n]);
      }
    // The next K step accumulates onto it (cmatrixSource=0), as a K loop after a bias does.
    op.cmatrixSource = false, op.biasAddr = 0;
    load(a2, b2);
    sem::mmad(op, core.view());
    for (uint32_t m = 0; m < M; ++m)
      for (uint32_t n = 0; n < N; ++n) {
        INFO(kernel << " accumulated m=" << m << " n=" << n);
        REQUIRE(ref::nz_at(core.l0c, 0, M, m, n) == bias[n] + p1[size_t{m} * N + n] + p2[size_t{m} * N + n]);
      }
    // cmatrixInitVal=1 wins over cmatrixSource: C = A x B, the table is not read.
    op.cmatrixInitVal = true, op.cmatrixSource = true, op.biasAddr = 128;
    load(a, b);
    sem::mmad(op, core.view());
    REQUIRE(ref::nz_at(core.l0c, 0, M, 5, 7) == p1[size_t{5} * N + 7]);
  });
}

TEST_CASE("half Mmad with a bias loaded by convControl: C = float(bias) + A x B in float", "[bias][mmad]") {
  // Small integers: every product and sum is exact in float, so the result is compared exactly.
  const uint32_t M = 16, K = 32, N = 24;
  std::mt19937 rng(5);
  std::vector<int> a(M * K), b(K * N), bias(N);
  for (auto& x : a) x = static_cast<int>(rng() % 9) - 4;
  for (auto& x : b) x = static_cast<int>(rng() % 9) - 4;
  for (auto& x : bias) x = static_cast<int>(rng() % 2001) - 1000;
  ref::Core core;
  // Bias halves in L1 at 512, copied into the table at 0 (48 bytes of halves -> 96 of floats, two
  // 64-byte units: the last 16 float cells come from the halves after them, zero here).
  for (uint32_t n = 0; n < N; ++n) put_u16(core.l1, 512 + 2 * n, half_bits(static_cast<float>(bias[n])));
  auto copy = copy_op(0, 512, 1, 2);
  copy.convControl = true;
  sem::data_copy_l1_to_bt(copy, core.view());
  // A in L0A as Zz (16 x 16 fractals of halves), B in L0B as Zn (fractal (k1, n1): row n, column k).
  for (uint32_t m = 0; m < M; ++m)
    for (uint32_t k = 0; k < K; ++k)
      put_u16(core.l0a, ((m / 16) * (K / 16) + k / 16) * 512 + (m % 16) * 32 + (k % 16) * 2,
              half_bits(static_cast<float>(a[m * K + k])));
  const uint32_t n1n = (N + 15) / 16;
  for (uint32_t k = 0; k < K; ++k)
    for (uint32_t n = 0; n < N; ++n)
      put_u16(core.l0b, ((k / 16) * n1n + n / 16) * 512 + (n % 16) * 32 + (k % 16) * 2,
              half_bits(static_cast<float>(b[k * N + n])));
  isa::Mmad op;
  op.dst = {Space::L0C, 0, 0}, op.fm = {Space::L0A, 0, 0}, op.filter = {Space::L0B, 0, 0};
  op.m = M, op.n = N, op.k = K, op.dtype = isa::DType::Half;
  op.cmatrixInitVal = false, op.cmatrixSource = true;
  sem::mmad(op, core.view());
  for (uint32_t m = 0; m < M; ++m)
    for (uint32_t n = 0; n < N; ++n) {
      int want = bias[n];
      for (uint32_t k = 0; k < K; ++k) want += a[m * K + k] * b[k * N + n];
      const float got = get<float>(core.l0c, ((n / 16) * 1 + m / 16) * 1024 + (m % 16) * 64 + (n % 16) * 4);
      INFO("m=" << m << " n=" << n);
      REQUIRE(got == static_cast<float>(want));
    }
}
