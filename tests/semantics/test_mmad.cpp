// Dense Mmad: int8 -> int32 bit-exact against a naive multiply; half/bf16 -> fp32 within a tolerance.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>

#include "aicore/common/error.hpp"
#include "aicore/semantics/execute.hpp"
#include "reference.hpp"

using namespace aicore;
using isa::Space;

namespace {

isa::Mmad mmad_op(uint16_t m, uint16_t n, uint16_t k, isa::DType t = isa::DType::Int8) {
  isa::Mmad op;
  op.dst = {Space::L0C, 0, 0};
  op.fm = {Space::L0A, 0, 0};
  op.filter = {Space::L0B, 0, 0};
  op.m = m;
  op.n = n;
  op.k = k;
  op.dtype = t;
  return op;
}

void load_operands(ref::Core& core, const ref::Mat8& a, const ref::Mat8& b, uint32_t M, uint32_t K,
                   uint32_t N) {
  const auto ai = ref::zz(a, M, K), bi = ref::zn(b, K, N);
  std::memcpy(core.l0a.data(), ai.data(), ai.size());
  std::memcpy(core.l0b.data(), bi.data(), bi.size());
}

void check_dense(uint32_t M, uint32_t K, uint32_t N, uint32_t seed) {
  std::mt19937 rng(seed);
  const auto a = ref::random_i8(size_t{M} * K, rng), b = ref::random_i8(size_t{K} * N, rng);
  const auto want = ref::matmul(a, b, M, K, N);
  ref::for_each_kernel([&](const char* kernel) {
    ref::Core core;
    // Non-zero padding: the bytes past M, K and N in L0A/L0B must not reach C[m < M][n < N].
    std::fill(core.l0a.begin(), core.l0a.end(), 0x5b);
    std::fill(core.l0b.begin(), core.l0b.end(), 0xa7);
    load_operands(core, a, b, M, K, N);
    sem::mmad(mmad_op(M, N, K), core.view());
    for (uint32_t m = 0; m < M; ++m)
      for (uint32_t n = 0; n < N; ++n) {
        INFO(kernel << " kernel, M=" << M << " K=" << K << " N=" << N << " m=" << m << " n=" << n);
        REQUIRE(ref::nz_at(core.l0c, 0, M, m, n) == want[size_t{m} * N + n]);
      }
  });
}

uint16_t float_to_half(float f) {  // test-side encoder for exactly representable values
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const uint32_t sign = (x >> 16) & 0x8000u;
  if ((x & 0x7fffffffu) == 0) return static_cast<uint16_t>(sign);
  const int exp = static_cast<int>((x >> 23) & 0xff) - 127 + 15;
  return static_cast<uint16_t>(sign | uint32_t(exp) << 10 | ((x >> 13) & 0x3ffu));
}

}  // namespace

TEST_CASE("Mmad int8 matches a naive multiply on whole fractals", "[mmad][int8]") {
  check_dense(16, 32, 16, 11);
  check_dense(64, 256, 48, 12);
}
TEST_CASE("Mmad int8: partial fractals in M, N and K", "[mmad][int8]") {
  check_dense(17, 33, 15, 13);
  check_dense(1, 1, 1, 14);
  check_dense(50, 100, 70, 15);
}
TEST_CASE("Mmad int8: L0A/L0B/L0C full", "[mmad][int8][max]") {
  // A 128 x 512 = 64 KiB, B 512 x 128 = 64 KiB; C 128 x 128 int32 = 64 KiB.
  check_dense(128, 512, 128, 16);
}

TEST_CASE("Mmad accumulates into L0C with cmatrixInitVal=0 or isBias=1", "[mmad][accumulate]") {
  const uint32_t M = 32, K = 64, N = 32;
  std::mt19937 rng(17);
  const auto a = ref::random_i8(size_t{M} * K, rng), b = ref::random_i8(size_t{K} * N, rng);
  const auto once = ref::matmul(a, b, M, K, N);
  ref::for_each_kernel([&](const char* kernel) {
    INFO(kernel << " kernel");
    for (int variant = 0; variant < 2; ++variant) {
      ref::Core core;
      load_operands(core, a, b, M, K, N);
      sem::mmad(mmad_op(M, N, K), core.view());
      auto acc = mmad_op(M, N, K);
      if (variant == 0)
        acc.cmatrixInitVal = false;
      else
        acc.isBias = true;
      sem::mmad(acc, core.view());
      for (uint32_t m = 0; m < M; ++m)
        for (uint32_t n = 0; n < N; ++n)
          REQUIRE(ref::nz_at(core.l0c, 0, M, m, n) == 2 * once[size_t{m} * N + n]);
    }
  });
}

