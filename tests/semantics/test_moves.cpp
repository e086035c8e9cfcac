// Data movement: DataCopy (plain, ND2NZ), LoadData 2D, Fixpipe NZ2ND — each against the
// formulas of docs/semantics.md §3, §4 and §7 evaluated element by element here.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstring>

#include "aicore/common/error.hpp"
#include "aicore/semantics/execute.hpp"
#include "convert_reference.hpp"
#include "reference.hpp"

using namespace aicore;
using isa::Space;

namespace {
void fill_pattern(std::vector<uint8_t>& v, uint8_t salt) {
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<uint8_t>((i * 31 + salt) ^ (i >> 8));
}
}  // namespace

TEST_CASE("DataCopy moves blockCount blocks with source and destination gaps", "[moves][datacopy]") {
  ref::Core core;
  core.gm.emplace_back(4096);
  fill_pattern(core.gm[0], 1);
  isa::DataCopy op;
  op.dst = {Space::L1, 0, 64};
  op.src = {Space::GM, 0, 5};  // GM operands need no alignment
  op.blockCount = 3;
  op.blockLen = 2;
  op.srcGap = 1;
  op.dstGap = 4;
  sem::data_copy(op, core.view());
  for (int i = 0; i < 3; ++i)
    for (int b = 0; b < 64; ++b)
      REQUIRE(core.l1[64 + i * (2 + 4) * 32 + b] == core.gm[0][5 + i * (2 + 1) * 32 + b]);
  CHECK(core.l1[64 + 64] == 0);  // the gap is untouched

  op.srcGap = op.dstGap = 0;  // contiguous path
  op.dst.offset = 8192;
  sem::data_copy(op, core.view());
  CHECK(std::memcmp(core.l1.data() + 8192, core.gm[0].data() + 5, 3 * 64) == 0);
}

TEST_CASE("DataCopy faults: misaligned L1, GM tensor overrun, blockCount 0 is a no-op", "[moves][error]") {
  ref::Core core;
  core.gm.emplace_back(100);
  isa::DataCopy op;
  op.dst = {Space::L1, 0, 16};
  op.src = {Space::GM, 0, 0};
  op.blockLen = 1;
  CHECK_THROWS_WITH(sem::data_copy(op, core.view()),
                    Catch::Contains("dst (L1 offset 16) must be 32-byte aligned"));
  op.dst.offset = 0;
  op.blockLen = 4;  // 128 bytes from a 100-byte tensor
  CHECK_THROWS_WITH(sem::data_copy(op, core.view()),
                    Catch::Contains("reads GM bytes [0, 128) beyond its 100 bytes"));
  op.blockCount = 0;
  CHECK_NOTHROW(sem::data_copy(op, core.view()));
}

TEST_CASE("DataCopyNd2Nz: ND rows to 32-byte column blocks, last block zero-padded", "[moves][nd2nz]") {
  ref::Core core;
  const uint32_t M = 20, K = 40;  // 2 column blocks of 32 B, the second partial (8 B)
  core.gm.emplace_back(2 * M * K + 64);
  fill_pattern(core.gm[0], 9);
  std::fill(core.l1.begin(), core.l1.end(), 0xee);  // so padding is visible
  isa::DataCopyNd2Nz op;
  op.dst = {Space::L1, 0, 0};
  op.src = {Space::GM, 0, 0};
  op.ndNum = 2;
  op.nValue = M;
  op.dValue = K;
  op.srcDValue = K;
  op.srcNdMatrixStride = M * K;
  op.dstNzC0Stride = 32;  // ceil16(M)
  op.dstNzNStride = 1;
  op.dstNzMatrixStride = 4096;  // elements (bytes for int8)
  sem::data_copy_nd2nz(op, core.view());
  for (uint32_t d = 0; d < 2; ++d)
    for (uint32_t r = 0; r < M; ++r)
      for (uint32_t c = 0; c < 2; ++c)
        for (uint32_t e = 0; e < 32; ++e) {
          const uint8_t got = core.l1[d * 4096 + r * 32 + c * 32 * 32 + e];
          const uint32_t k = c * 32 + e;
          const uint8_t want = k < K ? core.gm[0][d * M * K + r * K + k] : 0;
          REQUIRE(got == want);
        }
}

