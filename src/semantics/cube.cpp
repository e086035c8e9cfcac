// Cube instructions: Mmad (int8 -> int32 exact, half/bf16 -> fp32) and MmadWithSparse (4:2 int8).
//
// Host-speed strategy: operands are unpacked once from their fractal layouts into row-major
// int16 rows (A: M16 x KP, B: N16 x KP, i.e. B transposed), so every output cell is one
// contiguous dot product that GCC turns into pmaddwd / vpdpwssd. 4:2 sparse B' is expanded
// by its indexes into the same dense row form (two values may land on one A position; int16
// holds their sum exactly), then runs the same kernel.
#include <cstring>
#include <string>
#include <vector>

#include "aicore/common/error.hpp"
#include "aicore/isa/check.hpp"
#include "aicore/semantics/execute.hpp"
#include "aicore/semantics/sparsity.hpp"

namespace aicore::sem {

namespace {

using isa::ceil_div;

// Runtime dispatch to the widest vector ISA the host has, keeping the binary portable.
#if defined(__x86_64__) && !defined(__clang__)
#define AICORE_VECTOR_CLONES __attribute__((target_clones("arch=cascadelake", "arch=haswell", "default")))
#else
#define AICORE_VECTOR_CLONES
#endif

// c[m * n16 + n] = sum_k a[m * kp + k] * b[n * kp + k]
AICORE_VECTOR_CLONES
void gemm_i16(const int16_t* __restrict a, const int16_t* __restrict b, int32_t* __restrict c, uint32_t m16,
              uint32_t n16, uint32_t kp) {
  for (uint32_t m = 0; m < m16; ++m) {
    const int16_t* ar = a + uint64_t{m} * kp;
    for (uint32_t n = 0; n < n16; ++n) {
      const int16_t* br = b + uint64_t{n} * kp;
      int32_t s = 0;
      for (uint32_t k = 0; k < kp; ++k) s += int32_t{ar[k]} * int32_t{br[k]};
      c[uint64_t{m} * n16 + n] = s;
    }
  }
}

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

// A (Zz int8, M1 x K1 fractals) -> a16[m][k], k < K only (padding columns zero).
void unpack_a_i8(const uint8_t* fm, uint32_t m1n, uint32_t k1n, uint32_t K, std::vector<int16_t>& out) {
  const uint32_t kp = k1n * 32;
  out.assign(uint64_t{m1n} * 16 * kp, 0);
  for (uint32_t m1 = 0; m1 < m1n; ++m1)
    for (uint32_t k1 = 0; k1 < k1n; ++k1) {
      const auto* frac = reinterpret_cast<const int8_t*>(fm + (uint64_t{m1} * k1n + k1) * 512);
      const uint32_t kv = K - k1 * 32 < 32 ? K - k1 * 32 : 32;
      for (uint32_t r = 0; r < 16; ++r) {
        int16_t* row = out.data() + (uint64_t{m1} * 16 + r) * kp + k1 * 32;
        for (uint32_t c = 0; c < kv; ++c) row[c] = frac[r * 32 + c];
      }
    }
}

// B (Zn int8, K1 x N1 fractals) -> b16[n][k] (B transposed), k < K only.
void unpack_b_i8(const uint8_t* filter, uint32_t k1n, uint32_t n1n, uint32_t K, std::vector<int16_t>& out) {
  const uint32_t kp = k1n * 32;
  out.assign(uint64_t{n1n} * 16 * kp, 0);
  for (uint32_t k1 = 0; k1 < k1n; ++k1)
    for (uint32_t n1 = 0; n1 < n1n; ++n1) {
      const auto* frac = reinterpret_cast<const int8_t*>(filter + (uint64_t{k1} * n1n + n1) * 512);
      const uint32_t kv = K - k1 * 32 < 32 ? K - k1 * 32 : 32;
      for (uint32_t r = 0; r < 16; ++r) {
        int16_t* row = out.data() + (uint64_t{n1} * 16 + r) * kp + k1 * 32;
        for (uint32_t c = 0; c < kv; ++c) row[c] = frac[r * 32 + c];
      }
    }
}

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
float bf16_to_float(uint16_t h) {
  const uint32_t bits = uint32_t{h} << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

// b16 fractal (16 x 16 elements, 512 B) unpack into float rows; `a_side` selects Zz (A) or Zn (B) order.
void unpack_b16(const uint8_t* base, uint32_t outer_n, uint32_t k1n, uint32_t K, bool a_side, isa::DType t,
                std::vector<float>& out) {
  const uint32_t kp = k1n * 16;
  out.assign(uint64_t{outer_n} * 16 * kp, 0.0f);
  for (uint32_t o = 0; o < outer_n; ++o)
    for (uint32_t k1 = 0; k1 < k1n; ++k1) {
      const uint64_t frac_index = a_side ? uint64_t{o} * k1n + k1 : uint64_t{k1} * outer_n + o;
      const uint8_t* frac = base + frac_index * 512;
      const uint32_t kv = K - k1 * 16 < 16 ? K - k1 * 16 : 16;
      for (uint32_t r = 0; r < 16; ++r)
        for (uint32_t c = 0; c < kv; ++c) {
          uint16_t h;
          std::memcpy(&h, frac + (r * 16 + c) * 2, 2);
          out[(uint64_t{o} * 16 + r) * kp + k1 * 16 + c] = t == isa::DType::Half ? half_to_float(h) : bf16_to_float(h);
        }
    }
}

// int32 accumulation wraps like the hardware adder (done in uint32 to stay defined behaviour).
inline int32_t add_cell(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}
inline float add_cell(float a, float b) { return a + b; }

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

}  // namespace

void mmad(const isa::Mmad& op, const MemoryView& mem) {
  isa::check(op, mem.limits());
  if (op.m == 0 || op.n == 0 || op.k == 0) return;
  const uint32_t m1n = ceil_div(op.m, 16), n1n = ceil_div(op.n, 16);
  Scratch& s = scratch();
  if (op.dtype == isa::DType::Int8) {
    const uint32_t k1n = ceil_div(op.k, 32);
    unpack_a_i8(mem.ptr(op.fm), m1n, k1n, op.k, s.a16);
    unpack_b_i8(mem.ptr(op.filter), k1n, n1n, op.k, s.b16);
    s.ci.resize(uint64_t{m1n} * n1n * 256);
    gemm_i16(s.a16.data(), s.b16.data(), s.ci.data(), m1n * 16, n1n * 16, k1n * 32);
    store_c(mem.ptr(op.dst), s.ci.data(), m1n, n1n, op.accumulates());
    return;
  }
  const uint32_t k1n = ceil_div(op.k, 16);
  unpack_b16(mem.ptr(op.fm), m1n, k1n, op.k, true, op.dtype, s.af);
  unpack_b16(mem.ptr(op.filter), n1n, k1n, op.k, false, op.dtype, s.bf);
  s.cf.resize(uint64_t{m1n} * n1n * 256);
  gemm_f32(s.af.data(), s.bf.data(), s.cf.data(), m1n * 16, n1n * 16, k1n * 16);
  store_c(mem.ptr(op.dst), s.cf.data(), m1n, n1n, op.accumulates());
}

void mmad_with_sparse(const isa::MmadWithSparse& op, const MemoryView& mem) {
  isa::check(op, mem.limits());
  if (op.m == 0 || op.n == 0 || op.k == 0) return;
  const uint32_t m1n = ceil_div(op.m, 16), n1n = ceil_div(op.n, 16);
  const uint32_t k1n = ceil_div(op.k, 32);   // A fractals along K
  const uint32_t kd1n = ceil_div(op.k, 64);  // B' fractals along K/2
  const uint32_t kp = k1n * 32;
  Scratch& s = scratch();
  unpack_a_i8(mem.ptr(op.fm), m1n, k1n, op.k, s.a16);

  // Expand B' by its indexes into b16[n][k] over the original K.
  s.b16.assign(uint64_t{n1n} * 16 * kp, 0);
  const uint8_t* filter = mem.ptr(op.filter);
  const uint8_t* index = mem.ptr(isa::Space::SparseIndex, 0, op.filter.offset / 4);
  const uint32_t groups = op.k / 4;
  for (uint32_t kd1 = 0; kd1 < kd1n; ++kd1)
    for (uint32_t n1 = 0; n1 < n1n; ++n1) {
      const uint64_t frac = uint64_t{kd1} * n1n + n1;
      const auto* w = reinterpret_cast<const int8_t*>(filter + frac * 512);
      const uint8_t* ix = index + frac * 128;
      for (uint32_t r = 0; r < 16; ++r) {
        int16_t* row = s.b16.data() + (uint64_t{n1} * 16 + r) * kp;
        // One index byte covers dense elements 4j..4j+3 = groups 2j and 2j+1 of this fractal row.
        for (uint32_t j = 0; j < 8; ++j) {
          const uint8_t byte = ix[r * 8 + j];
          for (uint32_t h = 0; h < 2; ++h) {
            const uint32_t g = kd1 * 16 + j * 2 + h;
            if (g >= groups) break;
            const uint8_t i0 = (byte >> (4 * h)) & 3, i1 = (byte >> (4 * h + 2)) & 3;
            if (i0 == 3 || i1 == 3) {
              const uint32_t n = n1 * 16 + r;
              throw Fault(FaultKind::InvalidSparseIndex,
                          "sparse index value 3 for column n=" + std::to_string(n) + ", group " + std::to_string(g) +
                              " (dense rows k'=" + std::to_string(2 * g) + ".." + std::to_string(2 * g + 1) +
                              "; index buffer byte " + std::to_string(op.filter.offset / 4 + frac * 128 + r * 8 + j) +
                              ")");
            }
            row[4 * g + sparse_sel0(i0)] += w[r * 32 + j * 4 + h * 2];
            row[4 * g + sparse_sel1(i0, i1)] += w[r * 32 + j * 4 + h * 2 + 1];
          }
        }
      }
    }
  s.ci.resize(uint64_t{m1n} * n1n * 256);
  gemm_i16(s.a16.data(), s.b16.data(), s.ci.data(), m1n * 16, n1n * 16, kp);
  store_c(mem.ptr(op.dst), s.ci.data(), m1n, n1n, op.accumulates());
}

}  // namespace aicore::sem
