#include "aicore/semantics/atomic.hpp"

#include <cmath>
#include <cstring>
#include <string>

#include "aicore/common/error.hpp"

namespace aicore::sem {

namespace {
constexpr uint32_t kF32DefaultNan = 0x7FC00000u;
constexpr uint16_t kF16DefaultNan = 0x7E00u;

// The value of a half, exactly (every half is a double).
double half_value(uint16_t h) {
  const int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  double v = e == 0 ? std::ldexp(m, -24) : e == 31 ? INFINITY : std::ldexp(m + 1024, e - 25);
  return h & 0x8000u ? -v : v;
}

// `x` rounded once to half, to nearest with ties to even; beyond the largest half: infinity.
uint16_t to_half_rne(double x) {
  const uint16_t sign = std::signbit(x) ? 0x8000u : 0;
  const double a = std::fabs(x);
  if (std::isinf(a)) return sign | 0x7C00u;
  if (a < std::ldexp(1.0, -14)) {  // subnormal (or the smallest normal after rounding up)
    const double q = std::nearbyint(a * std::ldexp(1.0, 24));  // default rounding: to nearest even
    return static_cast<uint16_t>(sign | static_cast<uint16_t>(q));
  }
  int exp = 0;
  const double frac = std::frexp(a, &exp);   // a = frac * 2^exp, frac in [0.5, 1)
  double q = std::nearbyint(frac * 2048.0);  // 11 significant bits, in [1024, 2048]
  int e = exp - 1;                           // a = (q / 1024) * 2^e
  if (q == 2048.0) {
    q = 1024.0;
    ++e;
  }
  if (e > 15) return sign | 0x7C00u;
  return static_cast<uint16_t>(sign | (e + 15) << 10 | (static_cast<uint16_t>(q) - 1024));
}
}  // namespace

uint32_t f32_add(uint32_t a_bits, uint32_t b_bits) {
  float a, b;
  std::memcpy(&a, &a_bits, 4);
  std::memcpy(&b, &b_bits, 4);
  const float s = a + b;  // one IEEE binary32 add: to nearest, ties to even
  if (std::isnan(s)) return kF32DefaultNan;
  uint32_t out;
  std::memcpy(&out, &s, 4);
  return out;
}

uint16_t f16_add(uint16_t a_bits, uint16_t b_bits) {
  const double a = half_value(a_bits), b = half_value(b_bits);
  if (std::isnan(a) || std::isnan(b) || ((a_bits & 0x7FFFu) > 0x7C00u) || ((b_bits & 0x7FFFu) > 0x7C00u))
    return kF16DefaultNan;
  // Two halves differ by at most 2^40 in scale: their sum is exact in a double, so one rounding.
  const double s = a + b;
  if (std::isnan(s)) return kF16DefaultNan;  // inf + -inf
  if (s == 0.0)                              // IEEE: x + (-x) is +0; -0 + -0 is -0
    return (a_bits & 0x8000u) && (b_bits & 0x8000u) ? 0x8000u : 0;
  return to_half_rne(s);
}

void check_atomic_type(const isa::Fixpipe& f, isa::DType added) {
  const isa::DType out = isa::output_dtype(f);
  if (out != added || isa::output_unsigned(f))
    throw Fault(FaultKind::InvalidField, std::string("SetAtomicAdd dtype=") + isa::to_string(added) +
                                             " adds, but this Fixpipe writes " +
                                             (isa::output_unsigned(f) ? "uint8" : isa::to_string(out)) +
                                             " elements (quantPre " + isa::to_string(f.quantPre) +
                                             ", dtype " + isa::to_string(f.dtype) +
                                             "): SetAtomicAdd<T> must name the type the Fixpipe writes");
}

void atomic_add(isa::DType t, uint8_t* dst, const uint8_t* src, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    if (t == isa::DType::Half) {
      uint16_t a, b;
      std::memcpy(&a, dst + i * 2, 2);
      std::memcpy(&b, src + i * 2, 2);
      const uint16_t s = f16_add(a, b);
      std::memcpy(dst + i * 2, &s, 2);
    } else {
      uint32_t a, b;
      std::memcpy(&a, dst + i * 4, 4);
      std::memcpy(&b, src + i * 4, 4);
      const uint32_t s = t == isa::DType::Float ? f32_add(a, b) : a + b;  // int32: wraps
      std::memcpy(dst + i * 4, &s, 4);
    }
  }
}

}  // namespace aicore::sem
