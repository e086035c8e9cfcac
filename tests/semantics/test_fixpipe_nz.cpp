// Fixpipe with an NZ output (Ascend C CFG_NZ): C (M x N, Nz in L0C) written to GM as 16-column
// blocks of M rows of 16 elements, dstStride 32-byte units between blocks (FixpipeParamsV220
// docs), checked element by element against C's logical (m, n) from a reference written here,
// with float and int32 cells, the half/bf16 conversions and the bytes between blocks untouched.
#include <catch2/catch.hpp>
#include <cstring>

#include "aicore/common/error.hpp"
#include "aicore/semantics/execute.hpp"
#include "convert_reference.hpp"
#include "reference.hpp"

using namespace aicore;
using isa::DType;
using isa::QuantMode;
using isa::Space;

namespace {

// C[m][n]'s cell in L0C (Nz with ceil16(M) rows per column block).
uint64_t cell(uint32_t m, uint32_t n, uint32_t m16) {
  return ((uint64_t{n} / 16) * m16 + m) * 64 + (n % 16) * 4;
}

}  // namespace

TEST_CASE("Fixpipe NZ output: block n / 16 at dstStride x 32 bytes, row m, column n % 16", "[fixpipe][nz]") {
  for (const QuantMode q : {QuantMode::NoQuant, QuantMode::F322F16, QuantMode::F322BF16})
    for (const uint32_t M : {16u, 20u, 1u}) {
      CAPTURE(isa::to_string(q), M);
      const uint32_t N = 48, m16 = (M + 15) / 16 * 16;
      ref::Core core;
      core.gm.assign(1, std::vector<uint8_t>(16384, 0xEE));
      for (uint32_t m = 0; m < m16; ++m)
        for (uint32_t n = 0; n < N; ++n) {
          const float v = static_cast<float>(m) * 100.0f + static_cast<float>(n) + 0.25f;
          std::memcpy(&core.l0c[cell(m, n, m16)], &v, 4);
        }
      isa::Fixpipe op;
      op.dtype = DType::Float;
      op.quantPre = q;
      op.nz = true;
      op.src = {Space::L0C, 0, 0};
      op.dst = {Space::GM, 0, 64};
      op.nSize = static_cast<uint16_t>(N), op.mSize = static_cast<uint16_t>(M);
      op.srcStride = static_cast<uint16_t>(m16);
      const uint32_t es = q == QuantMode::NoQuant ? 4 : 2;
      op.dstStride = M * 16 * es / 32 + 3;  // three 32-byte units between blocks stay untouched
      sem::fixpipe(op, core.view());
      std::vector<uint8_t> want(16384, 0xEE);
      for (uint32_t m = 0; m < M; ++m)
        for (uint32_t n = 0; n < N; ++n) {
          uint32_t bits;
          std::memcpy(&bits, &core.l0c[cell(m, n, m16)], 4);
          const uint64_t at = 64 + (n / 16) * uint64_t{op.dstStride} * 32 + (uint64_t{m} * 16 + n % 16) * es;
          if (es == 4) {
            std::memcpy(&want[at], &bits, 4);
          } else {  // the conversion reference (convert_reference.hpp)
            const uint16_t h = q == QuantMode::F322F16 ? ref::to_half(bits) : ref::to_bf16(bits);
            std::memcpy(&want[at], &h, 2);
          }
        }
      REQUIRE(core.gm[0] == want);
    }
}

