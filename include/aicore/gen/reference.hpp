// The independent golden model for generated cases: plain loops over row-major matrices,
// deliberately sharing no code with semantics/ (not its densifier, layouts or Cube kernel),
// so a bug there cannot hide itself by also producing the golden.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace aicore::gen {

// What 4:2 sparse hardware effectively multiplies: the original K x N row-major B with only
// the first two non-zeros (lowest k) of every group of 4 along K kept, others set to zero.
std::vector<int8_t> keep_first_two(const int8_t* b, uint32_t K, uint32_t N);

// Groups with more than two non-zeros lose data when densified: count them, never hide them.
struct LossReport {
  uint64_t groups = 0, lossy_groups = 0, dropped_values = 0;
  std::vector<std::string> examples;  // first few lossy groups, "column n=.., k=..: values .."
};
LossReport sparsity_loss(const int8_t* b, uint32_t K, uint32_t N, size_t max_examples = 5);

// C = A (M x K) x B (K x N), int32 row-major with row pitch ldc >= N; columns N..ldc-1 are 0.
std::vector<int32_t> reference_gemm(const int8_t* a, const int8_t* b, uint32_t M, uint32_t K, uint32_t N,
                                    uint32_t ldc);

}  // namespace aicore::gen
