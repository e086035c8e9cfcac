// One Cube instruction ready to run: L0A/L0B/index/L0C storage at the docs/semantics.md §1 sizes, random
// operands already in their fractal layouts, and the GEMM oneDNN should run for comparison.
#pragma once
#include <cstdint>
#include <vector>

#include "aicore/isa/instructions.hpp"
#include "aicore/semantics/memory.hpp"

namespace bench {

struct CubeCase {
  uint32_t M = 0, K = 0, N = 0;  // K is the original (dense-equivalent) K
  bool sparse = false;
  std::vector<uint8_t> l0a, l0b, l0c, idx;
  aicore::isa::Mmad dense_op;
  aicore::isa::MmadWithSparse sparse_op;

  // The problem oneDNN gets: M x Kg times Kg x N, Kg = K (dense) or K/2 (sparse: the
  // compressed GEMM over the bytes the Cube actually reads from L0B).
  uint32_t Kg = 0;
  std::vector<int8_t> a_rm, b_rm;  // row-major

  aicore::sem::MemoryView view();
  // Dense-equivalent and actually-multiplied MAC counts of one instruction.
  double dense_macs() const { return double(M) * K * N; }
  double compressed_macs() const { return double(M) * Kg * N; }
};

CubeCase make_dense(uint32_t M, uint32_t K, uint32_t N, uint32_t seed);
CubeCase make_sparse(uint32_t M, uint32_t K, uint32_t N, uint32_t seed);

// Run the instruction through the semantics layer (what the simulator's Cube engine calls).
void run_sem(const CubeCase& c, const aicore::sem::MemoryView& v);

}  // namespace bench
