// LoadDataWithTranspose against the documented square matrices, written here as index loops on
// the logical matrices (not isa::transpose_source): b16 one 16 x 16 fractal transposed; b8 two
// 16 x 32 fractals stacked into a 32 x 32 square, transposed, split into its top and bottom 16
// rows; b32 two 16 x 8 fractals side by side as a 16 x 16 square, transposed, split into its left
// and right 8 columns. Then the int8 matmul use: B (K x N) in L1 as ND2NZ leaves it, into L0B's Zn
// layout by one instruction per K step, multiplied by the Cube, against a naive matmul.
#include <catch2/catch.hpp>
#include <cstring>
#include <random>

#include "aicore/common/error.hpp"
#include "aicore/semantics/execute.hpp"
#include "reference.hpp"

using namespace aicore;
using isa::DType;
using isa::Space;

namespace {

uint32_t element(uint32_t a, uint32_t b, uint32_t c, uint32_t es) {
  const uint32_t v = (a * 2654435761u) ^ (b * 40503u) ^ (c * 97u + 13u);
  return es == 4 ? v : v & ((1u << (8 * es)) - 1);
}
void put(std::vector<uint8_t>& mem, uint64_t at, uint32_t v, uint32_t es) {
  for (uint32_t b = 0; b < es; ++b) mem[at + b] = static_cast<uint8_t>(v >> (8 * b));
}
uint32_t get(const std::vector<uint8_t>& mem, uint64_t at, uint32_t es) {
  uint32_t v = 0;
  for (uint32_t b = 0; b < es; ++b) v |= uint32_t{mem[at + b]} << (8 * b);
  return v;
}

// Where element (r, c) of a square lives, relative to the square's first byte, as the docs lay
// the square out from its fractals; and where element (r, c) of the transposed square lands,
// relative to the repeat's first destination fractal, `frac` bytes between its two fractals.
struct Square {
  uint32_t n;   // rows = columns
  uint32_t es;  // element bytes
  uint64_t src(uint32_t r, uint32_t c) const {
    if (es == 1) return uint64_t{r / 16} * 512 + (r % 16) * 32 + c;  // stacked 16 x 32 fractals
    if (es == 2) return uint64_t{r} * 32 + c * 2;                    // one 16 x 16 fractal
    return uint64_t{c / 8} * 512 + r * 32 + (c % 8) * 4;             // 16 x 8 fractals side by side
  }
  uint64_t dst(uint32_t r, uint32_t c, uint64_t frac) const {
    if (es == 1) return (r / 16) * frac + (r % 16) * 32 + c;  // top, bottom 16 rows
    if (es == 2) return uint64_t{r} * 32 + c * 2;
    return (c / 8) * frac + r * 32 + (c % 8) * 4;  // left, right 8 columns
  }
  uint64_t bytes() const { return es == 2 ? 512 : 1024; }
};

Square square_of(DType t) {
  const uint32_t es = isa::byte_size(t);
  return Square{es == 1 ? 32u : 16u, es};
}

// Fills L1 with distinct elements, runs op, and checks every destination byte: the transposed
// squares where the repeats put them (a later repeat wins where they overlap), 0xEE elsewhere.
void run(const isa::LoadDataWithTranspose& op) {
  const Square sq = square_of(op.dtype);
  ref::Core core;
  for (uint64_t b = 0; b + 4 <= 64 * 1024; b += 4)
    put(core.l1, b, element(static_cast<uint32_t>(b), 1, 2, 4), 4);
  std::vector<uint8_t>& dst = op.dst.space == Space::L0A ? core.l0a : core.l0b;
  std::memset(dst.data(), 0xEE, dst.size());
  std::vector<uint8_t> want(dst.size(), 0xEE);
  for (uint32_t i = 0; i < op.repeatTimes; ++i) {
    const uint64_t s = op.src.offset + (uint64_t{op.startIndex} + uint64_t{i} * op.srcStride) * sq.bytes();
    const uint64_t d = op.dst.offset + uint64_t{i} * (op.dstGap + 1u) * 512;
    const uint64_t frac = (op.dstFracGap + 1u) * 512ull;
    for (uint32_t r = 0; r < sq.n; ++r)
      for (uint32_t c = 0; c < sq.n; ++c)  // transposed (r, c) = original (c, r)
        put(want, d + sq.dst(r, c, frac), get(core.l1, s + sq.src(c, r), sq.es), sq.es);
  }
  sem::load_data_with_transpose(op, core.view());
  REQUIRE(dst == want);
}

}  // namespace

TEST_CASE("LoadDataWithTranspose: each square transposed, every dtype, strides and gaps",
          "[moves][transpose]") {
  for (const DType t : {DType::Int8, DType::Half, DType::BF16, DType::Float, DType::Int32})
    for (const Space s : {Space::L0A, Space::L0B}) {
      CAPTURE(isa::to_string(t), isa::to_string(s));
      isa::LoadDataWithTranspose op;
      op.dtype = t;
      op.src = {Space::L1, 0, 2048};
      op.dst = {s, 0, 512};
      op.repeatTimes = 1;
      run(op);
      // The docs' examples: three repeats, srcStride 1, (dstGap 1, dstFracGap 0) and (0, 2).
      op.repeatTimes = 3;
      op.srcStride = 1;
      op.dstGap = 1;
      run(op);
      op.dstGap = 0;
      op.dstFracGap = 2;
      run(op);
      // startIndex in squares; srcStride 0 re-reads one square; overlapping repeats (dstGap 0,
      // dstFracGap 0: a b8/b32 repeat's second fractal is the next one's first).
      op.startIndex = 3;
      op.srcStride = 0;
      op.dstFracGap = 0;
      run(op);
      op.srcStride = 2;
      op.dstGap = 4;
      op.dstFracGap = 1;
      op.repeatTimes = 5;
      run(op);
    }
}