TEST_CASE("Mmad half and bf16 accumulate in fp32", "[mmad][b16]") {
  const uint32_t M = 20, K = 40, N = 24;
  for (auto t : {isa::DType::Half, isa::DType::BF16}) {
    std::mt19937 rng(18);
    std::uniform_int_distribution<int> d(-64, 64);
    std::vector<float> a(size_t{M} * K), b(size_t{K} * N);
    for (auto& x : a) x = d(rng) / 16.0f;  // exactly representable in half and bf16
    for (auto& x : b) x = d(rng) / 8.0f;
    ref::Core core;
    const uint32_t k1n = (K + 15) / 16, m1n = (M + 15) / 16, n1n = (N + 15) / 16;
    auto enc = [&](float f) -> uint16_t {
      if (t == isa::DType::Half) return float_to_half(f);
      uint32_t x;
      std::memcpy(&x, &f, 4);
      return static_cast<uint16_t>(x >> 16);
    };
    // Zz for A and Zn for B with K0 = 16 two-byte elements.
    for (uint32_t m = 0; m < M; ++m)
      for (uint32_t k = 0; k < K; ++k) {
        const uint16_t h = enc(a[size_t{m} * K + k]);
        std::memcpy(core.l0a.data() + ((m / 16) * k1n + k / 16) * 512 + (m % 16) * 32 + (k % 16) * 2, &h, 2);
      }
    for (uint32_t k = 0; k < K; ++k)
      for (uint32_t n = 0; n < N; ++n) {
        const uint16_t h = enc(b[size_t{k} * N + n]);
        std::memcpy(core.l0b.data() + ((k / 16) * n1n + n / 16) * 512 + (n % 16) * 32 + (k % 16) * 2, &h, 2);
      }
    (void)m1n;
    sem::mmad(mmad_op(M, N, K, t), core.view());
    for (uint32_t m = 0; m < M; ++m)
      for (uint32_t n = 0; n < N; ++n) {
        double want = 0;
        for (uint32_t k = 0; k < K; ++k) want += double(a[size_t{m} * K + k]) * b[size_t{k} * N + n];
        float got;
        const int32_t bits = ref::nz_at(core.l0c, 0, M, m, n);
        std::memcpy(&got, &bits, 4);
        // Documented tolerance (docs/semantics.md): 1e-5 relative to sum |a*b|, plus 1e-6 absolute.
        double mag = 0;
        for (uint32_t k = 0; k < K; ++k)
          mag += std::fabs(double(a[size_t{m} * K + k]) * b[size_t{k} * N + n]);
        REQUIRE(std::fabs(got - want) <= 1e-5 * mag + 1e-6);
      }
  }
}

TEST_CASE("Mmad: zero m, n or k is a no-op, unsupported modes fault", "[mmad][error]") {
  ref::Core core;
  core.l0c[0] = 0x33;
  sem::mmad(mmad_op(16, 16, 0), core.view());
  sem::mmad(mmad_op(0, 16, 32), core.view());
  CHECK(core.l0c[0] == 0x33);
  auto op = mmad_op(16, 16, 32);
  op.cmatrixSource = true, op.cmatrixInitVal = false, op.biasAddr = 32;
  CHECK_THROWS_MATCHES(sem::mmad(op, core.view()), Fault,
                       Catch::Message("biasAddr (BT offset 32) must be 64-byte aligned"));
  op.cmatrixSource = false;
  CHECK_THROWS_MATCHES(
      sem::mmad(op, core.view()), Fault,
      Catch::Message("biasAddr 32 is read only with cmatrixSource=1 (C from the bias table)"));
  op.cmatrixSource = true, op.biasAddr = 0, op.n = 272;  // 272 cells: 1088 bytes of a 1024-byte table
  CHECK_THROWS_MATCHES(sem::mmad(op, core.view()), Fault,
                       Catch::Message("reads BT bytes [0, 1088) beyond its 1024 bytes"));
  op = mmad_op(16, 16, 32, isa::DType::Int32);
  CHECK_THROWS_WITH(sem::mmad(op, core.view()),
                    Catch::Contains("dtype must be int4, int8, half, bf16 or float"));
  op = mmad_op(16, 16, 4096);
  CHECK_THROWS_WITH(sem::mmad(op, core.view()), Catch::Contains("[0, 4095]"));
  op = mmad_op(16, 16, 32);
  op.dst.offset = 32;
  CHECK_THROWS_WITH(sem::mmad(op, core.view()), Catch::Contains("64-byte aligned"));
}

