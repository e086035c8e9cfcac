// 4:2 sparsity: densify table, index packing, LoadDataWithSparse, MmadWithSparse against a
// naive dense multiply on the original (kept-entries) B.
#include <catch2/catch.hpp>
#include <cstring>

#include "aicore/common/error.hpp"
#include "aicore/semantics/execute.hpp"
#include "aicore/semantics/sparsity.hpp"
#include "reference.hpp"

using namespace aicore;
using isa::Space;

namespace {

struct TableRow {
  int8_t e[4];
  uint8_t i0, i1;
  int8_t v0, v1;
};
// docs/semantics.md §5, with X = 5, Y = -7 and "-" filled with extra non-zeros (dropped).
const TableRow kTable[] = {
    {{0, 0, 5, -7}, 2, 2, 5, -7}, {{0, 5, 0, -7}, 1, 2, 5, -7}, {{5, 0, 0, -7}, 0, 2, 5, -7},
    {{0, 5, -7, 9}, 1, 1, 5, -7}, {{5, 0, -7, 9}, 0, 1, 5, -7}, {{5, -7, 9, 3}, 0, 0, 5, -7},
    {{5, -7, 0, 0}, 0, 0, 5, -7}, {{0, 0, 0, 5}, 0, 2, 0, 5},   {{0, 0, 5, 0}, 2, 0, 5, 0},
    {{0, 5, 0, 0}, 1, 0, 5, 0},   {{5, 0, 0, 0}, 0, 0, 5, 0},   {{0, 0, 0, 0}, 0, 0, 0, 0},
};

isa::MmadWithSparse sparse_op(uint16_t m, uint16_t n, uint16_t k, bool init = true) {
  isa::MmadWithSparse op;
  op.dst = {Space::L0C, 0, 0};
  op.fm = {Space::L0A, 0, 0};
  op.filter = {Space::L0B, 0, 0};
  op.m = m;
  op.n = n;
  op.k = k;
  op.cmatrixInitVal = init;
  return op;
}

// Load B' and its indexes through L1 with LoadDataWithSparse (<= 255 fractals per instruction).
void load_sparse_b(ref::Core& core, const sem::DensifiedB& d, uint64_t l0b_base = 0) {
  const uint64_t idx_l1 = 256 * 1024;
  std::memcpy(core.l1.data(), d.dense_zn.data(), d.dense_zn.size());
  std::memcpy(core.l1.data() + idx_l1, d.index.data(), d.index.size());
  const uint64_t fractals = d.dense_zn.size() / 512;
  for (uint64_t f = 0; f < fractals; f += 255) {
    isa::LoadDataWithSparse ld;
    ld.dst = {Space::L0B, 0, l0b_base + f * 512};
    ld.src = {Space::L1, 0, 0};
    ld.idx = {Space::L1, 0, idx_l1};
    ld.startIndex = static_cast<uint16_t>(f);
    ld.repeatTimes = static_cast<uint8_t>(fractals - f < 255 ? fractals - f : 255);
    sem::load_data_with_sparse(ld, core.view());
  }
}

void check_sparse_case(uint32_t M, uint32_t K, uint32_t N, uint32_t seed) {
  std::mt19937 rng(seed);
  const ref::Mat8 a = ref::random_i8(size_t{M} * K, rng);
  const ref::Mat8 b = ref::random_sparse(K, N, rng);
  const ref::Mat32 want = ref::matmul(a, ref::kept_entries(b, K, N), M, K, N);

  ref::for_each_kernel([&](const char* kernel) {
    ref::Core core;
    const auto a_img = ref::zz(a, M, K);
    std::memcpy(core.l0a.data(), a_img.data(), a_img.size());
    load_sparse_b(core, sem::densify_4to2(b.data(), K, N));
    sem::mmad_with_sparse(sparse_op(M, N, K), core.view());
    for (uint32_t m = 0; m < M; ++m)
      for (uint32_t n = 0; n < N; ++n) {
        INFO(kernel << " kernel, M=" << M << " K=" << K << " N=" << N << " m=" << m << " n=" << n);
        REQUIRE(ref::nz_at(core.l0c, 0, M, m, n) == want[size_t{m} * N + n]);
      }
  });
}

}  // namespace

TEST_CASE("densify_group follows every row of the docs/semantics.md 4:2 table", "[sparse][densify]") {
  for (const auto& row : kTable) {
    INFO("group " << int(row.e[0]) << " " << int(row.e[1]) << " " << int(row.e[2]) << " " << int(row.e[3]));
    const sem::SparseGroup g = sem::densify_group(row.e);
    CHECK(int(g.index0) == row.i0);
    CHECK(int(g.index1) == row.i1);
    CHECK(int(g.v0) == row.v0);
    CHECK(int(g.v1) == row.v1);
  }
}

