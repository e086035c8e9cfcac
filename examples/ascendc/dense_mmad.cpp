// Dense fp16 matrix multiply with float results, TPipe/TQue style: C (32 x 32 float) = A (32 x 48
// half) x B (48 x 32 half), A and B row-major in GM. A goes to L0A fractal row by fractal row
// (one LoadData per 16 rows), B is transposed fractal by fractal on its way to L0B (one LoadData
// per 16 rows of K). Each block computes its own 32 rows of A and C; B is shared. blockDim is
// BLOCKS (default 1) or the program's first argument.
//
//   aicore-sim kernel examples/ascendc/dense_mmad.cpp
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint16_t m = 32, k = 48, n = 32;  // per block
constexpr uint16_t mBlocks = m / 16, kBlocks = k / 16, nBlocks = n / 16;

class KernelDenseMmad {
 public:
  __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c) {
    aGM.SetGlobalBuffer((__gm__ half*)a + GetBlockIdx() * m * k);
    bGM.SetGlobalBuffer((__gm__ half*)b);
    cGM.SetGlobalBuffer((__gm__ float*)c + GetBlockIdx() * m * n);
    pipe.InitBuffer(inQueueA1, 1, m * k * sizeof(half));
    pipe.InitBuffer(inQueueA2, 1, m * k * sizeof(half));
    pipe.InitBuffer(inQueueB1, 1, k * n * sizeof(half));
    pipe.InitBuffer(inQueueB2, 1, k * n * sizeof(half));
    pipe.InitBuffer(outQueueCO1, 1, m * n * sizeof(float));
  }
  __aicore__ inline void Process() {
    CopyIn();
    SplitA();
    SplitB();
    Compute();
    CopyOut();
  }

 private:
  // A row-major (ND) in GM -> NZ in L1: 16-element column blocks, each ceil16(rows) rows tall.
  __aicore__ inline void CopyND2NZ(const LocalTensor<half>& dst, const GlobalTensor<half>& src, uint16_t rows,
                                   uint16_t cols) {
    Nd2NzParams params;
    params.ndNum = 1;
    params.nValue = rows;
    params.dValue = cols;
    params.srcNdMatrixStride = 0;
    params.srcDValue = cols;
    params.dstNzC0Stride = (rows + 15) / 16 * 16;
    params.dstNzNStride = 1;
    params.dstNzMatrixStride = 0;
    DataCopy(dst, src, params);
  }
  __aicore__ inline void CopyIn() {
    LocalTensor<half> a1Local = inQueueA1.AllocTensor<half>();
    LocalTensor<half> b1Local = inQueueB1.AllocTensor<half>();
    CopyND2NZ(a1Local, aGM, m, k);
    CopyND2NZ(b1Local, bGM, k, n);
    inQueueA1.EnQue(a1Local);
    inQueueB1.EnQue(b1Local);
  }
  // NZ (fractal (k1, m1) at k1 * mBlocks + m1) -> Zz (fractal (m1, k1) at m1 * kBlocks + k1).
  __aicore__ inline void SplitA() {
    LocalTensor<half> a1Local = inQueueA1.DeQue<half>();
    LocalTensor<half> a2Local = inQueueA2.AllocTensor<half>();
    LoadData2DParams params;
    params.repeatTimes = kBlocks;
    params.srcStride = mBlocks;
    params.ifTranspose = false;
    for (uint16_t i = 0; i < mBlocks; ++i) LoadData(a2Local[i * 16 * k], a1Local[i * 16 * 16], params);
    inQueueA2.EnQue(a2Local);
    inQueueA1.FreeTensor(a1Local);
  }
  // NZ of B (fractal (n1, k1) holds 16 k-rows x 16 n) -> Zn (16 n-rows x 16 k): transpose each.
  __aicore__ inline void SplitB() {
    LocalTensor<half> b1Local = inQueueB1.DeQue<half>();
    LocalTensor<half> b2Local = inQueueB2.AllocTensor<half>();
    LoadData2DParams params;
    params.repeatTimes = nBlocks;
    params.srcStride = kBlocks;
    params.ifTranspose = true;
    for (uint16_t i = 0; i < kBlocks; ++i) LoadData(b2Local[i * 16 * n], b1Local[i * 16 * 16], params);
    inQueueB1.FreeTensor(b1Local);
    inQueueB2.EnQue(b2Local);
  }
  __aicore__ inline void Compute() {
    LocalTensor<half> a2Local = inQueueA2.DeQue<half>();
    LocalTensor<half> b2Local = inQueueB2.DeQue<half>();
    LocalTensor<float> c1Local = outQueueCO1.AllocTensor<float>();
    MmadParams params;
    params.m = m;
    params.n = n;
    params.k = k;
    Mmad(c1Local, a2Local, b2Local, params);
    outQueueCO1.EnQue(c1Local);
    inQueueA2.FreeTensor(a2Local);
    inQueueB2.FreeTensor(b2Local);
  }
  __aicore__ inline void CopyOut() {
    LocalTensor<float> c1Local = outQueueCO1.DeQue<float>();
    FixpipeParamsV220 params(n, m, m, n, false);
    Fixpipe<float, float, CFG_ROW_MAJOR>(cGM, c1Local, params);
    outQueueCO1.FreeTensor(c1Local);
  }

  TPipe pipe;
  TQue<TPosition::A1, 1> inQueueA1;
  TQue<TPosition::A2, 1> inQueueA2;
  TQue<TPosition::B1, 1> inQueueB1;
  TQue<TPosition::B2, 1> inQueueB2;
  TQue<TPosition::CO1, 1> outQueueCO1;
  GlobalTensor<half> aGM, bGM;
  GlobalTensor<float> cGM;
};