namespace {

// int4 x int4 -> int32: A and B as values -8..7 (one a Mat8 entry), packed by the test-side
// int4 packers (two a byte, even element low), checked against the naive int32 product of the
// unpacked matrices. `pad` fills L0A/L0B first so padding nibbles must not reach C.
void check_int4(uint32_t M, uint32_t K, uint32_t N, uint32_t seed, bool accumulate = false) {
  std::mt19937 rng(seed);
  const auto a = ref::random_i4(size_t{M} * K, rng), b = ref::random_i4(size_t{K} * N, rng);
  const auto want = ref::matmul(a, b, M, K, N);
  ref::for_each_kernel([&](const char* kernel) {
    ref::Core core;
    std::fill(core.l0a.begin(), core.l0a.end(), 0x9b);  // nibbles -5 and -7
    std::fill(core.l0b.begin(), core.l0b.end(), 0x7e);  // nibbles -2 and 7
    const auto ai = ref::zz4(a, M, K), bi = ref::zn4(b, K, N);
    std::memcpy(core.l0a.data(), ai.data(), ai.size());
    std::memcpy(core.l0b.data(), bi.data(), bi.size());
    sem::mmad(mmad_op(M, N, K, isa::DType::Int4), core.view());
    if (accumulate) {
      auto acc = mmad_op(M, N, K, isa::DType::Int4);
      acc.cmatrixInitVal = false;
      sem::mmad(acc, core.view());
    }
    for (uint32_t m = 0; m < M; ++m)
      for (uint32_t n = 0; n < N; ++n) {
        INFO(kernel << " kernel, int4 M=" << M << " K=" << K << " N=" << N << " m=" << m << " n=" << n);
        REQUIRE(ref::nz_at(core.l0c, 0, M, m, n) == (accumulate ? 2 : 1) * want[size_t{m} * N + n]);
      }
  });
}

}  // namespace

TEST_CASE("Mmad int4 matches a naive multiply of the unpacked matrices on whole fractals", "[mmad][int4]") {
  check_int4(16, 64, 16, 41);
  check_int4(64, 256, 48, 42);
}
TEST_CASE("Mmad int4: partial fractals in M, N and K (odd K: the last byte's low nibble only)",
          "[mmad][int4]") {
  check_int4(17, 65, 15, 43);
  check_int4(1, 1, 1, 44);
  check_int4(50, 129, 70, 45);
  check_int4(16, 63, 16, 46);
}
TEST_CASE("Mmad int4 accumulates with cmatrixInitVal=0", "[mmad][int4][accumulate]") {
  check_int4(32, 128, 32, 47, true);
  check_int4(20, 100, 24, 48, true);
}
TEST_CASE("Mmad int4: the extremes -8 and 7 (every product -56, 64 or 49) and full L0A/L0B",
          "[mmad][int4][max]") {
  // A 128 x 1024 int4 = 64 KiB, B 1024 x 128 = 64 KiB: the most K one Mmad can take in L0A/L0B.
  const uint32_t M = 128, K = 1024, N = 128;
  ref::Mat8 a(size_t{M} * K), b(size_t{K} * N);
  for (size_t i = 0; i < a.size(); ++i) a[i] = i % 3 == 0 ? 7 : -8;
  for (size_t i = 0; i < b.size(); ++i) b[i] = i % 5 == 0 ? 7 : -8;
  const auto want = ref::matmul(a, b, M, K, N);
  ref::for_each_kernel([&](const char* kernel) {
    ref::Core core;
    const auto ai = ref::zz4(a, M, K), bi = ref::zn4(b, K, N);
    REQUIRE(ai.size() == core.l0a.size());
    REQUIRE(bi.size() == core.l0b.size());
    std::memcpy(core.l0a.data(), ai.data(), ai.size());
    std::memcpy(core.l0b.data(), bi.data(), bi.size());
    sem::mmad(mmad_op(M, N, K, isa::DType::Int4), core.view());
    for (uint32_t m = 0; m < M; ++m)
      for (uint32_t n = 0; n < N; ++n) {
        INFO(kernel << " kernel, m=" << m << " n=" << n);
        REQUIRE(ref::nz_at(core.l0c, 0, M, m, n) == want[size_t{m} * N + n]);
      }
  });
}
TEST_CASE("Mmad int4: the fractal is 16 x 64, so K 1025 reads past a full L0A", "[mmad][int4][error]") {
  ref::Core core;
  CHECK_NOTHROW(sem::mmad(mmad_op(128, 16, 1024, isa::DType::Int4), core.view()));
  CHECK_THROWS_WITH(sem::mmad(mmad_op(128, 16, 1025, isa::DType::Int4), core.view()),
                    Catch::Contains("reads L0A bytes [0, 69632) beyond its 65536 bytes"));
}
