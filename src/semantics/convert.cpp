#include "aicore/semantics/convert.hpp"

#include <cmath>
#include <cstring>

namespace aicore::sem {

namespace {

uint32_t bits_of(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
float float_of(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

constexpr uint16_t kF16Max = 0x7BFF, kBf16Max = 0x7F7F;

// Rounds `value` >> `shift` to nearest, ties to even.
uint32_t shift_rne(uint32_t value, uint32_t shift) {
  if (shift == 0) return value;
  if (shift > 31) return 0;
  const uint32_t kept = value >> shift, rest = value & ((1u << shift) - 1), half = 1u << (shift - 1);
  return kept + (rest > half || (rest == half && (kept & 1u)) ? 1u : 0u);
}

// The integer step of the int8 modes: round to nearest even, the 9-bit stage [-256, 255], the
// offset, then the output range.
uint8_t to_b8(float p, const DeqScalar& q) {
  float r = std::nearbyint(p);       // the default rounding mode: to nearest, ties to even
  if (!(r >= -256.0f)) r = -256.0f;  // also -inf
  if (r > 255.0f) r = 255.0f;
  int32_t v = static_cast<int32_t>(r) + q.offset;
  const int32_t lo = q.is_signed ? -128 : 0, hi = q.is_signed ? 127 : 255;
  v = v < lo ? lo : v > hi ? hi : v;
  return static_cast<uint8_t>(static_cast<uint32_t>(v) & 0xFFu);
}

}  // namespace

uint16_t f32_to_f16_sat(uint32_t x) {
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  const uint32_t exp = (x >> 23) & 0xFFu, man = x & 0x7FFFFFu;
  if (exp == 0xFF) return man ? 0 : static_cast<uint16_t>(sign | kF16Max);  // NaN -> +0, inf -> max
  if (exp == 0) return sign;  // fp32 subnormals are below half the smallest fp16 subnormal
  const int32_t e = static_cast<int32_t>(exp) - 127 + 15;
  if (e >= 31) return static_cast<uint16_t>(sign | kF16Max);
  if (e <= 0) {  // fp16 subnormal (or 0): the value in units of 2^-24
    const uint32_t sub = shift_rne(man | 0x800000u, static_cast<uint32_t>(14 - e));
    return static_cast<uint16_t>(sign | sub);  // may round up to the smallest normal, 0x0400
  }
  uint32_t h = (static_cast<uint32_t>(e) << 10) | (man >> 13);
  const uint32_t rest = man & 0x1FFFu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;  // a carry into the exponent is right
  if (h >= 0x7C00u) h = kF16Max;
  return static_cast<uint16_t>(sign | h);
}

uint16_t f32_to_bf16_sat(uint32_t x) {
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  const uint32_t exp = (x >> 23) & 0xFFu, man = x & 0x7FFFFFu;
  if (exp == 0xFF) return man ? 0 : static_cast<uint16_t>(sign | kBf16Max);
  const uint32_t mag = x & 0x7FFFFFFFu;
  uint32_t h = shift_rne(mag, 16);  // rounding carries across the subnormal/normal boundary exactly
  if (h >= 0x7F80u) h = kBf16Max;
  return static_cast<uint16_t>(sign | h);
}

DeqScalar decode_deq_scalar(uint64_t bits) {
  DeqScalar q;
  q.scale = float_of(static_cast<uint32_t>(bits & 0xFFFFE000u));
  const auto off = static_cast<int32_t>((bits >> 37) & 0x1FFu);
  q.offset = off >= 256 ? off - 512 : off;
  q.is_signed = (bits >> 46) & 1u;
  return q;
}

uint16_t deqf16(int32_t cell, const DeqScalar& q, bool relu) {
  const float m = relu && cell < 0 ? 0.0f : q.scale;
  return f32_to_f16_sat(bits_of(static_cast<float>(cell) * m));
}

uint8_t req8(int32_t cell, const DeqScalar& q, bool relu) {
  const float m = relu && cell < 0 ? 0.0f : q.scale;
  return to_b8(static_cast<float>(cell) * m, q);
}

uint8_t qf322b8(uint32_t f32_bits, const DeqScalar& q, bool relu) {
  float v = float_of(f32_bits);
  if (std::isnan(v)) v = 0.0f;  // integer results saturate only: NaN becomes 0
  const float m = relu && v < 0.0f ? 0.0f : q.scale;
  float p = v * m;
  if (std::isnan(p)) p = 0.0f;  // inf x 0 (a ReLU'd -inf)
  return to_b8(p, q);
}

// Exact: every half is a float (subnormal halves are normal floats).
float half_to_float(uint16_t h) {
  const uint32_t sign = uint32_t{h & 0x8000u} << 16;
  uint32_t exp = (h >> 10) & 0x1f, man = h & 0x3ffu, bits;
  if (exp == 0) {
    if (man == 0) {
      bits = sign;
    } else {  // subnormal: normalise
      exp = 113;
      while (!(man & 0x400u)) {
        man <<= 1;
        --exp;
      }
      bits = sign | exp << 23 | (man & 0x3ffu) << 13;
    }
  } else if (exp == 31) {
    bits = sign | 0x7f800000u | man << 13;
  } else {
    bits = sign | (exp + 112) << 23 | man << 13;
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

}  // namespace aicore::sem
