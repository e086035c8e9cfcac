// Independent test-side reference: naive matrix maths on row-major matrices and fractal
// packers written from docs/semantics.md §2 as nested fractal loops (deliberately not sharing
// code with src/semantics, so a wrong formula there cannot hide here).
#pragma once
#include <cstdint>
#include <random>
#include <vector>

#include "aicore/semantics/kernels.hpp"
#include "aicore/semantics/memory.hpp"

namespace ref {

using Mat8 = std::vector<int8_t>;    // row-major
using Mat32 = std::vector<int32_t>;  // row-major

Mat8 random_i8(size_t count, std::mt19937& rng);
// Random 4:2-ish sparse K x N: every group of 4 along K gets one of the docs/semantics.md 4:2 table patterns,
// including 3 and 4 non-zeros, a lone value in slot 3, and all-zero groups.
Mat8 random_sparse(uint32_t K, uint32_t N, std::mt19937& rng);
// B with only the kept entries: the first two non-zeros of each group of 4 along K.
Mat8 kept_entries(const Mat8& b, uint32_t K, uint32_t N);
// C = A (M x K) * B (K x N), int32.
Mat32 matmul(const Mat8& a, const Mat8& b, uint32_t M, uint32_t K, uint32_t N);

// Packers built fractal by fractal (output sizes padded to whole fractals, padding zero).
std::vector<uint8_t> zz(const Mat8& a, uint32_t M, uint32_t K);  // L0A layout
std::vector<uint8_t> zn(const Mat8& b, uint32_t K, uint32_t N);  // L0B layout
// int4 (values -8..7, one a Mat8 entry): fractals of 16 rows x 64 elements, 32 bytes a row, element
// 2j of a row in the low nibble of byte j and 2j+1 in the high one (docs/semantics.md, "int4").
Mat8 random_i4(size_t count, std::mt19937& rng);
std::vector<uint8_t> zz4(const Mat8& a, uint32_t M, uint32_t K);  // L0A layout
std::vector<uint8_t> zn4(const Mat8& b, uint32_t K, uint32_t N);  // L0B layout
// Row-major int4 values packed two a byte (element i in byte i / 2, even i low); size rounded up.
std::vector<uint8_t> pack4(const Mat8& v);
// Read C[m][n] (int32) from an Nz L0C image holding an M-row matrix.
int32_t nz_at(const std::vector<uint8_t>& l0c, uint64_t base, uint32_t M, uint32_t m, uint32_t n);

// Buffers of one Cube core at the docs/semantics.md §1 sizes, plus GM tensors.
struct Core {
  std::vector<uint8_t> l1 = std::vector<uint8_t>(512 * 1024), l0a = std::vector<uint8_t>(64 * 1024),
                       l0b = std::vector<uint8_t>(64 * 1024), l0c = std::vector<uint8_t>(128 * 1024),
                       idx = std::vector<uint8_t>(16 * 1024), bt = std::vector<uint8_t>(1024);
  std::vector<std::vector<uint8_t>> gm;
  aicore::sem::MemoryView view();
};

// Runs f once per host kernel level (portable, then native when the CPU has it), restoring
// the default after: every int8 Cube case is checked against both implementations.
template <class F>
void for_each_kernel(F f) {
  using aicore::sem::KernelLevel;
  for (KernelLevel level : {KernelLevel::Portable, KernelLevel::Native}) {
    aicore::sem::set_kernel_level(level);
    f(level == KernelLevel::Native ? "native" : "portable");
  }
  aicore::sem::set_kernel_level(KernelLevel::Native);
}

}  // namespace ref
