// LoadData3DV2 (Load3Dv2): the matmul use (an NZ matrix in L1 read as a 1-row feature map, filter
// 1 x 1) against the NZ and zZ formulas worked here, and convolution windows (filter, stride,
// padding, dilation) against tests/support/load3d_reference.hpp's loop-by-loop im2col of a
// logical C x H x W input. Bit-exact: elements are moved, never converted.
#include <catch2/catch.hpp>
#include <cstring>
#include <random>

#include "../support/load3d_reference.hpp"
#include "aicore/common/error.hpp"
#include "aicore/semantics/execute.hpp"
#include "reference.hpp"

using namespace aicore;
using isa::DType;
using isa::Space;

namespace {

uint32_t es_of(DType t) {
  return isa::byte_size(t);
}

// An element's bits from a seed, distinct for nearby (a, b, c).
uint32_t bits(uint32_t a, uint32_t b, uint32_t c, DType t) {
  const uint32_t v = (a * 2654435761u) ^ (b * 40503u) ^ (c * 97u + 13u);
  const uint32_t es = es_of(t);
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

}  // namespace

TEST_CASE("LoadData3DV2 as a matmul A load: an M x K block out of an NZ matrix into zZ", "[moves][load3d]") {
  for (const DType t : {DType::Int8, DType::Half, DType::BF16, DType::Float}) {
    CAPTURE(isa::to_string(t));
    const uint32_t es = es_of(t), c0 = 32 / es;
    const uint32_t M = 30, Mp = 32, K = 4 * c0;  // the NZ in L1 has Mp (16-aligned) rows per column block
    ref::Core core;
    const uint64_t src = 1024;
    // A (M x K) in NZ: column block k / c0, then row m, then k % c0.
    for (uint32_t m = 0; m < Mp; ++m)
      for (uint32_t k = 0; k < K; ++k)
        put(core.l1, src + ((k / c0) * Mp + m) * 32 + (k % c0) * es, bits(m, k, 0, t), es);
    std::memset(core.l0a.data(), 0xEE, core.l0a.size());
    isa::LoadData3DV2 op;
    op.dtype = t;
    op.src = {Space::L1, 0, src};
    op.dst = {Space::L0A, 0, 512};
    op.l1H = 1;
    op.l1W = Mp;  // the map is the NZ's padded rows; the window stops at M
    op.channelSize = static_cast<uint16_t>(K);
    op.kStartPt = static_cast<uint16_t>(c0);  // the second K step of a c0 * 2-wide step
    op.kExtension = static_cast<uint16_t>(2 * c0);
    op.mExtension = M;  // ends in the last 16-row block: no multiple of 16 needed
    sem::load_data_3dv2(op, core.view());
    // zZ: fractal (m / 16, kk / c0) row-major over 2 column fractals; inside, row m % 16 of 32 bytes.
    for (uint32_t m = 0; m < Mp; ++m)
      for (uint32_t kk = 0; kk < 2 * c0; ++kk) {
        const uint64_t at = 512 + ((m / 16) * 2 + kk / c0) * 512 + (m % 16) * 32 + (kk % c0) * es;
        if (m < M)
          REQUIRE(get(core.l0a, at, es) == bits(m, c0 + kk, 0, t));
        else
          REQUIRE(get(core.l0a, at, es) == get({0xEE, 0xEE, 0xEE, 0xEE}, 0, es));  // rows past M: untouched
      }
    CHECK(core.l0a[511] == 0xEE);
    CHECK(core.l0a[512 + 4 * 512] == 0xEE);
    // The same NZ read as a 2 x 16 map (H * W = the 32 rows): the same window, the same bytes.
    std::vector<uint8_t> first(core.l0a.begin() + 512, core.l0a.begin() + 512 + 4 * 512);
    std::memset(core.l0a.data(), 0xEE, core.l0a.size());
    op.l1H = 2;
    op.l1W = Mp / 2;
    sem::load_data_3dv2(op, core.view());
    CHECK(std::equal(first.begin(), first.end(), core.l0a.begin() + 512));
    op.l1H = 1;
    op.l1W = Mp;
    // Nothing to move: l1H = 0 (the docs: a no-op).
    ref::Core untouched;
    op.l1H = 0;
    sem::load_data_3dv2(op, untouched.view());
    CHECK(untouched.l0a[512] == 0);
  }
}

namespace {
// A logical C x H x W input written into L1 as NC1HWC0 by hand, the op run, every written element
// compared with the reference im2col and every other destination byte left alone.
void run_conv(isa::LoadData3DV2 op) {
  const uint32_t es = es_of(op.dtype), c0 = 32 / es;
  ref::Core core;
  const uint64_t c1n = (op.channelSize + c0 - 1) / c0;
  for (uint32_t c = 0; c < op.channelSize; ++c)
    for (uint32_t h = 0; h < op.l1H; ++h)
      for (uint32_t w = 0; w < op.l1W; ++w)
        put(core.l1, op.src.offset + (((c / c0) * op.l1H + h) * op.l1W + w) * 32 + (c % c0) * es,
            bits(c, h, w, op.dtype), es);
  (void)c1n;
  std::vector<uint8_t>& dst = op.dst.space == Space::L0A ? core.l0a : core.l0b;
  std::memset(dst.data(), 0xEE, dst.size());
  sem::load_data_3dv2(op, core.view());
  const auto want = ref3d::im2col(op);
  REQUIRE(want.size() == uint64_t{op.mExtension} * op.kExtension);
  std::vector<bool> written(dst.size());
  uint64_t pads = 0;
  for (const ref3d::Element& e : want) {
    const uint64_t at = op.dst.offset + e.dst;
    REQUIRE(get(dst, at, es) == (e.pad ? op.padValue : bits(e.c, e.h, e.w, op.dtype)));
    for (uint32_t b = 0; b < es; ++b) written[at + b] = true;
    pads += e.pad;
  }
  CHECK(pads > 0);  // the window does cross the padding
  for (size_t b = 0; b < dst.size(); ++b)
    if (!written[b]) REQUIRE(dst[b] == 0xEE);
}
}  // namespace

TEST_CASE("LoadData3DV2 convolution windows: 3 x 3 filter, stride 2, padding, dilation", "[moves][load3d]") {
  isa::LoadData3DV2 op;
  op.src = {Space::L1, 0, 2048};
  op.dst = {Space::L0A, 0, 1024};
  op.l1H = 7;
  op.l1W = 6;
  op.filterH = op.filterW = 3;
  op.strideH = op.strideW = 2;
  op.dilationFilterH = 2;  // taps 0, 2, 4 down; 0, 1, 2 across
  op.padTop = 1;
  op.padBottom = 2;
  op.padLeft = 1;
  op.padRight = 1;
  // Ho = (7 + 3 - 5) / 2 + 1 = 3, Wo = (6 + 2 - 3) / 2 + 1 = 3: 9 rows.
  SECTION("half, two channel blocks, a K window in the middle, the rows to the last") {
    op.dtype = DType::Half;
    op.channelSize = 32;
    op.padValue = 0x3C00;  // 1.0
    op.kStartPt = 16 * 4;  // (c1 = 0, kh = 1, kw = 1)
    op.kExtension = 16 * 7;
    op.mStartPt = 1;
    op.mExtension = 8;
    run_conv(op);
  }
  SECTION("int8 and float") {
    for (const DType t : {DType::Int8, DType::Float}) {
      op.dtype = t;
      const uint16_t c0 = static_cast<uint16_t>(32 / es_of(t));
      op.channelSize = c0;
      op.padValue = t == DType::Int8 ? 0x81 : 0xBF800000u;  // -127, -1.0f
      op.kStartPt = 0;
      op.kExtension = static_cast<uint16_t>(9 * c0);
      op.mStartPt = 0;
      op.mExtension = 9;
      run_conv(op);
    }
  }
  SECTION("bf16 transposed into L0A, and half into L0B (each fractal transposed)") {
    op.dtype = DType::BF16;
    op.channelSize = 16;
    op.padValue = 0xC000;
    op.kExtension = 16 * 9;
    op.mExtension = 9;
    op.enTranspose = true;
    run_conv(op);
    op.dtype = DType::Half;
    op.dst = {Space::L0B, 0, 512};
    op.enTranspose = false;
    op.l1W = 40;  // Wo = 20: 60 rows; a 32-row window in the middle
    op.mStartPt = 16;
    op.mExtension = 32;
    op.kStartPt = 32;
    op.kExtension = 48;
    run_conv(op);
  }
  SECTION("filterSizeW adds 256 taps") {
    op.dtype = DType::Half;
    op.channelSize = 16;
    op.l1W = 300;
    op.filterW = 2;  // 258 taps, stride 2, padding 1 + 1: Wo = (302 - 258) / 2 + 1 = 23
    op.filterSizeW = true;
    op.dilationFilterW = 1;
    op.filterH = 1;
    op.kStartPt = 16 * 250;
    op.kExtension = 16 * 8;
    op.mExtension = 16;
    run_conv(op);
  }
}

TEST_CASE("LoadData3DV2 field rules name the field and the rule", "[moves][load3d]") {
  ref::Core core;
  isa::LoadData3DV2 op;
  op.src = {Space::L1, 0, 0};
  op.dst = {Space::L0A, 0, 0};
  op.l1H = 1;
  op.l1W = 32;
  op.channelSize = 64;
  op.kExtension = 32;
  op.mExtension = 32;
  REQUIRE_NOTHROW(sem::load_data_3dv2(op, core.view()));
  const auto fails = [&](isa::LoadData3DV2 bad, FaultKind kind, const char* text) {
    try {
      sem::load_data_3dv2(bad, core.view());
      FAIL("no fault for " << text);
    } catch (const Fault& f) {
      CHECK(f.kind() == kind);
      CHECK_THAT(f.what(), Catch::Contains(text));
    }
  };
  auto b = op;
  b.kExtension = 24;
  fails(b, FaultKind::InvalidField,
        "kExtension must be a multiple of C0 = 16 for half (got 24; the nearest are 16 and 32)");
  b = op;
  b.kStartPt = 8;
  fails(b, FaultKind::InvalidField, "kStartPt must be a multiple of C0 = 16");
  b = op;
  b.mExtension = 20;  // ends in the last 16-row block: legal
  CHECK_NOTHROW(sem::load_data_3dv2(b, core.view()));
  b.mExtension = 8;
  fails(b, FaultKind::InvalidField, "mExtension must be a multiple of 16 unless");
  b = op;
  b.mStartPt = 16;  // 16 + 32 rows of a 32-row matrix
  fails(b, FaultKind::Unsupported, "is past the im2col matrix's 32 rows");
  b = op;
  b.kStartPt = 48;
  fails(b, FaultKind::InvalidField, "kStartPt + kExtension = 80 is past the im2col matrix's 64 columns");
  b = op;
  b.channelSize = 36;  // 2 * 16 + 4: documented, another layout
  fails(b, FaultKind::Unsupported, "channelSize 36 (not a multiple of C0 = 16)");
  b.channelSize = 37;
  fails(b, FaultKind::InvalidField, "channelSize 37 must be a multiple of C0 = 16");
  b = op;
  b.enSmallK = true;
  fails(b, FaultKind::InvalidField, "enSmallK");
  b = op;
  b.fMatrixCtrl = true;
  fails(b, FaultKind::Unsupported, "fMatrixCtrl=1");
  b = op;
  b.dtype = DType::Int8;
  b.dst.space = Space::L0B;
  fails(b, FaultKind::InvalidField, "into L0B takes half, bf16, float or int32 (the docs exclude b8)");
  b = op;
  b.dtype = DType::Int8;
  b.enTranspose = true;
  fails(b, FaultKind::InvalidField,
        "enTranspose into L0A takes half, bf16, float or int32 (the docs exclude b8)");
  b = op;
  b.padValue = 0x10000;
  fails(b, FaultKind::InvalidField, "padValue 65536 does not fit one half element");
  b = op;
  b.strideW = 0;
  fails(b, FaultKind::InvalidField, "strideW and strideH must be 1..63");
  b = op;
  b.dilationFilterH = 0;
  fails(b, FaultKind::InvalidField, "dilationFilterW and dilationFilterH must be 1..255");
  b = op;
  b.filterW = 40;
  fails(b, FaultKind::InvalidField, "does not fit the padded map");
  b = op;
  b.dst.offset = 256;
  fails(b, FaultKind::Misaligned, "512-byte aligned");
  b = op;
  b.src.offset = 16;
  fails(b, FaultKind::Misaligned, "32-byte aligned");
  b = op;
  b.dst.offset = 64 * 1024 - 512;  // 4 fractals from the last one
  fails(b, FaultKind::OutOfBounds, "beyond its 65536 bytes");
}

TEST_CASE("LoadData3DV2 enTranspose of float into L0A: A^T's NZ read back as A in zZ (16 x 8 fractals)",
          "[moves][load3d]") {
  // A^T (K x M, K = 70 rows padded to 80, M = 40 channels: C1 = 5 blocks of 8) in NZ, read as a
  // 1-row map of 80 positions; the window (80 rows, 40 columns) transposed is A (40 x 80) in zZ:
  // fractal (m / 16, k / 8) of 10 along k, row m % 16, element k % 8 (Huawei's load_data sample,
  // float with A transposed and K padded to 16; its Mmad then takes kDirectionAlign).
  for (const DType t : {DType::Float, DType::Int32}) {
    CAPTURE(isa::to_string(t));
    const uint32_t Kp = 80, M = 40, c0 = 8;
    ref::Core core;
    const uint64_t src = 2048;
    for (uint32_t k = 0; k < Kp; ++k)
      for (uint32_t m = 0; m < M; ++m)
        put(core.l1, src + ((m / c0) * Kp + k) * 32 + (m % c0) * 4, bits(k, m, 1, t), 4);
    std::memset(core.l0a.data(), 0xEE, core.l0a.size());
    isa::LoadData3DV2 op;
    op.dtype = t;
    op.src = {Space::L1, 0, src};
    op.dst = {Space::L0A, 0, 1024};
    op.l1H = 1;
    op.l1W = Kp;
    op.channelSize = M;
    op.kExtension = M;
    op.mExtension = Kp;
    op.enTranspose = true;
    sem::load_data_3dv2(op, core.view());
    for (uint32_t m = 0; m < 48; ++m)  // three 16-row blocks, the last half padding
      for (uint32_t k = 0; k < Kp; ++k) {
        const uint64_t at = 1024 + ((m / 16) * 10 + k / 8) * 512 + (m % 16) * 32 + (k % 8) * 4;
        INFO("m " << m << " k " << k);
        if (m < M)
          REQUIRE(get(core.l0a, at, 4) == bits(k, m, 1, t));
        else
          REQUIRE(get(core.l0a, at, 4) == 0xEEEEEEEEu);  // rows past the window's columns: untouched
      }
    CHECK(core.l0a[1024 + 30 * 512] == 0xEE);  // 3 x 10 fractals written, nothing after
  }
}

TEST_CASE("LoadData3DV2 of float into L0B: the window as B (K x N) in Zn, 16 x 8 fractals",
          "[moves][load3d]") {
  // B (K = 70 rows padded to 80, N = 40 channels) in NZ read as a 1-row map: the window (80 rows,
  // 40 columns) is B in Zn: fractal (k / 8, n / 16) of 3 along n, row n % 16, element k % 8.
  const uint32_t Kp = 80, N = 40, c0 = 8;
  ref::Core core;
  const uint64_t src = 4096;
  for (uint32_t k = 0; k < Kp; ++k)
    for (uint32_t n = 0; n < N; ++n)
      put(core.l1, src + ((n / c0) * Kp + k) * 32 + (n % c0) * 4, bits(k, n, 2, DType::Float), 4);
  std::memset(core.l0b.data(), 0xEE, core.l0b.size());
  isa::LoadData3DV2 op;
  op.dtype = DType::Float;
  op.src = {Space::L1, 0, src};
  op.dst = {Space::L0B, 0, 512};
  op.l1H = 1;
  op.l1W = Kp;
  op.channelSize = N;
  op.kExtension = N;
  op.mExtension = Kp;
  sem::load_data_3dv2(op, core.view());
  for (uint32_t k = 0; k < Kp; ++k)
    for (uint32_t n = 0; n < 48; ++n) {
      const uint64_t at = 512 + ((k / 8) * 3 + n / 16) * 512 + (n % 16) * 32 + (k % 8) * 4;
      INFO("k " << k << " n " << n);
      if (n < N)
        REQUIRE(get(core.l0b, at, 4) == bits(k, n, 2, DType::Float));
      else
        REQUIRE(get(core.l0b, at, 4) == 0xEEEEEEEEu);
    }
  CHECK(core.l0b[512 + 30 * 512] == 0xEE);  // 10 x 3 fractals written, nothing after
}