TEST_CASE("the selection picks the A element each dense value was taken from", "[sparse][densify]") {
  for (const auto& row : kTable) {
    const sem::SparseGroup g = sem::densify_group(row.e);
    if (g.v0 != 0) CHECK(row.e[sem::sparse_sel0(g.index0)] == g.v0);
    if (g.v1 != 0) CHECK(row.e[sem::sparse_sel1(g.index0, g.index1)] == g.v1);
  }
}

TEST_CASE("index packing puts the first index in bits [1:0]: 1 2 0 1 -> 0x49", "[sparse][index]") {
  CHECK(sem::pack_indexes(1, 2, 0, 1) == 0x49);
  CHECK(sem::pack_indexes(3, 0, 0, 0) == 0x03);
  CHECK(sem::pack_indexes(0, 0, 0, 2) == 0x80);
}

TEST_CASE("densify_4to2 reports groups that lose data", "[sparse][densify]") {
  // One column, 3 groups: 4 non-zeros, 3 non-zeros, 2 non-zeros.
  const int8_t b[12] = {1, 2, 3, 4, 1, 0, 2, 3, 0, 0, 1, 1};
  const sem::DensifiedB d = sem::densify_4to2(b, 12, 1);
  CHECK(d.groups == 3);
  CHECK(d.lossy_groups == 2);
  CHECK(d.dropped_values == 3);
  // Dense pairs sit in Zn: n-row 0, k' = 0..5 in the first fractal.
  CHECK(d.dense_zn[0] == 1);
  CHECK(d.dense_zn[1] == 2);
  CHECK(d.dense_zn[2] == 1);
  CHECK(d.dense_zn[3] == 2);
  CHECK(d.dense_zn[4] == 1);
  CHECK(d.dense_zn[5] == 1);
  // Indexes: (0,0) (0,1) (2,2) -> byte0 = 0 | 0<<2 | 0<<4 | 1<<6, byte1 = 2 | 2<<2.
  CHECK(int(d.index[0]) == 0x40);
  CHECK(int(d.index[1]) == 0x0a);
  CHECK_THROWS_AS(sem::densify_4to2(b, 6, 2), std::invalid_argument);
}

TEST_CASE("MmadWithSparse matches a naive multiply: seed shape 16x64x16", "[sparse][mmad]") {
  check_sparse_case(16, 64, 16, 1);
}
TEST_CASE("MmadWithSparse matches: official sample shape 128x64x128", "[sparse][mmad]") {
  check_sparse_case(128, 64, 128, 2);
}
TEST_CASE("MmadWithSparse matches: partial fractals (M, N not multiples of 16, K not of 64)",
          "[sparse][mmad]") {
  check_sparse_case(20, 68, 30, 3);
  check_sparse_case(1, 4, 1, 4);
  check_sparse_case(33, 100, 17, 5);
}
TEST_CASE("MmadWithSparse matches with L0A, L0B and L0C full", "[sparse][mmad][max]") {
  // A 128 x 512 = 64 KiB, B' 256 x 256 = 64 KiB, C 128 x 256 int32 = 128 KiB.
  check_sparse_case(128, 512, 256, 6);
}

TEST_CASE("MmadWithSparse: K split into two accumulating instructions", "[sparse][mmad][accumulate]") {
  const uint32_t M = 32, K = 128, N = 48, KH = 64;
  std::mt19937 rng(7);
  const ref::Mat8 a = ref::random_i8(size_t{M} * K, rng);
  const ref::Mat8 b = ref::random_sparse(K, N, rng);
  const ref::Mat32 want = ref::matmul(a, ref::kept_entries(b, K, N), M, K, N);

  ref::for_each_kernel([&](const char* kernel) {
    INFO(kernel << " kernel");
    ref::Core core;
    // First half of K, then second half accumulated on top (cmatrixInitVal = 0).
    for (uint32_t half = 0; half < 2; ++half) {
      ref::Mat8 ah(size_t{M} * KH), bh(size_t{KH} * N);
      for (uint32_t m = 0; m < M; ++m)
        for (uint32_t k = 0; k < KH; ++k) ah[size_t{m} * KH + k] = a[size_t{m} * K + half * KH + k];
      for (uint32_t k = 0; k < KH; ++k)
        for (uint32_t n = 0; n < N; ++n) bh[size_t{k} * N + n] = b[(size_t{half} * KH + k) * N + n];
      const auto a_img = ref::zz(ah, M, KH);
      std::memcpy(core.l0a.data(), a_img.data(), a_img.size());
      load_sparse_b(core, sem::densify_4to2(bh.data(), KH, N));
      sem::mmad_with_sparse(sparse_op(M, N, KH, half == 0), core.view());
    }
    for (uint32_t m = 0; m < M; ++m)
      for (uint32_t n = 0; n < N; ++n) REQUIRE(ref::nz_at(core.l0c, 0, M, m, n) == want[size_t{m} * N + n]);
  });
}

