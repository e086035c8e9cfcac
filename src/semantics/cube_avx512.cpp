// Native int8 Cube kernels for x86 CPUs with AVX-512 VNNI (+ VBMI for 4:2 sparse).
//
// Outer-product form: a zmm lane is one output column n, so 16 lanes are one row of an Nz
// C fractal. Results go to L0C without a horizontal reduction and A is read straight from its
// Zz fractals. vpdpbusd multiplies u8 x s8, so one side is biased by +128 (x ^ 0x80) and
// 128 x (sum of the other side) is subtracted at the end: exact in int32 for every shape L0
// can hold. Built with target attributes and chosen at run time by CPU features, so the
// binary still runs on any x86-64.
#include <cstring>
#include <vector>

#include "aicore/isa/check.hpp"
#include "aicore/semantics/sparsity.hpp"
#include "cube_kernels.hpp"

#if defined(__x86_64__) && !defined(__clang__)
#include <immintrin.h>
#define AICORE_NATIVE_KERNELS 1
#endif

namespace aicore::sem::detail {

#ifdef AICORE_NATIVE_KERNELS
namespace {

using isa::ceil_div;
#define VNNI_TARGET __attribute__((target("arch=x86-64-v4,avx512vnni")))
#define VBMI_TARGET __attribute__((target("arch=x86-64-v4,avx512vnni,avx512vbmi")))

struct Scratch {
  std::vector<uint32_t> bq;    // dense: [k/4][n16] B biased to u8, 4 k per dword (B = 0 -> 0x80)
  std::vector<uint8_t> au;     // sparse: A (Zz) biased to u8
  std::vector<uint32_t> bp;    // sparse: [pair][n16] B' dwords (k' = 4p..4p+3), 0 past K/2
  std::vector<uint32_t> ctrl;  // sparse: [pair][n16] vpermb control {sel0, sel1, 4 + sel0', 4 + sel1'}
  std::vector<int32_t> corr;   // bias correction per output row (dense) or column (sparse)
};
Scratch& scratch() {
  thread_local Scratch s;
  return s;
}

// ---- dense ------------------------------------------------------------------------------------

// Zn B (fractal (k1, n1): n-row r holds 32 k) -> bq. Bytes with k >= K stay 0x80 (B = 0).
void pack_dense_b(const uint8_t* filter, uint32_t k1n, uint32_t n1n, uint32_t K, std::vector<uint32_t>& bq) {
  const uint32_t n16 = n1n * 16;
  bq.assign(uint64_t{k1n} * 8 * n16, 0x80808080u);
  for (uint32_t k1 = 0; k1 < k1n; ++k1)
    for (uint32_t n1 = 0; n1 < n1n; ++n1) {
      const uint8_t* f = filter + (uint64_t{k1} * n1n + n1) * 512;
      for (uint32_t r = 0; r < 16; ++r)
        for (uint32_t q = 0; q < 8; ++q) {
          const uint32_t k0 = k1 * 32 + q * 4;
          if (k0 >= K) break;
          uint32_t d;
          std::memcpy(&d, f + r * 32 + q * 4, 4);
          d ^= 0x80808080u;
          if (k0 + 4 > K) {  // keep the bytes with k < K, the rest mean B = 0
            const uint32_t keep = 8 * (K - k0);
            d = (d & ((1u << keep) - 1)) | (0x80808080u << keep);
          }
          bq[uint64_t{k1 * 8 + q} * n16 + n1 * 16 + r] = d;
        }
    }
}

// 128 x the sum of each A row over all kp columns (padding included: it meets B = 0 there,
// which the bias turns into 128 x a, cancelled here).
void row_corrections(const uint8_t* fm, uint32_t m1n, uint32_t k1n, std::vector<int32_t>& corr) {
  corr.assign(uint64_t{m1n} * 16, 0);
  for (uint32_t m1 = 0; m1 < m1n; ++m1)
    for (uint32_t k1 = 0; k1 < k1n; ++k1) {
      const auto* f = reinterpret_cast<const int8_t*>(fm + (uint64_t{m1} * k1n + k1) * 512);
      for (uint32_t r = 0; r < 16; ++r) {
        int32_t s = 0;
        for (uint32_t c = 0; c < 32; ++c) s += f[r * 32 + c];
        corr[m1 * 16 + r] += 128 * s;
      }
    }
}

// 8 A rows (half a fractal) x NB * 16 columns; NB * 8 accumulators stay in registers.
template <int NB>
VNNI_TARGET void dense_tile(const uint8_t* fm_rows, const uint32_t* bq, uint32_t n16, uint32_t k1n,
                            const int32_t* corr, uint8_t* c_frac, uint64_t c_frac_stride, bool accumulate) {
  __m512i acc[8][NB];
  for (auto& row : acc)
    for (auto& v : row) v = _mm512_setzero_si512();
  for (uint32_t k1 = 0; k1 < k1n; ++k1) {
    const uint8_t* a = fm_rows + uint64_t{k1} * 512;
    for (uint32_t q = 0; q < 8; ++q) {
      __m512i b[NB];
      for (int j = 0; j < NB; ++j) b[j] = _mm512_loadu_si512(bq + uint64_t{k1 * 8 + q} * n16 + j * 16);
      for (int i = 0; i < 8; ++i) {
        int32_t a4;
        std::memcpy(&a4, a + i * 32 + q * 4, 4);
        const __m512i av = _mm512_set1_epi32(a4);
        for (int j = 0; j < NB; ++j) acc[i][j] = _mm512_dpbusd_epi32(acc[i][j], b[j], av);
      }
    }
  }
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < NB; ++j) {
      uint8_t* out = c_frac + j * c_frac_stride + i * 64;
      __m512i v = _mm512_sub_epi32(acc[i][j], _mm512_set1_epi32(corr[i]));
      if (accumulate) v = _mm512_add_epi32(v, _mm512_loadu_si512(out));
      _mm512_storeu_si512(out, v);
    }
}

VNNI_TARGET void dense_gemm(const uint8_t* fm, const Scratch& s, uint8_t* dst, uint32_t m1n, uint32_t n1n,
                            uint32_t k1n, bool accumulate) {
  const uint32_t n16 = n1n * 16;
  const uint64_t frac_stride = uint64_t{m1n} * 1024;  // C fractal (n1 + 1, m1) - (n1, m1)
  // n outer, m inner: one B panel stays in the L1 cache while every A row passes.
  for (uint32_t n1 = 0; n1 < n1n; n1 += 2) {
    const bool two = n1 + 1 < n1n;
    for (uint32_t m1 = 0; m1 < m1n; ++m1)
      for (uint32_t half = 0; half < 2; ++half) {
        const uint8_t* rows = fm + uint64_t{m1} * k1n * 512 + half * 8 * 32;
        const uint32_t* b = s.bq.data() + n1 * 16;
        const int32_t* corr = s.corr.data() + m1 * 16 + half * 8;
        uint8_t* c = dst + (uint64_t{n1} * m1n + m1) * 1024 + half * 8 * 64;
        if (two)
          dense_tile<2>(rows, b, n16, k1n, corr, c, frac_stride, accumulate);
        else
          dense_tile<1>(rows, b, n16, k1n, corr, c, frac_stride, accumulate);
      }
  }
}

// ---- 4:2 sparse, compressed domain ------------------------------------------------------------

// Index byte (two groups in bits 3:0 and 7:4) -> vpermb control dword, or kBad for an index 3.
// Built from sparsity.hpp's sel0 / sel1, so the selection rule lives in one place.
constexpr uint32_t kBad = 0xffffffffu;
struct ControlTable {
  uint32_t t[256];
  ControlTable() {
    for (uint32_t byte = 0; byte < 256; ++byte) {
      uint32_t d = 0;
      for (uint32_t h = 0; h < 2 && d != kBad; ++h) {
        const uint8_t i0 = (byte >> (4 * h)) & 3, i1 = (byte >> (4 * h + 2)) & 3;
        if (i0 == 3 || i1 == 3) {
          d = kBad;
          break;
        }
        d |= (4 * h + sparse_sel0(i0)) << (16 * h) | (4 * h + sparse_sel1(i0, i1)) << (16 * h + 8);
      }
      t[byte] = d;
    }
  }
};
const ControlTable kControl;

// Masked forms with a zero source: GCC 12's plain gather/permutexvar trip -Werror=uninitialized.
#define AICORE_GATHER(idx, base, scale) \
  _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), 0xffff, idx, base, scale)

