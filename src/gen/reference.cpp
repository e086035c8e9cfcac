#include "aicore/gen/reference.hpp"

namespace aicore::gen {

std::vector<int8_t> keep_first_two(const int8_t* b, uint32_t K, uint32_t N) {
  std::vector<int8_t> out(uint64_t{K} * N, 0);
  for (uint32_t n = 0; n < N; ++n)
    for (uint32_t g = 0; g + 4 <= K; g += 4) {
      int kept = 0;
      for (uint32_t k = g; k < g + 4 && kept < 2; ++k) {
        const int8_t v = b[uint64_t{k} * N + n];
        if (v != 0) {
          out[uint64_t{k} * N + n] = v;
          ++kept;
        }
      }
    }
  return out;
}

LossReport sparsity_loss(const int8_t* b, uint32_t K, uint32_t N, size_t max_examples) {
  LossReport r;
  for (uint32_t g = 0; g + 4 <= K; g += 4)
    for (uint32_t n = 0; n < N; ++n) {
      ++r.groups;
      int nz = 0;
      for (uint32_t k = g; k < g + 4; ++k) nz += b[uint64_t{k} * N + n] != 0;
      if (nz <= 2) continue;
      ++r.lossy_groups;
      r.dropped_values += nz - 2;
      if (r.examples.size() >= max_examples) continue;
      std::string s = "column n=" + std::to_string(n) + ", k=" + std::to_string(g) + ".." +
                      std::to_string(g + 3) + ": values";
      for (uint32_t k = g; k < g + 4; ++k) s += " " + std::to_string(int{b[uint64_t{k} * N + n]});
      r.examples.push_back(s + " -> " + std::to_string(nz - 2) + " dropped");
    }
  return r;
}

std::vector<int32_t> reference_gemm(const int8_t* a, const int8_t* b, uint32_t M, uint32_t K, uint32_t N,
                                    uint32_t ldc) {
  std::vector<int32_t> c(uint64_t{M} * ldc, 0);
  std::vector<int64_t> row(N);
  // m-k-n order only so the inner loop is contiguous; still one multiply-add per (m, k, n).
  for (uint32_t m = 0; m < M; ++m) {
    row.assign(N, 0);
    for (uint32_t k = 0; k < K; ++k) {
      const int64_t av = a[uint64_t{m} * K + k];
      const int8_t* br = b + uint64_t{k} * N;
      for (uint32_t n = 0; n < N; ++n) row[n] += av * br[n];
    }
    for (uint32_t n = 0; n < N; ++n) c[uint64_t{m} * ldc + n] = static_cast<int32_t>(row[n]);
  }
  return c;
}

}  // namespace aicore::gen
