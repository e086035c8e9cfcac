// 4:2 structured-sparse int8 matrix multiply, TPipe/TQue style: C (16 x 16 int32) = A (16 x 64 int8)
// x B (64 x 16 int8, 4:2 sparse), B stored densified as B' (32 x 16, Zn fractals) plus its 2-bit
// indexes. Each block computes its own 16 rows of A and C; B is shared. blockDim is BLOCKS (default
// 1, e.g. -- -DBLOCKS=2) or the program's first argument.
//
//   aicore-sim kernel examples/ascendc/sparse_matmul.cpp
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint16_t m = 16, k = 64, n = 16;  // per block; k is the original (sparse) K
constexpr uint32_t kBlocks = k / 32, mBlocks = m / 16, nBlocks = n / 16;
constexpr uint32_t aBytes = m * k, bBytes = k / 2 * n, idxBytes = bBytes / 4, cBytes = m * n * 4;

class KernelSparseMatmul {
 public:
  __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR idx, GM_ADDR c) {
    aGM.SetGlobalBuffer((__gm__ int8_t*)a + GetBlockIdx() * aBytes);
    bGM.SetGlobalBuffer((__gm__ int8_t*)b);
    idxGM.SetGlobalBuffer((__gm__ uint8_t*)idx);
    cGM.SetGlobalBuffer((__gm__ int32_t*)c + GetBlockIdx() * m * n);
    pipe.InitBuffer(inQueueA1, 1, aBytes);
    pipe.InitBuffer(inQueueA2, 1, aBytes);
    pipe.InitBuffer(inQueueB1, 1, bBytes);
    pipe.InitBuffer(inQueueIdx1, 1, idxBytes);
    pipe.InitBuffer(inQueueB2, 1, bBytes);
    pipe.InitBuffer(outQueueCO1, 1, cBytes);
  }
  __aicore__ inline void Process() {
    CopyIn();
    SplitA();
    SplitB();
    Compute();
    CopyOut();
  }

 private:
  // Each tensor is enqueued right after its own copy, so each DeQue waits for exactly its copy.
  __aicore__ inline void CopyIn() {
    LocalTensor<int8_t> a1Local = inQueueA1.AllocTensor<int8_t>();
    Nd2NzParams nd2nz;
    nd2nz.ndNum = 1;
    nd2nz.nValue = m;
    nd2nz.dValue = k;
    nd2nz.srcNdMatrixStride = 0;
    nd2nz.srcDValue = k;
    nd2nz.dstNzC0Stride = (m + 15) / 16 * 16;
    nd2nz.dstNzNStride = 1;
    nd2nz.dstNzMatrixStride = 0;
    DataCopy(a1Local, aGM, nd2nz);
    inQueueA1.EnQue(a1Local);
    LocalTensor<int8_t> b1Local = inQueueB1.AllocTensor<int8_t>();
    DataCopy(b1Local, bGM, {1, bBytes / 32, 0, 0});
    inQueueB1.EnQue(b1Local);
    LocalTensor<uint8_t> idx1Local = inQueueIdx1.AllocTensor<uint8_t>();
    DataCopy(idx1Local, idxGM, {1, idxBytes / 32, 0, 0});
    inQueueIdx1.EnQue(idx1Local);
  }
  __aicore__ inline void SplitA() {
    LocalTensor<int8_t> a1Local = inQueueA1.DeQue<int8_t>();
    LocalTensor<int8_t> a2Local = inQueueA2.AllocTensor<int8_t>();
    LoadData2DParams params;
    params.repeatTimes = kBlocks * mBlocks;
    params.srcStride = 1;
    LoadData(a2Local, a1Local, params);
    inQueueA2.EnQue(a2Local);
    inQueueA1.FreeTensor(a1Local);
  }
  __aicore__ inline void SplitB() {
    LocalTensor<int8_t> b1Local = inQueueB1.DeQue<int8_t>();
    LocalTensor<uint8_t> idx1Local = inQueueIdx1.DeQue<uint8_t>();
    LocalTensor<int8_t> b2Local = inQueueB2.AllocTensor<int8_t>();
    LoadData2dParams params;
    params.repeatTimes = kBlocks * nBlocks / 2;
    params.srcStride = 0;
    LoadDataWithSparse(b2Local, b1Local, idx1Local, params);
    inQueueB2.EnQue(b2Local);
    inQueueB1.FreeTensor(b1Local);
    inQueueIdx1.FreeTensor(idx1Local);
  }
  __aicore__ inline void Compute() {
    LocalTensor<int8_t> a2Local = inQueueA2.DeQue<int8_t>();
    LocalTensor<int8_t> b2Local = inQueueB2.DeQue<int8_t>();
    LocalTensor<int32_t> c1Local = outQueueCO1.AllocTensor<int32_t>();
    MmadWithSparse(c1Local, a2Local, b2Local, {m, n, k, false, 0, false, false, false});
    outQueueCO1.EnQue(c1Local);
    inQueueA2.FreeTensor(a2Local);
    inQueueB2.FreeTensor(b2Local);
  }
  __aicore__ inline void CopyOut() {
    LocalTensor<int32_t> c1Local = outQueueCO1.DeQue<int32_t>();
    FixpipeParamsV220 params;
    params.nSize = n;
    params.mSize = m;
    params.srcStride = m;
    params.dstStride = n;
    Fixpipe(cGM, c1Local, params);
    outQueueCO1.FreeTensor(c1Local);
  }

  TPipe pipe;
  TQue<TPosition::A1, 1> inQueueA1;
  TQue<TPosition::A2, 1> inQueueA2;
  TQue<TPosition::B1, 1> inQueueB1;
  TQue<TPosition::B1, 1> inQueueIdx1;
  TQue<TPosition::B2, 1> inQueueB2;
  TQue<TPosition::CO1, 1> outQueueCO1;
  GlobalTensor<int8_t> aGM, bGM;
  GlobalTensor<uint8_t> idxGM;
  GlobalTensor<int32_t> cGM;
};

