// Cube instructions: Mmad (int8/int4 -> int32 exact, half/bf16/float -> fp32) and MmadWithSparse
// (4:2 int8).
//
// int8 runs the native AVX-512 kernels (cube_avx512.cpp) when the CPU has them, else the
// portable ones here: operands unpacked once from their fractals into int16 rows (A: M16 x KP,
// B transposed: N16 x KP; 4:2 B' expanded by its indexes over the original K, two values on one
// A position summed exactly in int16), then a 4 x 4 register-blocked dot-product GEMM.
#include "aicore/semantics/kernels.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <string>
#include <vector>

#include "aicore/common/error.hpp"
#include "aicore/isa/check.hpp"
#include "aicore/semantics/convert.hpp"
#include "aicore/semantics/execute.hpp"
#include "aicore/semantics/sparsity.hpp"
#include "cube_kernels.hpp"

namespace aicore::sem {

namespace {

using isa::ceil_div;

std::atomic<KernelLevel> g_level{KernelLevel::Native};

// 4 x 4 outputs share every A and B load; GCC vectorises the k loop (pmaddwd / vpdpwssd).
template <class T>
inline void block4x4(const T* __restrict a, const T* __restrict b, int32_t* __restrict c, uint32_t n16,
                     uint32_t kp) {
  const T *a0 = a, *a1 = a + kp, *a2 = a + 2 * kp, *a3 = a + 3 * kp;
  const T *b0 = b, *b1 = b + kp, *b2 = b + 2 * kp, *b3 = b + 3 * kp;
  int32_t s[4][4] = {};
  for (uint32_t k = 0; k < kp; ++k) {
    const int32_t x[4] = {a0[k], a1[k], a2[k], a3[k]}, y[4] = {b0[k], b1[k], b2[k], b3[k]};
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) s[i][j] += x[i] * y[j];
  }
  for (int i = 0; i < 4; ++i) std::memcpy(c + i * n16, s[i], sizeof s[i]);
}

// c[m * n16 + n] = sum_k a[m * kp + k] * b[n * kp + k]; m16, n16 multiples of 16.
#define AICORE_GEMM_I16(name, attr)                                                                         \
  attr void name(const int16_t* a, const int16_t* b, int32_t* c, uint32_t m16, uint32_t n16, uint32_t kp) { \
    for (uint32_t m = 0; m < m16; m += 4)                                                                   \
      for (uint32_t n = 0; n < n16; n += 4)                                                                 \
        block4x4(a + uint64_t{m} * kp, b + uint64_t{n} * kp, c + uint64_t{m} * n16 + n, n16, kp);           \
  }
using GemmI16 = void (*)(const int16_t*, const int16_t*, int32_t*, uint32_t, uint32_t, uint32_t);
AICORE_GEMM_I16(gemm_i16_base, )
#if defined(__x86_64__) && !defined(__clang__)
// Chosen by CPU features, not by CPU model (target_clones("arch=...") keys on the model and
// falls back to SSE2 on CPUs GCC does not know by name).
AICORE_GEMM_I16(gemm_i16_v3, __attribute__((target("arch=x86-64-v3"))))
AICORE_GEMM_I16(gemm_i16_v4, __attribute__((target("arch=x86-64-v4"))))
GemmI16 pick_gemm_i16() {
  if (__builtin_cpu_supports("x86-64-v4")) return gemm_i16_v4;
  if (__builtin_cpu_supports("x86-64-v3")) return gemm_i16_v3;
  return gemm_i16_base;
}
#else
GemmI16 pick_gemm_i16() {
  return gemm_i16_base;
}
#endif
const GemmI16 gemm_i16 = pick_gemm_i16();

// fp32 accumulation in ascending k (the hardware order is not public; see docs/semantics.md).
void gemm_f32(const float* a, const float* b, float* c, uint32_t m16, uint32_t n16, uint32_t kp) {
  for (uint32_t m = 0; m < m16; ++m)
    for (uint32_t n = 0; n < n16; ++n) {
      float s = 0.0f;
      for (uint32_t k = 0; k < kp; ++k) s += a[uint64_t{m} * kp + k] * b[uint64_t{n} * kp + k];
      c[uint64_t{m} * n16 + n] = s;
    }
}

// Scratch reused across calls: L0A/L0B are at most tens of KiB, so this stays small.
struct Scratch {
  std::vector<int16_t> a16, b16;
  std::vector<float> af, bf;
  std::vector<int32_t> ci;
  std::vector<float> cf;
};
Scratch& scratch() {
  thread_local Scratch s;
  return s;
}

// int8 fractals (16 rows x 32 k) -> int16 rows of kp = k1n * 32, k < K only (padding zero).
// Zz (A): fractal (o, k1) at (o * k1n + k1); Zn (B, giving B transposed): at (k1 * outer + o).
void unpack_i8(const uint8_t* base, uint32_t outer, uint32_t k1n, uint32_t K, bool zz,
               std::vector<int16_t>& out) {
  const uint32_t kp = k1n * 32;
  out.assign(uint64_t{outer} * 16 * kp, 0);
  for (uint32_t o = 0; o < outer; ++o)
    for (uint32_t k1 = 0; k1 < k1n; ++k1) {
      const uint64_t f = zz ? uint64_t{o} * k1n + k1 : uint64_t{k1} * outer + o;
      const auto* frac = reinterpret_cast<const int8_t*>(base + f * 512);
      const uint32_t kv = K - k1 * 32 < 32 ? K - k1 * 32 : 32;
      for (uint32_t r = 0; r < 16; ++r) {
        int16_t* row = out.data() + (uint64_t{o} * 16 + r) * kp + k1 * 32;
        for (uint32_t c = 0; c < kv; ++c) row[c] = frac[r * 32 + c];
      }
    }
}

// int4 fractals (16 rows x 64 k, 32 bytes a row; element 2j in the low nibble of byte j, 2j+1 in
// the high one, sign-extended) -> int16 rows of kp = k1n * 64, k < K only. Same orders as unpack_i8.
void unpack_i4(const uint8_t* base, uint32_t outer, uint32_t k1n, uint32_t K, bool zz,
               std::vector<int16_t>& out) {
  const uint32_t kp = k1n * 64;
  out.assign(uint64_t{outer} * 16 * kp, 0);
  for (uint32_t o = 0; o < outer; ++o)
    for (uint32_t k1 = 0; k1 < k1n; ++k1) {
      const uint64_t f = zz ? uint64_t{o} * k1n + k1 : uint64_t{k1} * outer + o;
      const uint8_t* frac = base + f * 512;
      const uint32_t kv = K - k1 * 64 < 64 ? K - k1 * 64 : 64;
      for (uint32_t r = 0; r < 16; ++r) {
        int16_t* row = out.data() + (uint64_t{o} * 16 + r) * kp + k1 * 64;
        for (uint32_t c = 0; c < kv; ++c) {
          const uint32_t nib = (frac[r * 32 + c / 2] >> (4 * (c & 1))) & 0xFu;
          row[c] = static_cast<int16_t>(nib >= 8 ? static_cast<int>(nib) - 16 : static_cast<int>(nib));
        }
      }
    }
}

[[noreturn]] void bad_index(const isa::MmadWithSparse& op, uint64_t frac, uint32_t n1, uint32_t r, uint32_t j,
                            uint32_t g) {
  throw Fault(FaultKind::InvalidSparseIndex,
              "sparse index value 3 for column n=" + std::to_string(n1 * 16 + r) + ", group " +
                  std::to_string(g) + " (dense rows k'=" + std::to_string(2 * g) + ".." +
                  std::to_string(2 * g + 1) + "; index buffer byte " +
                  std::to_string(op.filter.offset / 4 + frac * 128 + r * 8 + j) + ")");
}

// 4:2 B' expanded by its indexes into b16[n][k] over the original K. Throws on an index 3.
void expand_sparse(const isa::MmadWithSparse& op, const MemoryView& mem, uint32_t n1n, uint32_t kp,
                   std::vector<int16_t>& out) {
  out.assign(uint64_t{n1n} * 16 * kp, 0);
  const uint8_t* filter = mem.ptr(op.filter);
  const uint8_t* index = mem.ptr(isa::Space::SparseIndex, 0, op.filter.offset / 4);
  const uint32_t groups = op.k / 4, kd1n = ceil_div(op.k, 64);
  for (uint32_t kd1 = 0; kd1 < kd1n; ++kd1)
    for (uint32_t n1 = 0; n1 < n1n; ++n1) {
      const uint64_t frac = uint64_t{kd1} * n1n + n1;
      const auto* w = reinterpret_cast<const int8_t*>(filter + frac * 512);
      const uint8_t* ix = index + frac * 128;
      for (uint32_t r = 0; r < 16; ++r) {
        int16_t* row = out.data() + (uint64_t{n1} * 16 + r) * kp;
        // One index byte covers dense elements 4j..4j+3 = groups 2j and 2j+1 of this fractal row.
        for (uint32_t j = 0; j < 8; ++j)
          for (uint32_t h = 0; h < 2; ++h) {
            const uint32_t g = kd1 * 16 + j * 2 + h;
            if (g >= groups) break;
            const uint8_t i0 = (ix[r * 8 + j] >> (4 * h)) & 3, i1 = (ix[r * 8 + j] >> (4 * h + 2)) & 3;
            if (i0 == 3 || i1 == 3) bad_index(op, frac, n1, r, j, g);
            row[4 * g + sparse_sel0(i0)] += w[r * 32 + j * 4 + h * 2];
            row[4 * g + sparse_sel1(i0, i1)] += w[r * 32 + j * 4 + h * 2 + 1];
          }
      }
    }
}

float bf16_to_float(uint16_t h) {
  const uint32_t bits = uint32_t{h} << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

// Unpacks 512-byte fractals of 16 rows x K0 elements into float rows of k1n * K0 (zero beyond K);
// `a_side` selects Zz (A) or Zn (B) order. `row(frac_row, kv, dst)` converts kv elements of one row.
// A's 16-row blocks are `a_stride` fractals apart (k1n, or more with kDirectionAlign's padding).
template <uint32_t K0, class Row>
void unpack_fractals(const uint8_t* base, uint32_t outer_n, uint32_t k1n, uint32_t K, bool a_side,
                     std::vector<float>& out, Row row, uint64_t a_stride = 0) {
  const uint32_t kp = k1n * K0;
  const uint64_t stride = a_stride ? a_stride : k1n;
  out.assign(uint64_t{outer_n} * 16 * kp, 0.0f);
  for (uint32_t o = 0; o < outer_n; ++o)
    for (uint32_t k1 = 0; k1 < k1n; ++k1) {
      const uint64_t frac_index = a_side ? uint64_t{o} * stride + k1 : uint64_t{k1} * outer_n + o;
      const uint8_t* frac = base + frac_index * 512;
      const uint32_t kv = K - k1 * K0 < K0 ? K - k1 * K0 : K0;
      for (uint32_t r = 0; r < 16; ++r) row(frac + r * 32, kv, &out[(uint64_t{o} * 16 + r) * kp + k1 * K0]);
    }
}

// b16 fractals (16 x 16 half or bf16).
void unpack_b16(const uint8_t* base, uint32_t outer_n, uint32_t k1n, uint32_t K, bool a_side, isa::DType t,
                std::vector<float>& out) {
  unpack_fractals<16>(base, outer_n, k1n, K, a_side, out, [t](const uint8_t* src, uint32_t kv, float* dst) {
    for (uint32_t c = 0; c < kv; ++c) {
      uint16_t h;
      std::memcpy(&h, src + c * 2, 2);
      dst[c] = t == isa::DType::Half ? half_to_float(h) : bf16_to_float(h);
    }
  });
}

// float fractals (16 x 8, K0 = 8): the bits as they are.
void unpack_f32(const uint8_t* base, uint32_t outer_n, uint32_t k1n, uint32_t K, bool a_side,
                std::vector<float>& out, uint64_t a_stride = 0) {
  unpack_fractals<8>(
      base, outer_n, k1n, K, a_side, out,
      [](const uint8_t* src, uint32_t kv, float* dst) { std::memcpy(dst, src, uint64_t{kv} * 4); }, a_stride);
}

// int32 accumulation wraps like the hardware adder (done in uint32 to stay defined behaviour).
inline int32_t add_cell(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}
inline float add_cell(float a, float b) {
  return a + b;
}

// Write (or add into) the Nz C fractals from a row-major m16 x n16 result.
template <class T>
void store_c(uint8_t* dst, const T* c, uint32_t m1n, uint32_t n1n, bool accumulate) {
  const uint32_t n16 = n1n * 16;
  for (uint32_t n1 = 0; n1 < n1n; ++n1)
    for (uint32_t m1 = 0; m1 < m1n; ++m1) {
      uint8_t* frac = dst + (uint64_t{n1} * m1n + m1) * 1024;
      for (uint32_t r = 0; r < 16; ++r) {
        T row[16];
        const T* src = c + (uint64_t{m1} * 16 + r) * n16 + n1 * 16;
        if (accumulate) {
          std::memcpy(row, frac + r * 64, 64);
          for (int j = 0; j < 16; ++j) row[j] = add_cell(row[j], src[j]);
        } else {
          std::memcpy(row, src, 64);
        }
        std::memcpy(frac + r * 64, row, 64);
      }
    }
}

// cmatrixSource=1: C starts as the bias, column n of every row from cell n of the table; the
// padding columns of a last partial 16-column block start from 0. The kernels then add A x B to
// it as to any accumulated C (docs/semantics.md, "Bias table").
void load_bias(const isa::MmadCommon& op, const MemoryView& mem) {
  const uint8_t* bias = mem.ptr(isa::Space::BiasTable, 0, op.biasAddr);
  uint8_t* dst = mem.ptr(op.dst);
  const uint32_t m1n = ceil_div(op.m, 16), n1n = ceil_div(op.n, 16);
  for (uint32_t n1 = 0; n1 < n1n; ++n1) {
    uint8_t row[64] = {};
    const uint32_t cols = std::min<uint32_t>(16, op.n - n1 * 16);
    std::memcpy(row, bias + uint64_t{n1} * 64, uint64_t{cols} * 4);
    for (uint32_t m1 = 0; m1 < m1n; ++m1) {
      uint8_t* frac = dst + (uint64_t{n1} * m1n + m1) * 1024;
      for (uint32_t r = 0; r < 16; ++r) std::memcpy(frac + r * 64, row, 64);
    }
  }
}

}  // namespace

void set_kernel_level(KernelLevel level) {
  g_level = level;
}
KernelLevel kernel_level() {
  return g_level;
}
bool native_int8_available() {
  return detail::avx512_vnni_supported();
}
bool native_sparse_available() {
  return detail::avx512_vbmi_supported();
}

void mmad(const isa::Mmad& op, const MemoryView& mem) {
  isa::check(op, mem.limits());
  if (op.m == 0 || op.n == 0 || op.k == 0) return;
  if (op.adds_bias()) load_bias(op, mem);
  const uint32_t m1n = ceil_div(op.m, 16), n1n = ceil_div(op.n, 16);
  Scratch& s = scratch();
  if (op.dtype == isa::DType::Int8) {
    if (g_level == KernelLevel::Native && native_int8_available()) return detail::mmad_i8_avx512(op, mem);
    const uint32_t k1n = ceil_div(op.k, 32);
    unpack_i8(mem.ptr(op.fm), m1n, k1n, op.k, true, s.a16);
    unpack_i8(mem.ptr(op.filter), n1n, k1n, op.k, false, s.b16);
    s.ci.resize(uint64_t{m1n} * n1n * 256);
    gemm_i16(s.a16.data(), s.b16.data(), s.ci.data(), m1n * 16, n1n * 16, k1n * 32);
    store_c(mem.ptr(op.dst), s.ci.data(), m1n, n1n, !op.starts_from_zero());
    return;
  }
  if (op.dtype == isa::DType::Int4) {  // exact like int8: |products| <= 64, K0 = 64
    const uint32_t k1n = ceil_div(op.k, 64);
    unpack_i4(mem.ptr(op.fm), m1n, k1n, op.k, true, s.a16);
    unpack_i4(mem.ptr(op.filter), n1n, k1n, op.k, false, s.b16);
    s.ci.resize(uint64_t{m1n} * n1n * 256);
    gemm_i16(s.a16.data(), s.b16.data(), s.ci.data(), m1n * 16, n1n * 16, k1n * 64);
    store_c(mem.ptr(op.dst), s.ci.data(), m1n, n1n, op.accumulates());
    return;
  }
  if (op.dtype == isa::DType::Float) {  // products and sums in float32, ascending k (docs/semantics.md §6)
    const uint32_t k1n = ceil_div(op.k, 8);
    unpack_f32(mem.ptr(op.fm), m1n, k1n, op.k, true, s.af, isa::mmad_a_k_fractals(op));
    unpack_f32(mem.ptr(op.filter), n1n, k1n, op.k, false, s.bf);
    s.cf.resize(uint64_t{m1n} * n1n * 256);
    gemm_f32(s.af.data(), s.bf.data(), s.cf.data(), m1n * 16, n1n * 16, k1n * 8);
    store_c(mem.ptr(op.dst), s.cf.data(), m1n, n1n, !op.starts_from_zero());
    return;
  }
  const uint32_t k1n = ceil_div(op.k, 16);
  unpack_b16(mem.ptr(op.fm), m1n, k1n, op.k, true, op.dtype, s.af);
  unpack_b16(mem.ptr(op.filter), n1n, k1n, op.k, false, op.dtype, s.bf);
  s.cf.resize(uint64_t{m1n} * n1n * 256);
  gemm_f32(s.af.data(), s.bf.data(), s.cf.data(), m1n * 16, n1n * 16, k1n * 16);
  store_c(mem.ptr(op.dst), s.cf.data(), m1n, n1n, !op.starts_from_zero());
}

void mmad_with_sparse(const isa::MmadWithSparse& op, const MemoryView& mem) {
  isa::check(op, mem.limits());
  if (op.m == 0 || op.n == 0 || op.k == 0) return;
  if (op.adds_bias()) load_bias(op, mem);
  // The native kernel declines (writing nothing) on an index value 3; the portable path below
  // then finds it and reports its position.
  if (g_level == KernelLevel::Native && native_sparse_available() && detail::mmad_sparse_avx512(op, mem))
    return;
  const uint32_t m1n = ceil_div(op.m, 16), n1n = ceil_div(op.n, 16), k1n = ceil_div(op.k, 32), kp = k1n * 32;
  Scratch& s = scratch();
  unpack_i8(mem.ptr(op.fm), m1n, k1n, op.k, true, s.a16);
  expand_sparse(op, mem, n1n, kp, s.b16);
  s.ci.resize(uint64_t{m1n} * n1n * 256);
  gemm_i16(s.a16.data(), s.b16.data(), s.ci.data(), m1n * 16, n1n * 16, kp);
  store_c(mem.ptr(op.dst), s.ci.data(), m1n, n1n, !op.starts_from_zero());
}

}  // namespace aicore::sem