TEST_CASE("LoadData: startIndex, srcStride 0 and > 1, dstGap, repeatTimes 0", "[moves][loaddata]") {
  ref::Core core;
  fill_pattern(core.l1, 3);
  isa::LoadData op;
  op.dst = {Space::L0A, 0, 512};
  op.src = {Space::L1, 0, 1024};
  op.startIndex = 2;
  op.repeatTimes = 3;
  op.srcStride = 3;
  op.dstGap = 1;
  sem::load_data(op, core.view());
  for (int i = 0; i < 3; ++i)
    REQUIRE(std::memcmp(core.l0a.data() + 512 + i * 2 * 512, core.l1.data() + 1024 + (2 + i * 3) * 512,
                        512) == 0);
  CHECK(core.l0a[512 + 512] == 0);  // the dstGap fractal is untouched

  op.dst = {Space::L0B, 0, 0};
  op.srcStride = 0;  // the same fractal every repeat
  op.dstGap = 0;
  sem::load_data(op, core.view());
  for (int i = 0; i < 3; ++i)
    REQUIRE(std::memcmp(core.l0b.data() + i * 512, core.l1.data() + 1024 + 2 * 512, 512) == 0);

  ref::Core untouched;
  op.repeatTimes = 0;
  sem::load_data(op, untouched.view());
  CHECK(untouched.l0b[0] == 0);
}

TEST_CASE("LoadData ifTranspose transposes b16 fractals and is illegal on int8", "[moves][loaddata]") {
  ref::Core core;
  fill_pattern(core.l1, 5);
  isa::LoadData op;
  op.dst = {Space::L0B, 0, 0};
  op.src = {Space::L1, 0, 0};
  op.repeatTimes = 2;
  op.srcStride = 1;
  op.ifTranspose = true;
  op.dtype = isa::DType::Half;
  sem::load_data(op, core.view());
  for (int f = 0; f < 2; ++f)
    for (int r = 0; r < 16; ++r)
      for (int c = 0; c < 16; ++c)
        for (int byte = 0; byte < 2; ++byte)
          REQUIRE(core.l0b[f * 512 + (r * 16 + c) * 2 + byte] == core.l1[f * 512 + (c * 16 + r) * 2 + byte]);
  op.dtype = isa::DType::Int8;
  CHECK_THROWS_WITH(sem::load_data(op, core.view()), Catch::Contains("ifTranspose is only legal for b16"));
  op.ifTranspose = false;
  op.sid = 1;
  CHECK_THROWS_WITH(sem::load_data(op, core.view()), Catch::Contains("sid must be 0"));
  op.sid = 0;
  op.dst.offset = 256;
  CHECK_THROWS_WITH(sem::load_data(op, core.view()), Catch::Contains("512-byte aligned"));
  op.dst.offset = 64 * 1024 - 512;  // 2 fractals from the last one overrun L0B
  CHECK_THROWS_WITH(sem::load_data(op, core.view()), Catch::Contains("beyond its 65536 bytes"));
}

