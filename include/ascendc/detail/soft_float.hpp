// The 16-bit float types the Ascend compiler has built in: `half` (IEEE binary16) and
// `bfloat16_t` (the upper half of a binary32). Two bytes each, trivially copyable, so tensors of
// them are the bytes the simulator's Cube reads. Arithmetic is done in float and rounded back
// (to nearest, ties to even) on every store.
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace aicore_ascendc {

inline uint32_t float_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float bits_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// binary32 -> binary16, round to nearest even; overflow to infinity, NaN stays NaN (quiet).
inline uint16_t float_to_half_bits(float f) {
  const uint32_t u = float_bits(f);
  const uint32_t sign = (u >> 16) & 0x8000u;
  const uint32_t abs = u & 0x7fffffffu;
  if (abs > 0x7f800000u) return static_cast<uint16_t>(sign | 0x7e00u | ((abs >> 13) & 0x3ffu));
  if (abs >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // rounds past 65504
  if (abs < 0x38800000u) {                                               // subnormal or zero
    if (abs < 0x33000000u) return static_cast<uint16_t>(sign);           // below half the smallest
    const uint32_t exp = abs >> 23, man = (abs & 0x7fffffu) | 0x800000u;
    const uint32_t shift = 126 - exp;  // 14..24
    uint32_t h = man >> shift;
    const uint32_t rest = man & ((1u << shift) - 1), halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (h & 1u))) ++h;
    return static_cast<uint16_t>(sign | h);
  }
  uint32_t h = ((abs >> 13) - (112u << 10));
  const uint32_t rest = abs & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;
  return static_cast<uint16_t>(sign | h);
}

inline float half_bits_to_float(uint16_t h) {
  const uint32_t sign = uint32_t{h & 0x8000u} << 16;
  uint32_t exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
  if (exp == 0) {
    if (man == 0) return bits_float(sign);
    exp = 113;
    while (!(man & 0x400u)) {
      man <<= 1;
      --exp;
    }
    return bits_float(sign | exp << 23 | (man & 0x3ffu) << 13);
  }
  if (exp == 31) return bits_float(sign | 0x7f800000u | man << 13);
  return bits_float(sign | (exp + 112) << 23 | man << 13);
}

// binary32 -> bfloat16, round to nearest even; NaN stays NaN.
inline uint16_t float_to_bf16_bits(float f) {
  const uint32_t u = float_bits(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((u >> 16) | 0x40u);
  return static_cast<uint16_t>((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

// A 16-bit float stored as bits; Tag tells half from bfloat16_t.
template <class Tag>
struct Float16 {
  uint16_t bits = 0;

  Float16() = default;
  template <class A, class = std::enable_if_t<std::is_arithmetic<A>::value>>
  Float16(A v) : bits(Tag::encode(static_cast<float>(v))) {}  // NOLINT: implicit, as built in
  operator float() const { return Tag::decode(bits); }        // NOLINT

  static Float16 from_bits(uint16_t b) {
    Float16 x;
    x.bits = b;
    return x;
  }
  Float16& operator+=(float v) { return *this = Float16(float(*this) + v); }
  Float16& operator-=(float v) { return *this = Float16(float(*this) - v); }
  Float16& operator*=(float v) { return *this = Float16(float(*this) * v); }
  Float16& operator/=(float v) { return *this = Float16(float(*this) / v); }
  Float16 operator-() const { return from_bits(static_cast<uint16_t>(bits ^ 0x8000u)); }
};

struct HalfTag {
  static uint16_t encode(float f) { return float_to_half_bits(f); }
  static float decode(uint16_t b) { return half_bits_to_float(b); }
};
struct Bf16Tag {
  static uint16_t encode(float f) { return float_to_bf16_bits(f); }
  static float decode(uint16_t b) { return bits_float(uint32_t{b} << 16); }
};

}  // namespace aicore_ascendc

using half = aicore_ascendc::Float16<aicore_ascendc::HalfTag>;
using bfloat16_t = aicore_ascendc::Float16<aicore_ascendc::Bf16Tag>;
static_assert(sizeof(half) == 2 && std::is_trivially_copyable<half>::value, "half must be two plain bytes");
static_assert(sizeof(bfloat16_t) == 2 && std::is_trivially_copyable<bfloat16_t>::value,
              "bfloat16_t must be two plain bytes");

// int4b_t: a signed 4-bit integer (-8..7). A tensor of int4b_t holds two elements a byte, the
// element of even index in the low nibble (an assumption: docs/semantics.md, "int4"); its sizes
// and offsets count elements, its bytes are half as many (int4_bits / element_bytes below). One
// int4b_t object is one byte holding a value in its low nibble; the tensors never store objects
// (GetValue / SetValue of int4b_t do not compile).
struct int4b_t {
  uint8_t storage = 0;  // the low nibble
  int4b_t() = default;
  constexpr explicit int4b_t(int v) : storage(static_cast<uint8_t>(v & 0xF)) {}
  constexpr explicit operator int() const { return storage >= 8 ? int{storage} - 16 : int{storage}; }
};
static_assert(std::is_trivially_copyable<int4b_t>::value, "int4b_t must be plain bytes");
// Kernels name it both ways: int4b_t and AscendC::int4b_t.
namespace AscendC {
using ::int4b_t;
}  // namespace AscendC

namespace aicore_ascendc {
// Bits of one tensor element: 4 for int4b_t, else 8 * sizeof(T).
template <class T>
constexpr uint32_t element_bits() {
  return std::is_same<T, int4b_t>::value ? 4u : static_cast<uint32_t>(8 * sizeof(T));
}
// Bytes of `n` elements of T (int4b_t: n / 2; an odd n is the caller's error to report).
template <class T>
constexpr uint64_t element_bytes(uint64_t n) {
  return n * element_bits<T>() / 8;
}
}  // namespace aicore_ascendc
