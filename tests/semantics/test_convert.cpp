// Fixpipe's conversions (src/semantics/convert.cpp) against the independent reference of
// convert_reference.cpp, bit for bit: every half/bf16 value, every midpoint between neighbours
// (the ties) and its two neighbouring floats, overflow, infinities, NaNs, subnormals, random bits;
// the scalar modes over edge integers, scales and offsets. Then Fixpipe itself writing C in the
// output type (bytes and layout).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "aicore/isa/check.hpp"
#include "aicore/semantics/convert.hpp"
#include "aicore/semantics/execute.hpp"
#include "convert_reference.hpp"
#include "reference.hpp"

namespace isa = aicore::isa;
namespace sem = aicore::sem;
using isa::Space;

namespace {

uint32_t bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
float flt(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

// Floats that probe a 16-bit format whose values are the top 16 bits of `to_f32(h)`: each value,
// each midpoint to the next value, and the floats right beside both.
std::vector<uint32_t> probes(uint16_t max, float (*to_f32)(uint16_t)) {
  std::vector<uint32_t> out;
  for (uint32_t h = 0; h < max; ++h) {
    const float a = to_f32(static_cast<uint16_t>(h)), b = to_f32(static_cast<uint16_t>(h + 1));
    const float mid = static_cast<float>((static_cast<double>(a) + b) / 2);  // exact: 1 more bit
    for (const float f :
         {a, mid, std::nextafter(mid, 0.0f), std::nextafter(mid, INFINITY), std::nextafter(a, INFINITY)})
      for (const float s : {f, -f}) out.push_back(bits(s));
  }
  return out;
}

float half_f32(uint16_t h) {
  const int e = (h >> 10) & 31, m = h & 1023;
  return static_cast<float>(e == 0 ? std::ldexp(m, -24) : std::ldexp(1024 + m, e - 25));
}
float bf16_f32(uint16_t h) {
  return flt(uint32_t{h} << 16);
}

const uint32_t kSpecials[] = {
    0x00000000, 0x80000000,              // +-0
    0x7F800000, 0xFF800000,              // +-inf
    0x7FC00000, 0x7F800001, 0xFFFFFFFF,  // NaNs (quiet, signalling, negative)
    0x00000001, 0x007FFFFF, 0x80000001,  // fp32 subnormals
    0x00800000, 0x7F7FFFFF, 0xFF7FFFFF,  // smallest normal, largest finite
    0x477FE000,                          // 65504, the largest half
    0x477FEFFF, 0x477FF000, 0x477FF001,  // just below, at and above 65520 (the half overflow tie)
    0x47800000,                          // 65536
    0x33800000, 0x33000000, 0x33400000,  // 2^-24 (smallest half subnormal), 2^-25 (tie to 0), 1.5 * 2^-25
    0x38800000, 0x387FE000,              // 2^-14 (smallest normal half) and the largest half subnormal
    0x7F7F8000, 0x7F7F7FFF,              // the bf16 overflow tie and just below it
};

}  // namespace

TEST_CASE("F322F16: nearest half, ties to even, saturating, NaN to 0", "[convert]") {
  std::vector<uint32_t> in = probes(0x7BFF, half_f32);
  in.insert(in.end(), std::begin(kSpecials), std::end(kSpecials));
  std::mt19937 rng(7);
  for (int i = 0; i < 100000; ++i) in.push_back(static_cast<uint32_t>(rng()));
  for (const uint32_t b : in) {
    INFO("f32 bits 0x" << std::hex << b);
    REQUIRE(sem::f32_to_f16_sat(b) == ref::to_half(b));
  }
  // The rules themselves, spelled out.
  CHECK(sem::f32_to_f16_sat(bits(1.0f)) == 0x3C00);
  CHECK(sem::f32_to_f16_sat(0x3F801000) == 0x3C00);  // 1 + 2^-11: the tie goes to the even 1.0
  CHECK(sem::f32_to_f16_sat(0x3F803000) == 0x3C02);  // 1 + 3 * 2^-11: to the even 1 + 2^-9
  CHECK(sem::f32_to_f16_sat(bits(70000.0f)) == 0x7BFF);
  CHECK(sem::f32_to_f16_sat(0xFF800000) == 0xFBFF);  // -inf -> -65504
  CHECK(sem::f32_to_f16_sat(0x7FC00000) == 0x0000);
  CHECK(sem::f32_to_f16_sat(0x33000000) == 0x0000);  // 2^-25: a tie between 0 and 2^-24
  CHECK(sem::f32_to_f16_sat(0x33400000) == 0x0001);  // 1.5 * 2^-25 rounds up to 2^-24
  CHECK(sem::f32_to_f16_sat(0x80000001) == 0x8000);  // a negative fp32 subnormal keeps its sign
}

TEST_CASE("F322BF16: nearest bf16, ties to even, saturating, NaN to 0, subnormals kept", "[convert]") {
  std::vector<uint32_t> in = probes(0x7F7F, bf16_f32);
  in.insert(in.end(), std::begin(kSpecials), std::end(kSpecials));
  std::mt19937 rng(8);
  for (int i = 0; i < 100000; ++i) in.push_back(static_cast<uint32_t>(rng()));
  for (const uint32_t b : in) {
    INFO("f32 bits 0x" << std::hex << b);
    REQUIRE(sem::f32_to_bf16_sat(b) == ref::to_bf16(b));
  }
  CHECK(sem::f32_to_bf16_sat(0x3F808000) == 0x3F80);  // a tie: the even encoding
  CHECK(sem::f32_to_bf16_sat(0x3F818000) == 0x3F82);
  CHECK(sem::f32_to_bf16_sat(0x7F7F8000) == 0x7F7F);  // would round to inf: saturates
  CHECK(sem::f32_to_bf16_sat(0x00018000) == 0x0002);  // subnormal tie, to even
  CHECK(sem::f32_to_bf16_sat(0xFFC00000) == 0x0000);
}

TEST_CASE("DEQF16, REQ8, QF322B8_PRE: the scalar modes against the reference", "[convert]") {
  std::vector<int32_t> ints = {0,
                               1,
                               -1,
                               2,
                               3,
                               5,
                               -3,
                               -5,
                               127,
                               128,
                               -129,
                               255,
                               256,
                               -256,
                               511,
                               1000,
                               -1000,
                               (1 << 24) + 1,
                               (1 << 24) + 3,
                               -((1 << 24) + 1),
                               INT32_MAX,
                               INT32_MIN,
                               65504,
                               65520};
  std::mt19937 rng(9);
  for (int i = 0; i < 2000; ++i) ints.push_back(static_cast<int32_t>(rng()) >> (rng() % 31));
  std::vector<uint32_t> floats(std::begin(kSpecials), std::end(kSpecials));
  for (const float f : {0.5f, 1.5f, 2.5f, -2.5f, 127.5f, 128.5f, -128.5f, 255.5f, -256.5f, 300.0f, 1e30f})
    floats.push_back(bits(f));
  for (int i = 0; i < 2000; ++i)
    floats.push_back(bits(std::ldexp(static_cast<float>(rng() % 200000) - 1e5f, -10)));
  for (int i = 0; i < 500; ++i) floats.push_back(static_cast<uint32_t>(rng()));
  // Scales (with junk in the 13 ignored mantissa bits), offsets (s9) and the sign bit.
  const uint32_t scales[] = {bits(1.0f),   bits(0.5f),       bits(1.0f) | 0x1FFF,
                             bits(-0.25f), bits(0.0078125f), bits(3.0517578e-05f),
                             bits(1e30f),  bits(1e-30f),     0};
  const uint64_t offsets[] = {0, 5, 255, 256 /* -256 */, 511 /* -1 */, 100};
  for (const uint32_t sc : scales)
    for (const uint64_t off : offsets)
      for (const uint64_t sign : {0, 1})
        for (const bool relu : {false, true}) {
          const uint64_t d = sc | off << 37 | sign << 46;
          const sem::DeqScalar q = sem::decode_deq_scalar(d);
          const ref::Deq r = ref::decode(d);
          INFO("deqScalar 0x" << std::hex << d << (relu ? " relu" : ""));
          for (const int32_t v : ints) {
            INFO("int32 " << std::dec << v);
            REQUIRE(sem::deqf16(v, q, relu) == ref::deqf16(v, r, relu));
            REQUIRE(sem::req8(v, q, relu) == ref::req8(v, r, relu));
          }
          for (const uint32_t f : floats) {
            INFO("f32 bits 0x" << std::hex << f);
            REQUIRE(sem::qf322b8(f, q, relu) == ref::qf322b8(f, r, relu));
          }
        }
  // The rules spelled out: ties to even, the 9-bit stage, the offset, saturation.
  const sem::DeqScalar half = sem::decode_deq_scalar(bits(0.5f) | uint64_t{1} << 46);
  CHECK(sem::req8(3, half, false) == 2);                         // 1.5 -> 2
  CHECK(sem::req8(5, half, false) == 2);                         // 2.5 -> 2
  CHECK(static_cast<int8_t>(sem::req8(-5, half, false)) == -2);  // -2.5 -> -2
  CHECK(static_cast<int8_t>(sem::req8(1000, half, false)) == 127);
  CHECK(sem::req8(-5, half, true) == 0);  // ReLU: negatives times 0
  const sem::DeqScalar u8 = sem::decode_deq_scalar(bits(1.0f) | uint64_t{200} << 37);
  CHECK(sem::req8(100, u8, false) == 255);  // 100 + 200, as uint8: 255
  CHECK(sem::req8(-300, u8, false) == 0);   // -256 (9-bit stage) + 200 < 0
  const sem::DeqScalar neg = sem::decode_deq_scalar(bits(1.0f) | uint64_t{511} << 37 | uint64_t{1} << 46);
  CHECK(neg.offset == -1);
  CHECK(sem::qf322b8(0x7FC00000, neg, false) == 0xFF);                                  // NaN -> 0, then -1
  CHECK(sem::deqf16(70000, sem::decode_deq_scalar(bits(1.0f)), false) == 0x7BFF);       // saturates
  CHECK(sem::deqf16(3, sem::decode_deq_scalar(bits(1.0f) | 0x1FFF), false) == 0x4200);  // junk bits ignored
}

TEST_CASE("Fixpipe writes C in the output type of quantPre, rows at dstStride output elements",
          "[convert][fixpipe]") {
  ref::Core core;
  const uint32_t M = 20, N = 32, M16 = 32;
  for (size_t i = 0; i < core.l0c.size() / 4; ++i) {
    const float v = std::ldexp(static_cast<float>(static_cast<int32_t>(i * 2654435761u) >> 12), -9);
    std::memcpy(core.l0c.data() + i * 4, &v, 4);
  }
  core.gm.emplace_back(64 * 1024);
  const auto cell = [&](uint32_t j, uint32_t n) {
    uint32_t b;
    std::memcpy(&b, core.l0c.data() + ((n / 16) * M16 + j) * 64 + (n % 16) * 4, 4);
    return b;
  };
  for (const auto mode : {isa::QuantMode::F322F16, isa::QuantMode::F322BF16, isa::QuantMode::QF322B8_PRE}) {
    isa::Fixpipe op;
    op.dst = {Space::GM, 0, 96};  // 16-bit and 8-bit outputs need no alignment
    op.src = {Space::L0C, 0, 0};
    op.dtype = isa::DType::Float;
    op.quantPre = mode;
    op.deqScalar = bits(0.25f) | uint64_t{1} << 46;
    op.nSize = N;
    op.mSize = M;
    op.srcStride = M16;
    op.dstStride = 48;  // elements of the output type
    std::fill(core.gm[0].begin(), core.gm[0].end(), 0xA5);
    sem::fixpipe(op, core.view());
    const uint32_t es = isa::output_size(op);
    CHECK(isa::bytes_moved(op) == uint64_t{M} * N * es);
    const ref::Deq q = ref::decode(op.deqScalar);
    for (uint32_t j = 0; j < M; ++j)
      for (uint32_t n = 0; n < 48; ++n) {
        const uint8_t* d = core.gm[0].data() + 96 + (j * 48 + n) * es;
        if (n >= N) {  // the gap between rows is left as it was
          REQUIRE(d[0] == 0xA5);
          continue;
        }
        uint16_t h = 0;
        std::memcpy(&h, d, es == 2 ? 2 : 0);
        if (mode == isa::QuantMode::F322F16) REQUIRE(h == ref::to_half(cell(j, n)));
        if (mode == isa::QuantMode::F322BF16) REQUIRE(h == ref::to_bf16(cell(j, n)));
        if (mode == isa::QuantMode::QF322B8_PRE) REQUIRE(d[0] == ref::qf322b8(cell(j, n), q, false));
      }
  }
  // The mode's cell type is required.
  isa::Fixpipe op;
  op.dst = {Space::GM, 0, 0};
  op.src = {Space::L0C, 0, 0};
  op.quantPre = isa::QuantMode::F322F16;
  op.nSize = 16;
  op.mSize = 16;
  op.srcStride = 16;
  op.dstStride = 16;
  CHECK_THROWS_WITH(
      sem::fixpipe(op, core.view()),
      "quantPre F322F16 converts float L0C cells (from a half/bf16 Mmad): dtype must be float, not int32");
  op.dtype = isa::DType::Int32;
  op.quantPre = isa::QuantMode::REQ8;
  op.deqScalar = 0x7F800000;
  CHECK_THROWS_WITH(sem::fixpipe(op, core.view()),
                    "deqScalar (for quantPre REQ8) has a scale (bits 0-31) that is inf or NaN: it must be a "
                    "normal float or 0");
  op.deqScalar = 0x00002000;
  CHECK_THROWS_WITH(sem::fixpipe(op, core.view()),
                    "deqScalar (for quantPre REQ8) has a scale (bits 0-31) that is subnormal: it must be a "
                    "normal float or 0");
  op.deqScalar = bits(1.0f) | uint64_t{1} << 36;
  CHECK_THROWS_WITH(
      sem::fixpipe(op, core.view()),
      "deqScalar (for quantPre REQ8) sets bit 36 (shift int32 cells right before the scale), which is not "
      "modelled");
  op.deqScalar = 0x00001FFF;  // only ignored mantissa bits: a zero scale, legal
  CHECK_NOTHROW(sem::fixpipe(op, core.view()));
  op.unitFlag = 1;
  CHECK_THROWS_WITH(sem::fixpipe(op, core.view()), "unitFlag must be 0, 2 or 3 (got 1)");
}

TEST_CASE("VDEQF16, VREQ8, VQF322B8_PRE: column n converted by word n of the L1 table",
          "[convert][fixpipe]") {
  ref::Core core;
  const uint32_t M = 3, N = 20, M16 = 16, kQuant = 0x2000;  // N = 20: a last block of 4 columns
  for (size_t i = 0; i < core.l0c.size() / 4; ++i) {
    const uint32_t v = static_cast<uint32_t>(static_cast<int32_t>(i * 2654435761u) >> 14);
    std::memcpy(core.l0c.data() + i * 4, &v, 4);
  }
  core.gm.emplace_back(4096);
  const auto cell = [&](uint32_t j, uint32_t n) {
    uint32_t b;
    std::memcpy(&b, core.l0c.data() + ((n / 16) * M16 + j) * 64 + (n % 16) * 4, 4);
    return b;
  };
  // Word n: a scale of (n + 1) / 64, offset n - 10 (9-bit two's complement), odd columns unsigned.
  std::vector<uint64_t> words(N);
  for (uint32_t n = 0; n < N; ++n) {
    words[n] = bits(static_cast<float>(n + 1) / 64.0f) |
               (uint64_t((static_cast<int>(n) - 10) & 0x1FF) << 37) | (n % 2 == 0 ? uint64_t{1} << 46 : 0);
    std::memcpy(core.l1.data() + kQuant + n * 8, &words[n], 8);
  }
  for (const auto mode : {isa::QuantMode::VDEQF16, isa::QuantMode::VREQ8, isa::QuantMode::VQF322B8_PRE}) {
    for (const bool relu : {false, true}) {
      isa::Fixpipe op;
      op.dst = {Space::GM, 0, 0};
      op.src = {Space::L0C, 0, 0};
      op.dtype = mode == isa::QuantMode::VQF322B8_PRE ? isa::DType::Float : isa::DType::Int32;
      if (mode == isa::QuantMode::VQF322B8_PRE)  // float cells: small integers as floats
        for (uint32_t j = 0; j < M; ++j)
          for (uint32_t n = 0; n < 32; ++n) {
            const float f = static_cast<float>(static_cast<int32_t>((j * 37 + n * 11) % 400) - 200) * 0.75f;
            std::memcpy(core.l0c.data() + ((n / 16) * M16 + j) * 64 + (n % 16) * 4, &f, 4);
          }
      op.quantPre = mode;
      op.quantAddr = kQuant;
      op.deqScalar = bits(1000.0f);  // ignored by the per-channel modes
      op.reluEn = relu;
      op.nSize = N;
      op.mSize = M;
      op.srcStride = M16;
      op.dstStride = 24;
      std::fill(core.gm[0].begin(), core.gm[0].end(), 0xA5);
      sem::fixpipe(op, core.view());
      const uint32_t es = isa::output_size(op);
      CHECK(es == (mode == isa::QuantMode::VDEQF16 ? 2u : 1u));
      for (uint32_t j = 0; j < M; ++j)
        for (uint32_t n = 0; n < 24; ++n) {
          const uint8_t* d = core.gm[0].data() + (j * 24 + n) * es;
          if (n >= N) {
            REQUIRE(d[0] == 0xA5);
            continue;
          }
          const ref::Deq q = ref::decode(words[n]);
          const auto v = static_cast<int32_t>(cell(j, n));
          if (mode == isa::QuantMode::VDEQF16) {
            uint16_t h;
            std::memcpy(&h, d, 2);
            REQUIRE(h == ref::deqf16(v, q, relu));
          }
          if (mode == isa::QuantMode::VREQ8) REQUIRE(d[0] == ref::req8(v, q, relu));
          if (mode == isa::QuantMode::VQF322B8_PRE) REQUIRE(d[0] == ref::qf322b8(cell(j, n), q, relu));
        }
    }
  }
  // The table's words obey deqScalar's rules, named by column and L1 byte; the table must be 8-aligned.
  isa::Fixpipe op;
  op.dst = {Space::GM, 0, 0};
  op.src = {Space::L0C, 0, 0};
  op.quantPre = isa::QuantMode::VREQ8;
  op.quantAddr = kQuant;
  op.nSize = N;
  op.mSize = 1;
  op.srcStride = 16;
  op.dstStride = N;
  const uint64_t inf = 0x7F800000;
  std::memcpy(core.l1.data() + kQuant + 5 * 8, &inf, 8);
  CHECK_THROWS_WITH(
      sem::fixpipe(op, core.view()),
      "quantPre VREQ8: the word of column 5 (L1 byte 8232) has a scale (bits 0-31) that is inf or "
      "NaN: it must be a normal float or 0");
  const uint64_t shift = bits(1.0f) | uint64_t{1} << 36;
  std::memcpy(core.l1.data() + kQuant + 5 * 8, &shift, 8);
  CHECK_THROWS_WITH(
      sem::fixpipe(op, core.view()),
      "quantPre VREQ8: the word of column 5 (L1 byte 8232) sets bit 36 (shift int32 cells right "
      "before the scale), which is not modelled");
  op.quantAddr = kQuant + 4;
  CHECK_THROWS_WITH(sem::fixpipe(op, core.view()),
                    "quantAddr (the per-channel words in L1) must be 8-byte aligned (got 8196)");
  // The table must lie in L1: its last word ends past the 512 KiB.
  op.quantAddr = 512 * 1024 - 8 * 8;
  CHECK_THROWS_WITH(sem::fixpipe(op, core.view()),
                    "reads L1 bytes [524224, 524384) beyond its 524288 bytes (the per-channel words at "
                    "quantAddr, nSize x 8 bytes)");
}