extern "C" __global__ __aicore__ void dense_mmad(GM_ADDR a, GM_ADDR b, GM_ADDR c) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  KernelDenseMmad op;
  op.Init(a, b, c);
  op.Process();
}

#ifndef BLOCKS
#define BLOCKS 1
#endif

int32_t main(int32_t argc, char* argv[]) {
  const uint32_t blockDim = argc > 1 ? static_cast<uint32_t>(std::atoi(argv[1])) : BLOCKS;
  const uint32_t M = m * blockDim, K = k, N = n;
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> value(-2.0f, 2.0f);
  std::vector<half> A(M * K), B(K * N);
  for (auto& x : A) x = value(rng);
  for (auto& x : B) x = value(rng);

  uint8_t* a = static_cast<uint8_t*>(AscendC::GmAlloc(A.size() * sizeof(half)));
  uint8_t* b = static_cast<uint8_t*>(AscendC::GmAlloc(B.size() * sizeof(half)));
  uint8_t* c = static_cast<uint8_t*>(AscendC::GmAlloc(M * N * sizeof(float)));
  std::memcpy(a, A.data(), A.size() * sizeof(half));
  std::memcpy(b, B.data(), B.size() * sizeof(half));

  AscendC::SetKernelMode(KernelMode::AIC_MODE);
  ICPU_RUN_KF(dense_mmad, blockDim, a, b, c);

  // float32 reference; the Cube's summation order is not public, so compare to a tolerance.
  uint32_t wrong = 0;
  for (uint32_t i = 0; i < M; ++i)
    for (uint32_t j = 0; j < N; ++j) {
      double want = 0, scale = 0;
      for (uint32_t x = 0; x < K; ++x) {
        const double p = double(float(A[i * K + x])) * float(B[x * N + j]);
        want += p;
        scale += std::fabs(p);
      }
      float got;
      std::memcpy(&got, c + (i * N + j) * sizeof(float), sizeof(float));
      if (std::fabs(got - want) > 1e-5 * scale + 1e-6 && wrong++ < 5)
        std::printf("C[%u][%u] = %.7g, expected %.7g\n", i, j, got, want);
    }
  std::printf("dense_mmad %ux%ux%u on %u block(s): %s\n", M, K, N, blockDim, wrong ? "MISMATCH" : "match");
  AscendC::GmFree(a);
  AscendC::GmFree(b);
  AscendC::GmFree(c);
  return wrong ? 1 : 0;
}