TEST_CASE("Fixpipe NZ2ND copies 16-value rows, with reluEn and ndNum", "[moves][fixpipe]") {
  ref::Core core;
  const uint32_t M = 18, N = 32, M16 = 32;
  for (size_t i = 0; i < core.l0c.size() / 4; ++i) {
    const int32_t v = static_cast<int32_t>(i * 2654435761u);  // mixed signs
    std::memcpy(core.l0c.data() + i * 4, &v, 4);
  }
  core.gm.emplace_back(2 * 4096 * 4);
  isa::Fixpipe op;
  op.dst = {Space::GM, 0, 0};
  op.src = {Space::L0C, 0, 0};
  op.nSize = N;
  op.mSize = M;
  op.srcStride = M16;
  op.dstStride = N;
  op.ndNum = 2;
  op.srcNdStride = 8;     // fractals of 1024 B
  op.dstNdStride = 2048;  // elements
  op.reluEn = true;
  sem::fixpipe(op, core.view());
  for (uint32_t nd = 0; nd < 2; ++nd)
    for (uint32_t j = 0; j < M; ++j)
      for (uint32_t n = 0; n < N; ++n) {
        int32_t src, dst;
        std::memcpy(&src, core.l0c.data() + nd * 8 * 1024 + ((n / 16) * M16 + j) * 64 + (n % 16) * 4, 4);
        std::memcpy(&dst, core.gm[0].data() + (nd * 2048 + j * N + n) * 4, 4);
        REQUIRE(dst == (src < 0 ? 0 : src));
      }
  op.nSize = 0;
  CHECK_THROWS_WITH(sem::fixpipe(op, core.view()), Catch::Contains("nSize must be in [1, 4095] (got 0)"));
  op.nSize = 4096;
  CHECK_THROWS_WITH(sem::fixpipe(op, core.view()), Catch::Contains("nSize must be in [1, 4095] (got 4096)"));
  op.nSize = 16;
  op.srcNdStride = 0;
  CHECK_THROWS_WITH(sem::fixpipe(op, core.view()), Catch::Contains("srcNdStride must be in [1, 512]"));
}

// Row-major output takes any column count: the last, partial column block writes only its
// first nSize % 16 columns and leaves the GM bytes after them as they were.
TEST_CASE("Fixpipe NZ2ND writes a partial last column block (nSize 40, 50, 167, 1)", "[moves][fixpipe]") {
  for (const uint32_t N : {40u, 50u, 167u, 1u, 15u}) {
    for (const bool half_out : {false, true}) {
      CAPTURE(N, half_out);
      ref::Core core;
      const uint32_t M = 19, M16 = 32, stride = N + 3;  // dstStride > nSize: gaps between rows
      for (size_t i = 0; i < core.l0c.size() / 4; ++i) {
        const float v = static_cast<float>(static_cast<int32_t>(i * 2654435761u) >> 12) / 64.0f;
        std::memcpy(core.l0c.data() + i * 4, &v, 4);
      }
      const size_t es = half_out ? 2 : 4;
      core.gm.emplace_back(size_t{M} * stride * es + 64, uint8_t{0xA5});
      isa::Fixpipe op;
      op.dst = {Space::GM, 0, 0};
      op.src = {Space::L0C, 0, 0};
      op.dtype = isa::DType::Float;
      op.quantPre = half_out ? isa::QuantMode::F322F16 : isa::QuantMode::NoQuant;
      op.nSize = static_cast<uint16_t>(N);
      op.mSize = M;
      op.srcStride = M16;
      op.dstStride = stride;
      sem::fixpipe(op, core.view());
      const std::vector<uint8_t>& gm = core.gm[0];
      for (uint32_t j = 0; j < M; ++j)
        for (uint32_t n = 0; n < stride; ++n) {
          const uint8_t* out = gm.data() + (size_t{j} * stride + n) * es;
          if (n >= N) {  // between rows: untouched
            REQUIRE((out[0] == 0xA5 && out[es - 1] == 0xA5));
            continue;
          }
          uint32_t cell;
          std::memcpy(&cell, core.l0c.data() + ((n / 16) * M16 + j) * 64 + (n % 16) * 4, 4);
          if (half_out) {
            uint16_t h;
            std::memcpy(&h, out, 2);
            REQUIRE(h == ref::to_half(cell));
          } else {
            uint32_t got;
            std::memcpy(&got, out, 4);
            REQUIRE(got == cell);
          }
        }
    }
  }
}