// One whole B' fractal (16 groups per n-row): the 16 x 8 dword transpose into [pair][n] by
// gathers, control dwords from the table, column sums by vpdpbusd with ones.
VBMI_TARGET bool pack_fractal(const uint8_t* w, const uint8_t* ix, uint32_t* bp, uint32_t* ctrl,
                              int32_t* corr, uint32_t n16) {
  const __m512i rows = _mm512_mullo_epi32(
      _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0), _mm512_set1_epi32(8));
  const __m512i ones = _mm512_set1_epi8(1), bad = _mm512_set1_epi32(static_cast<int>(kBad));
  __m512i sum = _mm512_loadu_si512(corr);
  __mmask16 any_bad = 0;
  for (int j = 0; j < 8; ++j) {
    const __m512i at = _mm512_add_epi32(rows, _mm512_set1_epi32(j));  // n-row r: dword r * 8 + j
    const __m512i wv = AICORE_GATHER(at, w, 4);
    const __m512i byte = _mm512_and_si512(AICORE_GATHER(at, ix, 1), _mm512_set1_epi32(0xff));
    const __m512i c = AICORE_GATHER(byte, kControl.t, 4);
    any_bad |= _mm512_cmpeq_epi32_mask(c, bad);
    _mm512_storeu_si512(bp + uint64_t(j) * n16, wv);
    _mm512_storeu_si512(ctrl + uint64_t(j) * n16, c);
    sum = _mm512_dpbusd_epi32(sum, ones, wv);
  }
  _mm512_storeu_si512(corr, sum);
  return any_bad == 0;
}

