// The host side of the int8 test kernels (styles.cpp, kloop.cpp): random A (m x k, ND) and B
// (k x n), in GmAlloc buffers with B stored transposed (n x k, as the kernels' B1 copies read it),
// and C checked against the naive product, computed here independently of the simulator.
#pragma once
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "kernel_operator.h"
#include "tikicpulib.h"

struct Int8Gemm {
  uint32_t m, k, n;
  std::vector<int8_t> A, B;
  uint8_t *a = nullptr, *bt = nullptr, *c = nullptr;

  Int8Gemm(uint32_t m_, uint32_t k_, uint32_t n_, unsigned seed)
      : m(m_), k(k_), n(n_), A(m_ * k_), B(k_ * n_) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> value(-128, 127);
    for (auto& x : A) x = static_cast<int8_t>(value(rng));
    for (auto& x : B) x = static_cast<int8_t>(value(rng));
    a = static_cast<uint8_t*>(AscendC::GmAlloc(A.size()));
    bt = static_cast<uint8_t*>(AscendC::GmAlloc(B.size()));
    c = static_cast<uint8_t*>(AscendC::GmAlloc(m * n * sizeof(int32_t)));
    std::memcpy(a, A.data(), A.size());
    for (uint32_t x = 0; x < k; ++x)
      for (uint32_t j = 0; j < n; ++j) bt[j * k + x] = static_cast<uint8_t>(B[x * n + j]);
  }
  ~Int8Gemm() {
    AscendC::GmFree(a);
    AscendC::GmFree(bt);
    AscendC::GmFree(c);
  }
  Int8Gemm(const Int8Gemm&) = delete;
  Int8Gemm& operator=(const Int8Gemm&) = delete;

  // Elements of C that differ from the naive product.
  int wrong() const {
    int bad = 0;
    for (uint32_t i = 0; i < m; ++i)
      for (uint32_t j = 0; j < n; ++j) {
        int32_t want = 0, got;
        for (uint32_t x = 0; x < k; ++x) want += A[i * k + x] * B[x * n + j];
        std::memcpy(&got, c + (i * n + j) * 4, 4);
        bad += got != want;
      }
    return bad;
  }
};
