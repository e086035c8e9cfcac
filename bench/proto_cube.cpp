#include "proto_cube.hpp"

#include <cstring>
#include <stdexcept>
#include <vector>

#include "aicore/isa/check.hpp"
#include "aicore/semantics/sparsity.hpp"

namespace bench::proto {

namespace {

using aicore::isa::ceil_div;

#if defined(__x86_64__) && !defined(__clang__)
#define PROTO_CLONES __attribute__((target_clones("arch=cascadelake", "arch=haswell", "default")))
#else
#define PROTO_CLONES
#endif

// 4 x 4 register block: 16 independent dot products share every A and B load. GCC vectorises
// the k loop into 16 vector accumulators (vpdpwssd / vpmaddwd for int16, vpdpbusd for u8 x s8).
// m16, n16: multiples of 16; kp: multiple of 32.
template <class TA, class TB>
inline void block4x4(const TA* __restrict a, const TB* __restrict b, int32_t* __restrict c, uint32_t n16,
                     uint32_t kp) {
  const TA *a0 = a, *a1 = a + kp, *a2 = a + 2 * kp, *a3 = a + 3 * kp;
  const TB *b0 = b, *b1 = b + kp, *b2 = b + 2 * kp, *b3 = b + 3 * kp;
  int32_t s00 = 0, s01 = 0, s02 = 0, s03 = 0, s10 = 0, s11 = 0, s12 = 0, s13 = 0;
  int32_t s20 = 0, s21 = 0, s22 = 0, s23 = 0, s30 = 0, s31 = 0, s32 = 0, s33 = 0;
  for (uint32_t k = 0; k < kp; ++k) {
    const int32_t x0 = a0[k], x1 = a1[k], x2 = a2[k], x3 = a3[k];
    const int32_t y0 = b0[k], y1 = b1[k], y2 = b2[k], y3 = b3[k];
    s00 += x0 * y0, s01 += x0 * y1, s02 += x0 * y2, s03 += x0 * y3;
    s10 += x1 * y0, s11 += x1 * y1, s12 += x1 * y2, s13 += x1 * y3;
    s20 += x2 * y0, s21 += x2 * y1, s22 += x2 * y2, s23 += x2 * y3;
    s30 += x3 * y0, s31 += x3 * y1, s32 += x3 * y2, s33 += x3 * y3;
  }
  const int32_t out[4][4] = {{s00, s01, s02, s03}, {s10, s11, s12, s13}, {s20, s21, s22, s23}, {s30, s31, s32, s33}};
  for (int i = 0; i < 4; ++i) std::memcpy(c + i * n16, out[i], sizeof out[i]);
}

// The sums stay inside int32 for every shape L0 can hold (K <= 4096: 4096 * 255 * 128 < 2^31).
PROTO_CLONES
void gemm_i16(const int16_t* a, const int16_t* b, int32_t* c, uint32_t m16, uint32_t n16, uint32_t kp) {
  for (uint32_t m = 0; m < m16; m += 4)
    for (uint32_t n = 0; n < n16; n += 4)
      block4x4(a + uint64_t{m} * kp, b + uint64_t{n} * kp, c + uint64_t{m} * n16 + n, n16, kp);
}
PROTO_CLONES
void gemm_u8s8(const uint8_t* a, const int8_t* b, int32_t* c, uint32_t m16, uint32_t n16, uint32_t kp) {
  for (uint32_t m = 0; m < m16; m += 4)
    for (uint32_t n = 0; n < n16; n += 4)
      block4x4(a + uint64_t{m} * kp, b + uint64_t{n} * kp, c + uint64_t{m} * n16 + n, n16, kp);
}

struct Scratch {
  std::vector<int16_t> a16, b16;
  std::vector<uint8_t> au;
  std::vector<int8_t> b8;
  std::vector<int32_t> c, colsum;
};
Scratch& scratch() {
  thread_local Scratch s;
  return s;
}

// Fractals (16 rows x 32 int8) -> rows of kp = k1n * 32 elements; columns k >= K are zeroed so
// padding bytes in L0 never reach the sum. Zz (A): fractal (o, k1); Zn (B): fractal (k1, o).
template <class T, class Conv>
void unpack(const uint8_t* base, uint32_t outer, uint32_t k1n, uint32_t K, bool zz, std::vector<T>& out, Conv conv) {
  const uint32_t kp = k1n * 32;
  out.resize(uint64_t{outer} * 16 * kp);
  for (uint32_t o = 0; o < outer; ++o)
    for (uint32_t k1 = 0; k1 < k1n; ++k1) {
      const uint8_t* f = base + (zz ? uint64_t{o} * k1n + k1 : uint64_t{k1} * outer + o) * 512;
      for (uint32_t r = 0; r < 16; ++r) {
        T* row = out.data() + (uint64_t{o} * 16 + r) * kp + k1 * 32;
        for (uint32_t c = 0; c < 32; ++c) row[c] = k1 * 32 + c < K ? conv(static_cast<int8_t>(f[r * 32 + c])) : conv(0);
      }
    }
}
auto to_i16 = [](int8_t v) { return int16_t{v}; };
auto to_i8 = [](int8_t v) { return v; };
auto to_biased_u8 = [](int8_t v) { return static_cast<uint8_t>(v + 128); };

// Expand 4:2 B' by its indexes into rows over the original K (same rules as sem). Returns
// false when T is int8 and two values land on one A element (sum may overflow int8).
template <class T>
bool expand_sparse(const aicore::isa::MmadWithSparse& op, const aicore::sem::MemoryView& mem, uint32_t n1n,
                   uint32_t kp, std::vector<T>& out) {
  out.assign(uint64_t{n1n} * 16 * kp, 0);
  const uint8_t* filter = mem.ptr(op.filter);
  const uint8_t* index = mem.ptr(aicore::isa::Space::SparseIndex, 0, op.filter.offset / 4);
  const uint32_t groups = op.k / 4, kd1n = ceil_div(op.k, 64);
  for (uint32_t kd1 = 0; kd1 < kd1n; ++kd1)
    for (uint32_t n1 = 0; n1 < n1n; ++n1) {
      const uint64_t frac = uint64_t{kd1} * n1n + n1;
      const auto* w = reinterpret_cast<const int8_t*>(filter + frac * 512);
      const uint8_t* ix = index + frac * 128;
      for (uint32_t r = 0; r < 16; ++r) {
        T* row = out.data() + (uint64_t{n1} * 16 + r) * kp;
        for (uint32_t j = 0; j < 8; ++j)
          for (uint32_t h = 0; h < 2; ++h) {
            const uint32_t g = kd1 * 16 + j * 2 + h;
            if (g >= groups) break;
            const uint8_t i0 = (ix[r * 8 + j] >> (4 * h)) & 3, i1 = (ix[r * 8 + j] >> (4 * h + 2)) & 3;
            if (i0 == 3 || i1 == 3) throw std::runtime_error("proto: sparse index 3");
            const uint8_t s0 = aicore::sem::sparse_sel0(i0), s1 = aicore::sem::sparse_sel1(i0, i1);
            if (sizeof(T) == 1 && s0 == s1) return false;
            row[4 * g + s0] = static_cast<T>(row[4 * g + s0] + w[r * 32 + j * 4 + h * 2]);
            row[4 * g + s1] = static_cast<T>(row[4 * g + s1] + w[r * 32 + j * 4 + h * 2 + 1]);
          }
      }
    }
  return true;
}

// Row-major m16 x n16 -> Nz fractals (n1, m1) of 16 x 16 int32; accumulation wraps like the adder.
void store_c(uint8_t* dst, const int32_t* c, uint32_t m1n, uint32_t n1n, bool accumulate) {
  const uint32_t n16 = n1n * 16;
  for (uint32_t n1 = 0; n1 < n1n; ++n1)
    for (uint32_t m1 = 0; m1 < m1n; ++m1)
      for (uint32_t r = 0; r < 16; ++r) {
        uint8_t* cell = dst + (uint64_t{n1} * m1n + m1) * 1024 + r * 64;
        const int32_t* src = c + (uint64_t{m1} * 16 + r) * n16 + n1 * 16;
        uint32_t row[16];
        std::memcpy(row, src, 64);
        if (accumulate) {
          uint32_t old[16];
          std::memcpy(old, cell, 64);
          for (int j = 0; j < 16; ++j) row[j] += old[j];
        }
        std::memcpy(cell, row, 64);
      }
}

// u8 x s8 result minus the bias: sum (a + 128) b - 128 sum b = sum a b (mod 2^32).
void unbias(std::vector<int32_t>& c, const std::vector<int8_t>& b8, uint32_t m16, uint32_t n16, uint32_t kp,
            std::vector<int32_t>& colsum) {
  colsum.assign(n16, 0);
  for (uint32_t n = 0; n < n16; ++n)
    for (uint32_t k = 0; k < kp; ++k) colsum[n] += b8[uint64_t{n} * kp + k];
  for (uint32_t m = 0; m < m16; ++m)
    for (uint32_t n = 0; n < n16; ++n) c[uint64_t{m} * n16 + n] -= 128 * colsum[n];
}

template <class Op>
bool trivial(const Op& op, const aicore::sem::MemoryView& mem) {
  aicore::isa::check(op, mem.limits());
  return op.m == 0 || op.n == 0 || op.k == 0;
}

}  // namespace

void mmad_i16_blocked(const aicore::isa::Mmad& op, const aicore::sem::MemoryView& mem) {
  if (trivial(op, mem)) return;
  if (op.dtype != aicore::isa::DType::Int8) throw std::invalid_argument("proto: int8 only");
  const uint32_t m1n = ceil_div(op.m, 16), n1n = ceil_div(op.n, 16), k1n = ceil_div(op.k, 32), kp = k1n * 32;
  Scratch& s = scratch();
  unpack(mem.ptr(op.fm), m1n, k1n, op.k, true, s.a16, to_i16);
  unpack(mem.ptr(op.filter), n1n, k1n, op.k, false, s.b16, to_i16);
  s.c.resize(uint64_t{m1n} * n1n * 256);
  gemm_i16(s.a16.data(), s.b16.data(), s.c.data(), m1n * 16, n1n * 16, kp);
  store_c(mem.ptr(op.dst), s.c.data(), m1n, n1n, op.accumulates());
}

void sparse_i16_blocked(const aicore::isa::MmadWithSparse& op, const aicore::sem::MemoryView& mem) {
  if (trivial(op, mem)) return;
  const uint32_t m1n = ceil_div(op.m, 16), n1n = ceil_div(op.n, 16), k1n = ceil_div(op.k, 32), kp = k1n * 32;
  Scratch& s = scratch();
  unpack(mem.ptr(op.fm), m1n, k1n, op.k, true, s.a16, to_i16);
  expand_sparse(op, mem, n1n, kp, s.b16);
  s.c.resize(uint64_t{m1n} * n1n * 256);
  gemm_i16(s.a16.data(), s.b16.data(), s.c.data(), m1n * 16, n1n * 16, kp);
  store_c(mem.ptr(op.dst), s.c.data(), m1n, n1n, op.accumulates());
}

void mmad_u8s8_blocked(const aicore::isa::Mmad& op, const aicore::sem::MemoryView& mem) {
  if (trivial(op, mem)) return;
  if (op.dtype != aicore::isa::DType::Int8) throw std::invalid_argument("proto: int8 only");
  const uint32_t m1n = ceil_div(op.m, 16), n1n = ceil_div(op.n, 16), k1n = ceil_div(op.k, 32), kp = k1n * 32;
  Scratch& s = scratch();
  unpack(mem.ptr(op.fm), m1n, k1n, op.k, true, s.au, to_biased_u8);
  unpack(mem.ptr(op.filter), n1n, k1n, op.k, false, s.b8, to_i8);
  s.c.resize(uint64_t{m1n} * n1n * 256);
  gemm_u8s8(s.au.data(), s.b8.data(), s.c.data(), m1n * 16, n1n * 16, kp);
  unbias(s.c, s.b8, m1n * 16, n1n * 16, kp, s.colsum);
  store_c(mem.ptr(op.dst), s.c.data(), m1n, n1n, op.accumulates());
}

void sparse_u8s8_blocked(const aicore::isa::MmadWithSparse& op, const aicore::sem::MemoryView& mem) {
  if (trivial(op, mem)) return;
  const uint32_t m1n = ceil_div(op.m, 16), n1n = ceil_div(op.n, 16), k1n = ceil_div(op.k, 32), kp = k1n * 32;
  Scratch& s = scratch();
  if (!expand_sparse(op, mem, n1n, kp, s.b8)) return sparse_i16_blocked(op, mem);
  unpack(mem.ptr(op.fm), m1n, k1n, op.k, true, s.au, to_biased_u8);
  s.c.resize(uint64_t{m1n} * n1n * 256);
  gemm_u8s8(s.au.data(), s.b8.data(), s.c.data(), m1n * 16, n1n * 16, kp);
  unbias(s.c, s.b8, m1n * 16, n1n * 16, kp, s.colsum);
  store_c(mem.ptr(op.dst), s.c.data(), m1n, n1n, op.accumulates());
}

}  // namespace bench::proto