TEST_CASE("int4 DataCopyNd2Nz: counts in elements, two a byte; odd counts are refused",
          "[moves][nd2nz][int4]") {
  ref::Core core;
  const uint32_t M = 5, K = 70, ld = 74;  // 70 int4 = 35 bytes: one whole 32-byte block and 3 bytes
  core.gm.emplace_back(2 * M * ld / 2 + 64);
  fill_pattern(core.gm[0], 4);
  std::fill(core.l1.begin(), core.l1.end(), 0xee);
  isa::DataCopyNd2Nz op;
  op.dtype = isa::DType::Int4;
  op.dst = {Space::L1, 0, 0};
  op.src = {Space::GM, 0, 0};
  op.ndNum = 2;
  op.nValue = M;
  op.dValue = K;
  op.srcDValue = ld;
  op.srcNdMatrixStride = M * ld;  // elements: M * ld / 2 bytes
  op.dstNzC0Stride = 16;
  op.dstNzNStride = 1;
  op.dstNzMatrixStride = 2048;  // elements: 1024 bytes
  sem::data_copy_nd2nz(op, core.view());
  for (uint32_t d = 0; d < 2; ++d)
    for (uint32_t r = 0; r < M; ++r)
      for (uint32_t c = 0; c < 2; ++c)
        for (uint32_t e = 0; e < 32; ++e) {
          const uint32_t byte = c * 32 + e;  // bytes of the row: elements 2 * byte, 2 * byte + 1
          const uint8_t want = byte < K / 2 ? core.gm[0][(d * M * ld + r * ld) / 2 + byte] : 0;
          REQUIRE(core.l1[d * 1024 + r * 32 + c * 16 * 32 + e] == want);
        }
  for (uint16_t isa::DataCopyNd2Nz::*field :
       {&isa::DataCopyNd2Nz::dValue, &isa::DataCopyNd2Nz::srcDValue, &isa::DataCopyNd2Nz::srcNdMatrixStride,
        &isa::DataCopyNd2Nz::dstNzMatrixStride}) {
    auto bad = op;
    bad.*field = static_cast<uint16_t>(bad.*field + 1);
    CHECK_THROWS_WITH(sem::data_copy_nd2nz(bad, core.view()), Catch::Contains("must be even for int4"));
  }
  op.dtype = isa::DType::Int8;  // the same counts as int8 bytes: odd is fine
  op.dValue = 35;
  CHECK_NOTHROW(sem::data_copy_nd2nz(op, core.view()));
}