TEST_CASE("LoadDataWithTranspose: random fields against the square reference", "[moves][transpose]") {
  std::mt19937 rng(7);
  const DType types[] = {DType::Int8, DType::Half, DType::BF16, DType::Float, DType::Int32};
  for (int n = 0; n < 200; ++n) {
    isa::LoadDataWithTranspose op;
    op.dtype = types[rng() % 5];
    op.src = {Space::L1, 0, rng() % 16 * 32};
    op.dst = {rng() % 2 ? Space::L0A : Space::L0B, 0, rng() % 4 * 512};
    op.startIndex = static_cast<uint16_t>(rng() % 5);
    op.repeatTimes = static_cast<uint8_t>(rng() % 6);
    op.srcStride = static_cast<uint16_t>(rng() % 4);
    op.dstGap = static_cast<uint16_t>(rng() % 4);
    op.dstFracGap = static_cast<uint16_t>(rng() % 4);
    CAPTURE(n);
    run(op);
  }
}

TEST_CASE("LoadDataWithTranspose: repeatTimes 0 moves nothing, addrMode and bounds are refused",
          "[moves][transpose]") {
  ref::Core core;
  std::memset(core.l0b.data(), 0xEE, core.l0b.size());
  isa::LoadDataWithTranspose op;
  op.dtype = DType::Int8;
  op.src = {Space::L1, 0, 0};
  op.dst = {Space::L0B, 0, 0};
  sem::load_data_with_transpose(op, core.view());
  CHECK(core.l0b[0] == 0xEE);
  const auto fails = [&](isa::LoadDataWithTranspose bad, FaultKind kind, const char* text) {
    try {
      sem::load_data_with_transpose(bad, core.view());
      FAIL("no fault for " << text);
    } catch (const Fault& f) {
      CHECK(f.kind() == kind);
      CHECK_THAT(f.what(), Catch::Contains(text));
    }
  };
  op.repeatTimes = 1;
  auto b = op;
  b.addrMode = 1;
  fails(b, FaultKind::Unsupported, "addrMode 1 is not modelled");
  b = op;
  b.dst.offset = 32;
  fails(b, FaultKind::Misaligned, "512-byte aligned");
  b = op;
  b.src.offset = 16;
  fails(b, FaultKind::Misaligned, "32-byte aligned");
  b = op;
  b.dst.offset = 64 * 1024 - 512;  // the second fractal ends past L0B's 64 KiB
  fails(b, FaultKind::OutOfBounds, "writes L0B bytes [65024, 66048) beyond");
  b.dst.offset = 64 * 1024 - 1024;
  b.dstFracGap = 1;
  fails(b, FaultKind::OutOfBounds, "writes L0B bytes [64512, 66048) beyond its 65536 bytes");
  b = op;
  b.dst.space = Space::L0C;
  fails(b, FaultKind::InvalidField, "dst must be in L0A or L0B, not L0C");
}

TEST_CASE("LoadDataWithTranspose: an int8 B from its ND2NZ layout into Zn, multiplied by the Cube",
          "[moves][transpose][mmad]") {
  std::mt19937 rng(11);
  const uint32_t M = 16, K = 64, N = 96;  // two K steps of 32, three 32-column blocks of B
  const ref::Mat8 a = ref::random_i8(M * K, rng), bm = ref::random_i8(K * N, rng);
  ref::Core core;
  // B (K x N) as ND2NZ leaves it in L1: 32-column blocks, each K rows of 32 bytes.
  for (uint32_t k = 0; k < K; ++k)
    for (uint32_t n = 0; n < N; ++n)
      core.l1[((n / 32) * K + k) * 32 + n % 32] = static_cast<uint8_t>(bm[k * N + n]);
  const std::vector<uint8_t> za = ref::zz(a, M, K);
  std::memcpy(core.l0a.data(), za.data(), za.size());
  // One instruction per K step k1: the squares (k1, column block j) for every j, each into Zn
  // fractals (k1, 2j) and (k1, 2j + 1).
  const uint32_t n1 = N / 16;
  for (uint32_t k1 = 0; k1 < K / 32; ++k1) {
    isa::LoadDataWithTranspose op;
    op.dtype = DType::Int8;
    op.src = {Space::L1, 0, 0};
    op.dst = {Space::L0B, 0, uint64_t{k1} * n1 * 512};
    op.startIndex = static_cast<uint16_t>(k1);
    op.repeatTimes = static_cast<uint8_t>(N / 32);
    op.srcStride = static_cast<uint16_t>(K / 32);
    op.dstGap = 1;
    sem::load_data_with_transpose(op, core.view());
  }
  const std::vector<uint8_t> zb = ref::zn(bm, K, N);
  REQUIRE(std::equal(zb.begin(), zb.end(), core.l0b.begin()));
  isa::Mmad mm;
  mm.dtype = DType::Int8;
  mm.dst = {Space::L0C, 0, 0};
  mm.fm = {Space::L0A, 0, 0};
  mm.filter = {Space::L0B, 0, 0};
  mm.m = M, mm.n = N, mm.k = K;
  sem::mmad(mm, core.view());
  const ref::Mat32 c = ref::matmul(a, bm, M, K, N);
  for (uint32_t m = 0; m < M; ++m)
    for (uint32_t n = 0; n < N; ++n) REQUIRE(ref::nz_at(core.l0c, 0, M, m, n) == c[m * N + n]);
}