bool pack_sparse(const isa::MmadWithSparse& op, const MemoryView& mem, uint32_t m1n, uint32_t k1n,
                 uint32_t n1n, Scratch& s) {
  const uint32_t n16 = n1n * 16, groups = op.k / 4, kd1n = ceil_div(op.k, 64), pairs = k1n * 4;
  if (op.k % 64 == 0) {  // whole fractals: pack_fractal writes every entry, no zero fill needed
    s.bp.resize(uint64_t{pairs} * n16);
    s.ctrl.resize(uint64_t{pairs} * n16);
  } else {
    s.bp.assign(uint64_t{pairs} * n16, 0);
    s.ctrl.assign(uint64_t{pairs} * n16, 0);
  }
  s.corr.assign(n16, 0);  // column sums of B' first, scaled by 128 below
  const uint8_t* filter = mem.ptr(op.filter);
  const uint8_t* index = mem.ptr(isa::Space::SparseIndex, 0, op.filter.offset / 4);
  for (uint32_t kd1 = 0; kd1 < kd1n; ++kd1)
    for (uint32_t n1 = 0; n1 < n1n; ++n1) {
      const uint64_t frac = uint64_t{kd1} * n1n + n1;
      if (kd1 * 16 + 16 <= groups) {
        if (!pack_fractal(filter + frac * 512, index + frac * 128,
                          s.bp.data() + uint64_t{kd1} * 8 * n16 + n1 * 16,
                          s.ctrl.data() + uint64_t{kd1} * 8 * n16 + n1 * 16, s.corr.data() + n1 * 16, n16))
          return false;
        continue;
      }
      for (uint32_t r = 0; r < 16; ++r) {  // the last, partial fractal row
        const uint32_t n = n1 * 16 + r;
        for (uint32_t j = 0; j < 8; ++j) {
          const uint32_t g = kd1 * 16 + 2 * j, p = kd1 * 8 + j;  // first group of the pair
          if (g >= groups) break;
          uint8_t byte = index[frac * 128 + r * 8 + j];
          uint8_t w[4];
          std::memcpy(w, filter + frac * 512 + r * 32 + j * 4, 4);
          if (g + 1 >= groups) byte &= 0x0f, w[2] = w[3] = 0;  // the pair's second group is past K
          const uint32_t c = kControl.t[byte];
          if (c == kBad) return false;
          s.ctrl[uint64_t{p} * n16 + n] = c;
          std::memcpy(&s.bp[uint64_t{p} * n16 + n], w, 4);
          for (int b = 0; b < 4; ++b) s.corr[n] += static_cast<int8_t>(w[b]);
        }
      }
    }
  for (auto& c : s.corr) c *= 128;
  const uint64_t a_bytes = uint64_t{m1n} * k1n * 512;
  s.au.resize(a_bytes);
  const uint8_t* __restrict fm = mem.ptr(op.fm);  // restrict: lets GCC vectorise the bias loop
  uint8_t* __restrict au = s.au.data();
  for (uint64_t i = 0; i < a_bytes; ++i) au[i] = fm[i] ^ 0x80;
  return true;
}