TEST_CASE("LoadDataWithSparse: startIndex, index buffer at dst/4, repeatTimes 0", "[sparse][load]") {
  ref::Core core;
  for (size_t i = 0; i < 4 * 512; ++i) core.l1[i] = static_cast<uint8_t>(i * 7 + 1);
  for (size_t i = 0; i < 4 * 128; ++i) core.l1[0x8000 + i] = static_cast<uint8_t>(i * 3 + 2);
  isa::LoadDataWithSparse ld;
  ld.dst = {Space::L0B, 0, 1024};
  ld.src = {Space::L1, 0, 0};
  ld.idx = {Space::L1, 0, 0x8000};
  ld.startIndex = 1;
  ld.repeatTimes = 2;
  sem::load_data_with_sparse(ld, core.view());
  for (size_t i = 0; i < 2 * 512; ++i) REQUIRE(core.l0b[1024 + i] == core.l1[512 + i]);
  for (size_t i = 0; i < 2 * 128; ++i) REQUIRE(core.idx[256 + i] == core.l1[0x8000 + 128 + i]);
  CHECK(core.l0b[0] == 0);
  CHECK(core.idx[0] == 0);

  ref::Core untouched;
  ld.repeatTimes = 0;
  sem::load_data_with_sparse(ld, untouched.view());
  CHECK(untouched.l0b[1024] == 0);
}

TEST_CASE("MmadWithSparse rejects an index value of 3, names the position, leaves L0C alone",
          "[sparse][error]") {
  ref::for_each_kernel([](const char* kernel) {
    INFO(kernel << " kernel");
    ref::Core core;
    core.idx[8 * 5 + 1] = 0x0c;  // n-row 5, byte 1 (groups 2 and 3): index1 of group 2 = 3
    core.l0c[100] = 0x77;
    try {
      sem::mmad_with_sparse(sparse_op(16, 16, 64), core.view());
      FAIL("no fault");
    } catch (const Fault& f) {
      CHECK(f.kind() == FaultKind::InvalidSparseIndex);
      CHECK_THAT(f.what(), Catch::Contains("n=5") && Catch::Contains("group 2"));
    }
    CHECK(core.l0c[100] == 0x77);
  });
}

TEST_CASE("MmadWithSparse: two dense values selecting one A element are summed", "[sparse][mmad]") {
  // index0 = 2, index1 = 0 -> sel0 = 2, sel1 = max(2, 1) = 2 (the docs' "X/X" rows).
  ref::for_each_kernel([](const char* kernel) {
    INFO(kernel << " kernel");
    ref::Core core;
    for (int r = 0; r < 16; ++r)
      for (int k = 0; k < 64; ++k)
        core.l0a[r * 32 + (k / 32) * 512 + k % 32] = static_cast<uint8_t>(k == 2 ? 3 : 1);
    for (int n = 0; n < 16; ++n) {
      core.l0b[n * 32 + 0] = static_cast<uint8_t>(100);  // group 0 of column n: values 100 and 120
      core.l0b[n * 32 + 1] = static_cast<uint8_t>(120);
      core.idx[n * 8] = 0x02;  // index0 = 2, index1 = 0; other groups: values 0
    }
    sem::mmad_with_sparse(sparse_op(16, 16, 64), core.view());
    for (int n = 0; n < 16; ++n) REQUIRE(ref::nz_at(core.l0c, 0, 16, 0, n) == 3 * 100 + 3 * 120);
  });
}

TEST_CASE("MmadWithSparse field rules", "[sparse][error]") {
  ref::Core core;
  auto expect_fault = [&](const isa::MmadWithSparse& op, FaultKind kind, const char* text) {
    try {
      sem::mmad_with_sparse(op, core.view());
      FAIL("no fault");
    } catch (const Fault& f) {
      CHECK(f.kind() == kind);
      CHECK_THAT(f.what(), Catch::Contains(text));
    }
  };
  expect_fault(sparse_op(16, 16, 66), FaultKind::InvalidField, "multiple of 4");
  auto op = sparse_op(16, 16, 64);
  op.dst.offset = 512;  // sparse dst must be 1024-aligned
  expect_fault(op, FaultKind::Misaligned, "1024-byte aligned");
  op = sparse_op(16, 16, 64);
  op.cmatrixSource = true, op.cmatrixInitVal = false, op.biasAddr = 96;
  expect_fault(op, FaultKind::Misaligned, "biasAddr (BT offset 96) must be 64-byte aligned");
  op = sparse_op(16, 16, 64);
  op.filter.offset = 65024;  // 2 B' fractals (k = 128) from here end past 64 KiB
  op.k = 128;
  expect_fault(op, FaultKind::OutOfBounds, "L0B");
  // m = 0 is a no-op that leaves C untouched.
  core.l0c[0] = 0x5a;
  sem::mmad_with_sparse(sparse_op(0, 16, 64), core.view());
  CHECK(core.l0c[0] == 0x5a);
}