TEST_CASE("Fixpipe NZ output: int32 cells, the rules", "[fixpipe][nz]") {
  ref::Core core;
  core.gm.assign(1, std::vector<uint8_t>(8192, 0));
  for (uint32_t i = 0; i < 32 * 16; ++i) {
    const int32_t v = static_cast<int32_t>(i) - 100;
    std::memcpy(&core.l0c[i * 4], &v, 4);
  }
  isa::Fixpipe op;
  op.dtype = DType::Int32;
  op.nz = true;
  op.src = {Space::L0C, 0, 0};
  op.dst = {Space::GM, 0, 0};
  op.nSize = 32, op.mSize = 16, op.srcStride = 16, op.dstStride = 32;  // blocks 1024 B apart
  sem::fixpipe(op, core.view());
  for (uint32_t m = 0; m < 16; ++m)
    for (uint32_t n = 0; n < 32; ++n) {
      int32_t got;
      std::memcpy(&got, &core.gm[0][(n / 16) * 1024 + (m * 16 + n % 16) * 4], 4);
      REQUIRE(got == static_cast<int32_t>(((n / 16) * 16 + m) * 16 + n % 16) - 100);
    }
  const auto fails = [&](isa::Fixpipe bad, FaultKind kind, const char* text) {
    try {
      sem::fixpipe(bad, core.view());
      FAIL("no fault for " << text);
    } catch (const Fault& f) {
      CHECK(f.kind() == kind);
      CHECK_THAT(f.what(), Catch::Contains(text));
    }
  };
  auto b = op;
  b.nSize = 24;
  fails(b, FaultKind::InvalidField, "nSize must be a multiple of 16 (got 24)");
  b = op;
  b.dst.offset = 16;
  fails(b, FaultKind::Misaligned, "32-byte aligned");
  b = op;
  b.ndNum = 2, b.srcNdStride = 1, b.dstNdStride = 1;
  fails(b, FaultKind::InvalidField, "takes ndNum 1");
  b = op;
  b.dstStride = 0;
  fails(b, FaultKind::InvalidField, "needs dstStride");
  b = op;
  b.quantPre = QuantMode::REQ8;
  b.deqScalar = 0x3f800000;
  b.nSize = 16;  // int8: whole 32-column blocks
  fails(b, FaultKind::InvalidField, "takes whole 32-column blocks: nSize must be a multiple of 32 (got 16)");
}

TEST_CASE("Fixpipe NZ output of int8: two L0C blocks merged into the 32-byte rows of a 32-column block",
          "[fixpipe][nz]") {
  // C 20 x 64 int32 cells (m16 = 32 rows a block in L0C), REQ8 with scale 0.5 and the sign bit
  // (int8) and per-channel VREQ8 words: output block b (columns 32b .. 32b + 31) at b * dstStride
  // * 32, row m its 32 bytes; the bytes between blocks untouched.
  const uint32_t M = 20, N = 64, m16 = 32;
  for (const QuantMode q : {QuantMode::REQ8, QuantMode::VREQ8}) {
    CAPTURE(isa::to_string(q));
    ref::Core core;
    core.gm.assign(1, std::vector<uint8_t>(8192, 0xEE));
    for (uint32_t m = 0; m < m16; ++m)
      for (uint32_t n = 0; n < N; ++n) {
        const int32_t v = static_cast<int32_t>(m * 7 + n * 3) - 150;
        std::memcpy(&core.l0c[cell(m, n, m16)], &v, 4);
      }
    const uint64_t word = 0x3f000000ull | (uint64_t{1} << 46);  // 0.5, signed
    for (uint32_t n = 0; n < N; ++n) {  // VREQ8: one word per column, scale 0.5 + n / 64
      const float s = 0.5f + static_cast<float>(n) / 64.0f;
      uint32_t bits;
      std::memcpy(&bits, &s, 4);
      const uint64_t w = bits | (uint64_t{1} << 46);
      std::memcpy(&core.l1[4096 + n * 8], &w, 8);
    }
    isa::Fixpipe op;
    op.dtype = DType::Int32;
    op.quantPre = q;
    op.deqScalar = q == QuantMode::REQ8 ? word : 0;
    op.quantAddr = q == QuantMode::VREQ8 ? 4096 : 0;
    op.nz = true;
    op.src = {Space::L0C, 0, 0};
    op.dst = {Space::GM, 0, 32};
    op.nSize = N, op.mSize = M, op.srcStride = m16;
    op.dstStride = M + 2;  // 32-byte rows: two units between the blocks stay untouched
    sem::fixpipe(op, core.view());
    std::vector<uint8_t> want(8192, 0xEE);
    for (uint32_t m = 0; m < M; ++m)
      for (uint32_t n = 0; n < N; ++n) {
        int32_t v;
        std::memcpy(&v, &core.l0c[cell(m, n, m16)], 4);
        uint64_t w = word;
        if (q == QuantMode::VREQ8) std::memcpy(&w, &core.l1[4096 + n * 8], 8);
        want[32 + (n / 32) * uint64_t{op.dstStride} * 32 + uint64_t{m} * 32 + n % 32] =
            ref::req8(v, ref::decode(w), false);
      }
    REQUIRE(core.gm[0] == want);
  }
}

