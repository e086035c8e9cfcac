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
  // The b8 form with every count halved (bytes: Ascend C's int4b_t copy) moves the same bytes;
  // its odd counts are fine.
  const std::vector<uint8_t> int4_l1(core.l1.begin(), core.l1.begin() + 2048);
  std::fill(core.l1.begin(), core.l1.end(), 0xee);
  op.dtype = isa::DType::Int8;
  op.dValue = K / 2;
  op.srcDValue = ld / 2;
  op.srcNdMatrixStride = M * ld / 2;
  op.dstNzMatrixStride = 1024;
  CHECK_NOTHROW(sem::data_copy_nd2nz(op, core.view()));
  CHECK(std::equal(int4_l1.begin(), int4_l1.end(), core.l1.begin()));
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

TEST_CASE("int4 LoadData moves 512-byte fractals; its ifTranspose is refused", "[moves][loaddata][int4]") {
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
}

namespace {
// Nibble i of a byte array (element i of an int4 row-major run: byte i / 2, the even one low).
uint8_t nib(const std::vector<uint8_t>& v, uint64_t base, uint64_t i) {
  return (v[base + i / 2] >> (4 * (i % 2))) & 0xF;
}
}  // namespace

TEST_CASE("int4 LoadDataWithTranspose: 64 x 64 squares of four stacked 16 x 64 fractals, transposed into L0B",
          "[moves][transpose][int4]") {
  ref::Core core;
  fill_pattern(core.l1, 11);
  isa::LoadDataWithTranspose op;
  op.dtype = isa::DType::Int4;
  op.dst = {Space::L0B, 0, 1024};
  op.src = {Space::L1, 0, 2048};
  op.startIndex = 1;  // squares of 2048 bytes: the first is L1 4096
  op.repeatTimes = 2;
  op.srcStride = 2;   // squares 1 and 3
  op.dstGap = 4;      // repeat i's first fractal at 5 i
  op.dstFracGap = 0;  // its four fractals one after another
  sem::load_data_with_transpose(op, core.view());
  // Square S (64 x 64 nibbles) at L1 byte s: S[r][c] = nibble r * 64 + c (its four fractals are
  // rows 0-15, 16-31, 32-47, 48-63). The destination holds S transposed, cut into four 16 x 64
  // fractals: transposed row t = 16 f + k, column j is S[j][t].
  for (uint32_t i = 0; i < 2; ++i) {
    const uint64_t s = 2048 + (1 + 2 * uint64_t{i}) * 2048;
    for (uint32_t f = 0; f < 4; ++f) {
      const uint64_t d = 1024 + (5 * uint64_t{i} + f) * 512;
      for (uint32_t k = 0; k < 16; ++k)
        for (uint32_t j = 0; j < 64; ++j) {
          INFO("repeat " << i << " fractal " << f << " row " << k << " col " << j);
          REQUIRE(nib(core.l0b, d, k * 64 + j) == nib(core.l1, s, uint64_t{j} * 64 + 16 * f + k));
        }
    }
  }
  op.dst = {Space::L0A, 0, 0};
  CHECK_THROWS_WITH(
      sem::load_data_with_transpose(op, core.view()),
      Catch::Contains("int4 (b4) squares transpose into L0B only (the docs' b4 form), not L0A"));
}

TEST_CASE("int4 Load3Dv2 into L0A: 64-element C0 groups, padding nibbles; L0B and enTranspose refused",
          "[moves][load3d][int4]") {
  ref::Core core;
  fill_pattern(core.l1, 3);
  std::fill(core.l0a.begin(), core.l0a.end(), 0xEE);
  // A 3 x 5 map of 128 channels (C1 = 2 groups of 64), 2 x 2 filter, padLeft 1 (padValue 9),
  // stride 1: Ho = 2, Wo = 5 output positions, im2col 10 rows x (2 * 2 * 2 * 64) = 512 columns.
  isa::LoadData3DV2 op;
  op.dtype = isa::DType::Int4;
  op.dst = {Space::L0A, 0, 512};
  op.src = {Space::L1, 0, 64};
  op.l1H = 3, op.l1W = 5, op.channelSize = 128;
  op.filterH = 2, op.filterW = 2;
  op.padLeft = 1;
  op.padValue = 9;
  op.kStartPt = 64, op.kExtension = 384;  // columns 64..447: 6 groups
  op.mStartPt = 1, op.mExtension = 9;     // rows 1..9
  sem::load_data_3dv2(op, core.view());
  // The docs' im2col, element by element: row m = (oh, ow), column k = ((c1 * 2 + kh) * 2 + kw) * 64
  // + c0; map element (c, h, w) at nibble ((c / 64 * 3 + h) * 5 + w) * 64 + c % 64; destination
  // zZ: window element (i, j) at fractal (i / 16, j / 64) of 6 along j, row i % 16, nibble j % 64.
  for (uint32_t i = 0; i < 9; ++i)
    for (uint32_t j = 0; j < 384; ++j) {
      const uint32_t m = 1 + i, k = 64 + j;
      const uint32_t oh = m / 5, ow = m % 5, c0 = k % 64, g = k / 64;
      const uint32_t kw = g % 2, kh = (g / 2) % 2, c1 = g / 4;
      const int h = int(oh + kh), w = int(ow + kw) - 1;
      const uint8_t want =
          w < 0 || w >= 5 || h >= 3 ? 9 : nib(core.l1, 64, ((uint64_t{c1} * 3 + h) * 5 + w) * 64 + c0);
      INFO("row " << i << " column " << j);
      REQUIRE(nib(core.l0a, 512, ((i / 16) * 6 + j / 64) * 1024 + (i % 16) * 64 + j % 64) == want);
    }
  CHECK(core.l0a[511] == 0xEE);            // nothing before dst
  CHECK(core.l0a[512 + 6 * 512] == 0xEE);  // the 9 rows fill one row of 6 fractals: nothing after
  op.padValue = 16;                        // not a 4-bit value
  CHECK_THROWS_WITH(sem::load_data_3dv2(op, core.view()),
                    Catch::Contains("padValue 16 does not fit one int4 element (4 bits)"));
  op.padValue = 0;
  op.enTranspose = true;
  CHECK_THROWS_WITH(
      sem::load_data_3dv2(op, core.view()),
      Catch::Contains(
          "enTranspose into L0A takes half, bf16, float or int32 (b4 transposed is not modelled), not int4"));
  op.enTranspose = false;
  op.dst = {Space::L0B, 0, 0};
  CHECK_THROWS_WITH(
      sem::load_data_3dv2(op, core.view()),
      Catch::Contains(
          "LoadData3DV2 into L0B takes half, bf16, float or int32 (b4 into L0B is not modelled), not int4"));
}
