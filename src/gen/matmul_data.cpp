// Data and golden of the best-practice matmul kernel: plain loops and their own fp16/bf16
// conversions, sharing nothing with the semantics layer (matmul.hpp).
#include <algorithm>
#include <cmath>
#include <cstring>

#include "aicore/gen/matmul.hpp"
#include "aicore/gen/random.hpp"

namespace aicore::gen {

namespace {

uint32_t bits_of(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
float float_of(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// A K x N (nd) or N x K (nt) B element, by its (k, n) position.
uint64_t b_index(const MatmulShape& s, uint64_t k, uint64_t n) {
  return s.b_layout == BLayout::ND ? k * s.N + n : n * s.K + k;
}

}  // namespace

uint16_t float_to_bf16(float f) {
  const uint32_t u = bits_of(f);
  if (std::isnan(f)) return static_cast<uint16_t>((u >> 16) | 0x40);
  const uint32_t round = 0x7fff + ((u >> 16) & 1);  // to nearest, ties to even
  return static_cast<uint16_t>((u + round) >> 16);
}

float bf16_to_float(uint16_t h) {
  return float_of(uint32_t{h} << 16);
}

float half_to_float(uint16_t h) {
  const uint32_t sign = (h >> 15) & 1, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  float v;
  if (exp == 0)
    v = std::ldexp(static_cast<float>(mant), -24);  // zero and subnormals
  else if (exp == 31)
    v = mant ? NAN : INFINITY;
  else
    v = std::ldexp(static_cast<float>(mant | 0x400), static_cast<int>(exp) - 25);
  return sign ? -v : v;
}

uint16_t float_to_half(float f) {
  // Values here are in [-1, 1]: normal halves or zero/subnormals; round to nearest even.
  const uint16_t sign = std::signbit(f) ? 0x8000 : 0;
  const double a = std::fabs(static_cast<double>(f));
  if (a == 0) return sign;
  if (a >= 65520.0) return sign | 0x7c00;
  int e;
  std::frexp(a, &e);                     // a = m * 2^e, m in [0.5, 1)
  const int exp = std::max(e - 1, -14);  // unbiased exponent of the half, subnormals at -14
  const double q = std::nearbyint(std::ldexp(a, 10 - exp));  // mantissa in units of 2^(exp - 10)
  uint32_t bits = static_cast<uint32_t>(q);
  uint32_t biased = static_cast<uint32_t>(exp + 15);
  if (q < 1024) return sign | static_cast<uint16_t>(bits);  // subnormal (exp == -14)
  if (bits >= 2048) {                                       // rounded up to the next binade
    bits >>= 1;
    ++biased;
  }
  return sign | static_cast<uint16_t>((biased << 10) | (bits & 0x3ff));
}

MatmulData matmul_data(const MatmulPlan& p, uint64_t seed, bool exact) {
  const MatmulShape& s = p.shape;
  const bool half = s.dtype == isa::DType::Half;
  Rng rng(seed);
  auto draw = [&] {
    float v;
    if (exact)
      v = static_cast<float>(static_cast<int>(rng.below(17)) - 8) / 8.0f;
    else
      v = static_cast<float>(static_cast<double>(rng.next() >> 11) * 0x1.0p-52 - 1.0);
    return half ? float_to_half(v) : float_to_bf16(v);
  };
  auto value = [&](uint16_t h) { return static_cast<double>(half ? half_to_float(h) : bf16_to_float(h)); };
  MatmulData d;
  d.a.resize(uint64_t{s.M} * s.K);
  d.b.resize(uint64_t{s.K} * s.N);
  for (auto& x : d.a) x = draw();
  for (auto& x : d.b) x = draw();
  // The bias (drawn after A and B, which stay those of the same case without one): float, or
  // half as the GM tensor holds it; its value added to every row's sum.
  std::vector<double> bias(s.N, 0.0);
  if (p.opt.bias) {
    const bool bias_half = p.opt.bias_dtype == isa::DType::Half;
    d.bias.resize(uint64_t{s.N} * (bias_half ? 2 : 4));
    for (uint64_t n = 0; n < s.N; ++n) {
      float v = exact ? static_cast<float>(static_cast<int>(rng.below(17)) - 8) / 8.0f
                      : static_cast<float>(static_cast<double>(rng.next() >> 11) * 0x1.0p-52 - 1.0);
      if (bias_half) {
        const uint16_t h = float_to_half(v);
        std::memcpy(&d.bias[n * 2], &h, 2);
        v = half_to_float(h);
      } else {
        std::memcpy(&d.bias[n * 4], &v, 4);
      }
      bias[n] = v;
    }
  }
  d.golden.assign(uint64_t{s.M} * s.N, 0.0f);
  std::vector<double> bcol(s.K);
  for (uint64_t n = 0; n < s.N; ++n) {
    for (uint64_t k = 0; k < s.K; ++k) bcol[k] = value(d.b[b_index(s, k, n)]);
    for (uint64_t m = 0; m < s.M; ++m) {
      double acc = bias[n];
      for (uint64_t k = 0; k < s.K; ++k) acc += value(d.a[m * s.K + k]) * bcol[k];
      d.golden[m * s.N + n] = static_cast<float>(acc);
    }
  }
  return d;
}

std::vector<float> matmul_tolerance(const MatmulPlan& p, const MatmulData& d) {
  const MatmulShape& s = p.shape;
  const bool half = s.dtype == isa::DType::Half;
  auto value = [&](uint16_t h) {
    return std::fabs(static_cast<double>(half ? half_to_float(h) : bf16_to_float(h)));
  };
  std::vector<float> tol(uint64_t{s.M} * s.N);
  for (uint64_t m = 0; m < s.M; ++m)
    for (uint64_t n = 0; n < s.N; ++n) {
      double sum = 0;
      if (p.opt.bias) {
        float b;
        if (p.opt.bias_dtype == isa::DType::Half) {
          uint16_t h;
          std::memcpy(&h, &d.bias[n * 2], 2);
          b = half_to_float(h);
        } else {
          std::memcpy(&b, &d.bias[n * 4], 4);
        }
        sum += std::fabs(static_cast<double>(b));
      }
      for (uint64_t k = 0; k < s.K; ++k) sum += value(d.a[m * s.K + k]) * value(d.b[b_index(s, k, n)]);
      double t = 1e-5 * sum + 1e-6;
      // C in half/bf16: the fp32 result and the golden may round to neighbouring values.
      if (s.c_dtype != isa::DType::Float) {
        const double g = std::fabs(static_cast<double>(d.golden[m * s.N + n])) + t;
        const int bits = s.c_dtype == isa::DType::Half ? 10 : 7;
        int e;
        std::frexp(g, &e);  // g = f * 2^e, f in [0.5, 1): one ulp is 2^(e - 1 - bits)
        t += std::max(std::ldexp(1.0, e - 1 - bits),
                      s.c_dtype == isa::DType::Half ? std::ldexp(1.0, -24) : 0.0);
      }
      tol[m * s.N + n] = static_cast<float>(t);
    }
  return tol;
}

std::vector<uint8_t> matmul_golden_bytes(const MatmulPlan& p, const MatmulData& d) {
  const isa::DType t = p.shape.c_dtype;
  std::vector<uint8_t> out(d.golden.size() * isa::byte_size(t));
  for (size_t i = 0; i < d.golden.size(); ++i) {
    if (t == isa::DType::Float) {
      std::memcpy(&out[i * 4], &d.golden[i], 4);
      continue;
    }
    const uint16_t h = t == isa::DType::Half ? float_to_half(d.golden[i]) : float_to_bf16(d.golden[i]);
    std::memcpy(&out[i * 2], &h, 2);
  }
  return out;
}

}  // namespace aicore::gen