TEST_CASE("int4 end to end: ND in GM -> Nd2Nz -> LoadData -> Mmad equals the naive product",
          "[moves][int4][mmad]") {
  // A (M x K) and B^T (N x K) row-major int4 in GM, packed two a byte; L1 NZ with 64-element
  // column blocks (the last one partial, zero-padded); L0A Zz by LoadData per 16-row block,
  // L0B Zn by one LoadData (B^T's NZ is L0B's Zn).
  const uint32_t M = 20, K = 130, N = 24, m1n = 2, n1n = 2, k1n = 3;
  std::mt19937 rng(49);
  const auto a = ref::random_i4(size_t{M} * K, rng), b = ref::random_i4(size_t{K} * N, rng);
  ref::Mat8 bt(size_t{N} * K);
  for (uint32_t k = 0; k < K; ++k)
    for (uint32_t n = 0; n < N; ++n) bt[size_t{n} * K + k] = b[size_t{k} * N + n];
  const auto want = ref::matmul(a, b, M, K, N);
  ref::Core core;
  std::fill(core.l1.begin(), core.l1.end(), 0x88);  // rows past M / N: -8s that must not reach C
  core.gm.push_back(ref::pack4(a));
  core.gm.push_back(ref::pack4(bt));
  const uint32_t b_l1 = 64 * 1024;
  for (uint32_t t = 0; t < 2; ++t) {
    isa::DataCopyNd2Nz nd;
    nd.dtype = isa::DType::Int4;
    nd.src = {Space::GM, t, 0};
    nd.dst = {Space::L1, 0, t ? b_l1 : 0};
    nd.nValue = static_cast<uint16_t>(t ? N : M);
    nd.dValue = nd.srcDValue = K;
    nd.dstNzC0Stride = static_cast<uint16_t>(16 * (t ? n1n : m1n));
    sem::data_copy_nd2nz(nd, core.view());
  }
  for (uint32_t m1 = 0; m1 < m1n; ++m1) {
    isa::LoadData ld;
    ld.dtype = isa::DType::Int4;
    ld.src = {Space::L1, 0, 0};
    ld.dst = {Space::L0A, 0, m1 * k1n * 512};
    ld.startIndex = static_cast<uint16_t>(m1);
    ld.repeatTimes = k1n;
    ld.srcStride = m1n;
    sem::load_data(ld, core.view());
  }
  isa::LoadData ldb;
  ldb.dtype = isa::DType::Int4;
  ldb.src = {Space::L1, 0, b_l1};
  ldb.dst = {Space::L0B, 0, 0};
  ldb.repeatTimes = k1n * n1n;
  ldb.srcStride = 1;
  sem::load_data(ldb, core.view());
  // The loads moved exactly the test-side packers' fractals (in K: bytes past K zero).
  const auto zz = ref::zz4(a, M, K), zn = ref::zn4(b, K, N);
  for (uint32_t m = 0; m < M; ++m)
    for (uint32_t k1 = 0; k1 < k1n; ++k1)
      REQUIRE(std::memcmp(core.l0a.data() + ((m / 16) * k1n + k1) * 512 + (m % 16) * 32,
                          zz.data() + ((m / 16) * k1n + k1) * 512 + (m % 16) * 32, 32) == 0);
  for (uint32_t k1 = 0; k1 < k1n; ++k1)
    for (uint32_t n = 0; n < N; ++n)
      REQUIRE(std::memcmp(core.l0b.data() + (k1 * n1n + n / 16) * 512 + (n % 16) * 32,
                          zn.data() + (k1 * n1n + n / 16) * 512 + (n % 16) * 32, 32) == 0);
  isa::Mmad mm;
  mm.dtype = isa::DType::Int4;
  mm.dst = {Space::L0C, 0, 0};
  mm.fm = {Space::L0A, 0, 0};
  mm.filter = {Space::L0B, 0, 0};
  mm.m = M;
  mm.n = N;
  mm.k = K;
  ref::for_each_kernel([&](const char* kernel) {
    sem::mmad(mm, core.view());
    for (uint32_t m = 0; m < M; ++m)
      for (uint32_t n = 0; n < N; ++n) {
        INFO(kernel << " kernel, m=" << m << " n=" << n);
        REQUIRE(ref::nz_at(core.l0c, 0, M, m, n) == want[size_t{m} * N + n]);
      }
  });
}

TEST_CASE("int4 LoadData moves 512-byte fractals; ifTranspose, Load3Dv2 and the transposing load refuse it",
          "[moves][loaddata][int4]") {
  ref::Core core;
  fill_pattern(core.l1, 6);
  isa::LoadData op;
  op.dtype = isa::DType::Int4;
  op.dst = {Space::L0B, 0, 0};
  op.src = {Space::L1, 0, 512};
  op.repeatTimes = 2;
  op.srcStride = 1;
  sem::load_data(op, core.view());
  CHECK(std::memcmp(core.l0b.data(), core.l1.data() + 512, 1024) == 0);
  op.ifTranspose = true;
  CHECK_THROWS_WITH(sem::load_data(op, core.view()),
                    Catch::Contains("ifTranspose is only legal for b16 data (half/bf16), not int4"));
  isa::LoadData3DV2 l3;
  l3.dtype = isa::DType::Int4;
  l3.dst = {Space::L0A, 0, 0};
  l3.src = {Space::L1, 0, 0};
  CHECK_THROWS_WITH(sem::load_data_3dv2(l3, core.view()),
                    Catch::Contains("LoadData3DV2 dtype must be int8, half, bf16, int32 or float, not int4"));
  isa::LoadDataWithTranspose lt;
  lt.dtype = isa::DType::Int4;
  lt.dst = {Space::L0A, 0, 0};
  lt.src = {Space::L1, 0, 0};
  CHECK_THROWS_WITH(
      sem::load_data_with_transpose(lt, core.view()),
      Catch::Contains("LoadDataWithTranspose dtype must be int8, half, bf16, int32 or float, not int4"));
}