extern "C" __global__ __aicore__ void sparse_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR idx, GM_ADDR c) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  KernelSparseMatmul op;
  op.Init(a, b, idx, c);
  op.Process();
}

// ---- host side: data, densification, golden ----------------------------------------------------

namespace {

// One group of 4 K-elements of a B column: the dense pair and its two 2-bit indexes (the first
// two non-zeros are kept; a lone value in the last slot goes to the second dense slot).
void densify_group(const int8_t e[4], int8_t pair[2], uint8_t index[2]) {
  int pos[2], found = 0;
  for (int i = 0; i < 4 && found < 2; ++i)
    if (e[i] != 0) pos[found++] = i;
  pair[0] = pair[1] = 0;
  index[0] = index[1] = 0;
  if (found == 2) {
    pair[0] = e[pos[0]], pair[1] = e[pos[1]];
    index[0] = static_cast<uint8_t>(pos[0]), index[1] = static_cast<uint8_t>(pos[1] - 1);
  } else if (found == 1 && pos[0] == 3) {
    pair[1] = e[3], index[1] = 2;
  } else if (found == 1) {
    pair[0] = e[pos[0]], index[0] = static_cast<uint8_t>(pos[0]);
  }
}

}  // namespace

#ifndef BLOCKS
#define BLOCKS 1
#endif

int32_t main(int32_t argc, char* argv[]) {
  const uint32_t blockDim = argc > 1 ? static_cast<uint32_t>(std::atoi(argv[1])) : BLOCKS;
  const uint32_t M = m * blockDim, K = k, N = n;
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> value(-128, 127), slot(0, 3);
  std::vector<int8_t> A(M * K), B(K * N, 0);  // row-major; B 4:2 sparse along K
  for (auto& x : A) x = static_cast<int8_t>(value(rng));
  for (uint32_t col = 0; col < N; ++col)
    for (uint32_t g = 0; g < K / 4; ++g)
      for (int kept = 0; kept < 2; ++kept) {  // up to two non-zeros per group
        const int8_t v = static_cast<int8_t>(value(rng));
        B[(g * 4 + slot(rng)) * N + col] = v;
      }

  uint8_t* a = static_cast<uint8_t*>(AscendC::GmAlloc(M * K));
  uint8_t* b = static_cast<uint8_t*>(AscendC::GmAlloc(bBytes));
  uint8_t* idx = static_cast<uint8_t*>(AscendC::GmAlloc(idxBytes));
  uint8_t* c = static_cast<uint8_t*>(AscendC::GmAlloc(M * N * 4));
  std::memcpy(a, A.data(), A.size());
  // At most two non-zeros per group were generated, so densification drops nothing and the
  // golden is A x B itself.
  for (uint32_t col = 0; col < N; ++col)
    for (uint32_t g = 0; g < K / 4; ++g) {
      int8_t e[4], pair[2];
      uint8_t index[2];
      for (int i = 0; i < 4; ++i) e[i] = B[(g * 4 + i) * N + col];
      densify_group(e, pair, index);
      for (uint32_t s = 0; s < 2; ++s) {
        const uint32_t kp = 2 * g + s;  // row of B'
        const uint32_t frac = (kp / 32) * ((N + 15) / 16) + col / 16;
        b[frac * 512 + (col % 16) * 32 + kp % 32] = static_cast<uint8_t>(pair[s]);
        idx[frac * 128 + (col % 16) * 8 + (kp % 32) / 4] |= static_cast<uint8_t>(index[s] << (2 * (kp % 4)));
      }
    }

  AscendC::SetKernelMode(KernelMode::AIC_MODE);
  ICPU_RUN_KF(sparse_matmul, blockDim, a, b, idx, c);

  uint32_t wrong = 0;
  for (uint32_t i = 0; i < M; ++i)
    for (uint32_t j = 0; j < N; ++j) {
      int32_t want = 0, got;
      for (uint32_t x = 0; x < K; ++x) want += int32_t{A[i * K + x]} * B[x * N + j];
      std::memcpy(&got, c + (i * N + j) * 4, 4);
      if (got != want && wrong++ < 5) std::printf("C[%u][%u] = %d, expected %d\n", i, j, got, want);
    }
  std::printf("sparse_matmul %ux%ux%u on %u block(s): %s\n", M, K, N, blockDim, wrong ? "MISMATCH" : "match");
  AscendC::GmFree(a);
  AscendC::GmFree(b);
  AscendC::GmFree(idx);
  AscendC::GmFree(c);
  return wrong ? 1 : 0;
}
