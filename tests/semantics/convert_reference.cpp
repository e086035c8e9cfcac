#include "convert_reference.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace ref {

namespace {

double value_of_f32(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return static_cast<double>(f);
}

double half_value(uint16_t h) {  // from the definition: sign, 5-bit exponent, 10-bit fraction
  const int e = (h >> 10) & 31, m = h & 1023;
  return e == 0 ? std::ldexp(m, -24) : std::ldexp(1024 + m, e - 25);
}
double bf16_value(uint16_t h) {  // 8-bit exponent, 7-bit fraction
  const int e = (h >> 7) & 255, m = h & 127;
  return e == 0 ? std::ldexp(m, -133) : std::ldexp(128 + m, e - 134);
}

// Every finite non-negative encoding's value, ascending (encodings 0..max are in value order).
struct Table {
  std::vector<double> v;
  Table(uint16_t max, double (*value)(uint16_t)) {
    for (uint32_t h = 0; h <= max; ++h) v.push_back(value(static_cast<uint16_t>(h)));
  }
  uint16_t nearest(double a) const {  // a >= 0 and <= the largest value
    const auto it = std::lower_bound(v.begin(), v.end(), a);
    const auto hi = static_cast<uint16_t>(it - v.begin());
    if (*it == a || hi == 0) return hi;
    const auto lo = static_cast<uint16_t>(hi - 1);
    const double dl = a - v[lo], dh = v[hi] - a;
    if (dl != dh) return dl < dh ? lo : hi;
    return (lo % 2 == 0) ? lo : hi;  // a tie: the even encoding
  }
};

uint16_t saturate_to(uint32_t bits, const Table& t, uint16_t max) {
  const double x = value_of_f32(bits);
  if (std::isnan(x)) return 0;
  const uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  const double a = std::fabs(x);
  if (a >= t.v[max]) return sign | max;  // beyond the largest finite value, inf included
  return sign | t.nearest(a);
}

// p rounded to the nearest integer, ties to even, by comparing with the two candidates.
double round_even(double p) {
  const double lo = std::floor(p), d = p - lo;
  if (d < 0.5) return lo;
  if (d > 0.5) return lo + 1;
  return std::fmod(lo, 2.0) == 0 ? lo : lo + 1;
}

uint8_t to_b8(double p, const Deq& q) {
  double r = std::isinf(p) ? p : round_even(p);
  r = std::min(255.0, std::max(-256.0, r));
  int v = static_cast<int>(r) + q.offset;
  v = q.is_signed ? std::min(127, std::max(-128, v)) : std::min(255, std::max(0, v));
  return static_cast<uint8_t>(v & 0xFF);
}

// The fp32 product of two fp32 values: exact in double, then one rounding to fp32.
double f32_product(double a, double b) {
  return static_cast<double>(static_cast<float>(a * b));
}

}  // namespace

uint16_t to_half(uint32_t bits) {
  static const Table t(0x7BFF, half_value);
  return saturate_to(bits, t, 0x7BFF);
}

uint16_t to_bf16(uint32_t bits) {
  static const Table t(0x7F7F, bf16_value);
  return saturate_to(bits, t, 0x7F7F);
}

Deq decode(uint64_t d) {
  Deq q;
  q.scale = value_of_f32(static_cast<uint32_t>(d) & ~uint32_t{0x1FFF});
  const int off = static_cast<int>((d >> 37) & 511);
  q.offset = off > 255 ? off - 512 : off;
  q.is_signed = ((d >> 46) & 1) != 0;
  return q;
}

uint16_t deqf16(int32_t v, const Deq& q, bool relu) {
  const double fv = static_cast<double>(static_cast<float>(v));  // int32 -> fp32, to nearest even
  const double p = f32_product(fv, relu && v < 0 ? 0.0 : q.scale);
  const float pf = static_cast<float>(p);
  uint32_t b;
  std::memcpy(&b, &pf, 4);
  return to_half(b);
}

uint8_t req8(int32_t v, const Deq& q, bool relu) {
  const double fv = static_cast<double>(static_cast<float>(v));
  return to_b8(f32_product(fv, relu && v < 0 ? 0.0 : q.scale), q);
}

uint8_t qf322b8(uint32_t bits, const Deq& q, bool relu) {
  double x = value_of_f32(bits);
  if (std::isnan(x)) x = 0;
  const double m = relu && x < 0 ? 0.0 : q.scale;
  if (std::isinf(x)) return to_b8(m == 0 ? 0.0 : (x > 0) == (m > 0) ? INFINITY : -INFINITY, q);
  return to_b8(f32_product(x, m), q);
}

}  // namespace ref