// MR A rows x NB * 16 columns; per group pair: 8 A bytes broadcast per row, one vpermb per
// column block picks each column's two (x2 groups) A values.
template <int MR, int NB>
VBMI_TARGET void sparse_tile(const uint8_t* au_rows, const Scratch& s, uint32_t n0, uint32_t n16,
                             uint32_t k1n, uint8_t* c_frac, uint64_t c_frac_stride, bool accumulate) {
  __m512i acc[MR][NB];
  for (auto& row : acc)
    for (auto& v : row) v = _mm512_setzero_si512();
  for (uint32_t k1 = 0; k1 < k1n; ++k1)
    for (uint32_t q = 0; q < 4; ++q) {
      const uint64_t p = k1 * 4 + q;
      __m512i b[NB], ctl[NB];
      for (int j = 0; j < NB; ++j) {
        b[j] = _mm512_loadu_si512(s.bp.data() + p * n16 + n0 + j * 16);
        ctl[j] = _mm512_loadu_si512(s.ctrl.data() + p * n16 + n0 + j * 16);
      }
      const uint8_t* a = au_rows + uint64_t{k1} * 512 + q * 8;
      for (int i = 0; i < MR; ++i) {
        long long a8;
        std::memcpy(&a8, a + i * 32, 8);
        const __m512i av = _mm512_set1_epi64(a8);
        for (int j = 0; j < NB; ++j)
          acc[i][j] = _mm512_dpbusd_epi32(acc[i][j], _mm512_maskz_permutexvar_epi8(~0ULL, ctl[j], av), b[j]);
      }
    }
  for (int j = 0; j < NB; ++j) {
    const __m512i corr = _mm512_loadu_si512(s.corr.data() + n0 + j * 16);
    for (int i = 0; i < MR; ++i) {
      uint8_t* out = c_frac + j * c_frac_stride + i * 64;
      __m512i v = _mm512_sub_epi32(acc[i][j], corr);
      if (accumulate) v = _mm512_add_epi32(v, _mm512_loadu_si512(out));
      _mm512_storeu_si512(out, v);
    }
  }
}

// Register tile 8 rows x 32 columns; 8 x 16 at the edge.
template <int NB>
VBMI_TARGET void sparse_panel(const Scratch& s, uint8_t* dst, uint32_t n1, uint32_t m1n, uint32_t n1n,
                              uint32_t k1n, bool accumulate) {
  const uint64_t frac_stride = uint64_t{m1n} * 1024;
  for (uint32_t m1 = 0; m1 < m1n; ++m1)
    for (uint32_t half = 0; half < 2; ++half) {
      const uint8_t* rows = s.au.data() + uint64_t{m1} * k1n * 512 + half * 8 * 32;
      uint8_t* c = dst + (uint64_t{n1} * m1n + m1) * 1024 + half * 8 * 64;
      sparse_tile<8, NB>(rows, s, n1 * 16, n1n * 16, k1n, c, frac_stride, accumulate);
    }
}

}  // namespace

bool avx512_vnni_supported() {
  static const bool ok = __builtin_cpu_supports("x86-64-v4") && __builtin_cpu_supports("avx512vnni");
  return ok;
}
bool avx512_vbmi_supported() {
  static const bool ok = avx512_vnni_supported() && __builtin_cpu_supports("avx512vbmi");
  return ok;
}

void mmad_i8_avx512(const isa::Mmad& op, const MemoryView& mem) {
  const uint32_t m1n = ceil_div(op.m, 16), n1n = ceil_div(op.n, 16), k1n = ceil_div(op.k, 32);
  Scratch& s = scratch();
  pack_dense_b(mem.ptr(op.filter), k1n, n1n, op.k, s.bq);
  row_corrections(mem.ptr(op.fm), m1n, k1n, s.corr);
  dense_gemm(mem.ptr(op.fm), s, mem.ptr(op.dst), m1n, n1n, k1n, !op.starts_from_zero());
}

bool mmad_sparse_avx512(const isa::MmadWithSparse& op, const MemoryView& mem) {
  const uint32_t m1n = ceil_div(op.m, 16), n1n = ceil_div(op.n, 16), k1n = ceil_div(op.k, 32);
  Scratch& s = scratch();
  if (!pack_sparse(op, mem, m1n, k1n, n1n, s)) return false;
  uint32_t n1 = 0;  // n outer: one B'/control panel stays in the L1 cache while all rows pass
  for (; n1 + 2 <= n1n; n1 += 2)
    sparse_panel<2>(s, mem.ptr(op.dst), n1, m1n, n1n, k1n, !op.starts_from_zero());
  if (n1 < n1n) sparse_panel<1>(s, mem.ptr(op.dst), n1, m1n, n1n, k1n, !op.starts_from_zero());
  return true;
}

#else  // not x86-64 GCC: only the portable kernels exist

bool avx512_vnni_supported() {
  return false;
}
bool avx512_vbmi_supported() {
  return false;
}
void mmad_i8_avx512(const isa::Mmad&, const MemoryView&) {}
bool mmad_sparse_avx512(const isa::MmadWithSparse&, const MemoryView&) {
  return false;
}

#endif

}  // namespace aicore::sem::detail