TEST_CASE("Fixpipe channel split: C as blocks of 8 columns, n / 8 at dstStride x 32 bytes",
          "[fixpipe][nz][split]") {
  for (const uint32_t N : {48u, 40u, 8u})
    for (const uint32_t M : {16u, 20u}) {
      CAPTURE(N, M);
      const uint32_t m16 = (M + 15) / 16 * 16;
      ref::Core core;
      core.gm.assign(1, std::vector<uint8_t>(16384, 0xEE));
      for (uint32_t m = 0; m < m16; ++m)
        for (uint32_t n = 0; n < (N + 15) / 16 * 16; ++n) {
          const float v = static_cast<float>(m) * 1000.0f + static_cast<float>(n) + 0.5f;
          std::memcpy(&core.l0c[cell(m, n, m16)], &v, 4);
        }
      isa::Fixpipe op;
      op.dtype = DType::Float;
      op.nz = true, op.channelSplit = true;
      op.src = {Space::L0C, 0, 0};
      op.dst = {Space::GM, 0, 32};
      op.nSize = static_cast<uint16_t>(N), op.mSize = static_cast<uint16_t>(M);
      op.srcStride = static_cast<uint16_t>(m16);
      op.dstStride = M * 8 * 4 / 32 + 1;  // one 32-byte unit between blocks stays untouched
      sem::fixpipe(op, core.view());
      std::vector<uint8_t> want(16384, 0xEE);
      for (uint32_t m = 0; m < M; ++m)
        for (uint32_t n = 0; n < N; ++n) {
          const uint64_t at = 32 + (n / 8) * uint64_t{op.dstStride} * 32 + (uint64_t{m} * 8 + n % 8) * 4;
          std::memcpy(&want[at], &core.l0c[cell(m, n, m16)], 4);
        }
      REQUIRE(core.gm[0] == want);
      // The checker's footprint is the bytes written: each block's M x 8 floats.
      const auto fp = isa::footprint(op);
      bool found = false;
      for (const auto& e : fp)
        if (e.space == Space::GM) {
          found = true;
          CHECK(e.begin == 32);
          CHECK(e.end == 32 + (N / 8 - 1) * uint64_t{op.dstStride} * 32 + M * 8 * 4);
        }
      CHECK(found);
    }
  ref::Core core;
  core.gm.assign(1, std::vector<uint8_t>(4096, 0));
  isa::Fixpipe op;
  op.dtype = DType::Float, op.nz = true, op.channelSplit = true;
  op.src = {Space::L0C, 0, 0}, op.dst = {Space::GM, 0, 0};
  op.nSize = 12, op.mSize = 16, op.srcStride = 16, op.dstStride = 16;
  CHECK_THROWS_WITH(sem::fixpipe(op, core.view()),
                    Catch::Contains("takes whole 8-column blocks: nSize must be a multiple of 8 (got 12)"));
  op.nSize = 16, op.nz = false;
  CHECK_THROWS_WITH(sem::fixpipe(op, core.view()),
                    Catch::Contains("channelSplit splits the blocks of an NZ output"));
}
