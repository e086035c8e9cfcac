// Tiled, double-buffered int8 GEMM over blocks, TPipe/TQue style: C (M x N int32) = A (M x K) x B
// (K x N), A row-major and B stored transposed (N x K row-major, so that its NZ copy in L1 is already
// the Zn layout L0B wants: int8 fractals cannot be transposed on the way). C is cut into tiles dealt
// round-robin to the blocks (GetBlockIdx() / GetBlockNum()); each tile accumulates K in L0C in
// chunks. A1/B1/A2/B2/CO1 have two buffers each, so the copy of the next chunk overlaps the multiply
// of this one and the write-out of a tile the next tile's work.
// Sizes: -DGEMM_M=.. -DGEMM_K=.. -DGEMM_N=.. and -DTILE_M=.. -DTILE_K=.. -DTILE_N=.. (the tiles must
// divide the matrix); blockDim is BLOCKS (default 2) or the program's first argument.
//
//   aicore-sim kernel examples/ascendc/tiled_gemm.cpp
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

#ifndef GEMM_M
#define GEMM_M 256
#endif
#ifndef GEMM_K
#define GEMM_K 512
#endif
#ifndef GEMM_N
#define GEMM_N 256
#endif
#ifndef TILE_M
#define TILE_M 128
#endif
#ifndef TILE_K
#define TILE_K 128
#endif
#ifndef TILE_N
#define TILE_N 128
#endif
static_assert(GEMM_M % TILE_M == 0 && GEMM_K % TILE_K == 0 && GEMM_N % TILE_N == 0,
              "the tiles must divide the matrices");
static_assert(TILE_M % 16 == 0 && TILE_N % 16 == 0 && TILE_K % 32 == 0, "tiles are whole int8 fractals");

constexpr uint16_t tm = TILE_M, tk = TILE_K, tn = TILE_N;
constexpr uint16_t mFrac = tm / 16, kFrac = tk / 32, nFrac = tn / 16;

class KernelTiledGemm {
 public:
  __aicore__ inline void Init(GM_ADDR a, GM_ADDR bt, GM_ADDR c) {
    aGM.SetGlobalBuffer((__gm__ int8_t*)a, uint64_t{GEMM_M} * GEMM_K);
    btGM.SetGlobalBuffer((__gm__ int8_t*)bt, uint64_t{GEMM_N} * GEMM_K);
    cGM.SetGlobalBuffer((__gm__ int32_t*)c, uint64_t{GEMM_M} * GEMM_N);
    pipe.InitBuffer(inQueueA1, 2, tm * tk);
    pipe.InitBuffer(inQueueB1, 2, tn * tk);
    pipe.InitBuffer(inQueueA2, 2, tm * tk);
    pipe.InitBuffer(inQueueB2, 2, tn * tk);
    pipe.InitBuffer(outQueueCO1, 2, tm * tn * sizeof(int32_t));
  }
  __aicore__ inline void Process() {
    constexpr uint32_t tiles = (GEMM_M / TILE_M) * (GEMM_N / TILE_N);
    for (uint32_t t = GetBlockIdx(); t < tiles; t += GetBlockNum()) {
      const uint32_t row = t / (GEMM_N / TILE_N) * TILE_M, col = t % (GEMM_N / TILE_N) * TILE_N;
      LocalTensor<int32_t> c1Local = outQueueCO1.AllocTensor<int32_t>();
      for (uint32_t kc = 0; kc < GEMM_K / TILE_K; ++kc) {
        CopyIn(row, col, kc * TILE_K);
        SplitA();
        SplitB();
        Compute(c1Local, kc == 0);
      }
      outQueueCO1.EnQue(c1Local);
      CopyOut(row, col);
    }
  }

 private:
  __aicore__ inline void CopyTile(const LocalTensor<int8_t>& dst, const GlobalTensor<int8_t>& src,
                                  uint16_t rows) {
    Nd2NzParams params;
    params.ndNum = 1;
    params.nValue = rows;
    params.dValue = tk;
    params.srcNdMatrixStride = 0;
    params.srcDValue = GEMM_K;
    params.dstNzC0Stride = rows;
    params.dstNzNStride = 1;
    params.dstNzMatrixStride = 0;
    DataCopy(dst, src, params);
  }
  __aicore__ inline void CopyIn(uint32_t row, uint32_t col, uint32_t k0) {
    LocalTensor<int8_t> a1Local = inQueueA1.AllocTensor<int8_t>();
    LocalTensor<int8_t> b1Local = inQueueB1.AllocTensor<int8_t>();
    CopyTile(a1Local, aGM[uint64_t{row} * GEMM_K + k0], tm);
    CopyTile(b1Local, btGM[uint64_t{col} * GEMM_K + k0], tn);
    inQueueA1.EnQue(a1Local);
    inQueueB1.EnQue(b1Local);
  }
  // NZ (fractal (k1, m1) at k1 * mFrac + m1) -> Zz (fractal (m1, k1) at m1 * kFrac + k1).
  __aicore__ inline void SplitA() {
    LocalTensor<int8_t> a1Local = inQueueA1.DeQue<int8_t>();
    LocalTensor<int8_t> a2Local = inQueueA2.AllocTensor<int8_t>();
    LoadData2DParams params;
    params.repeatTimes = kFrac;
    params.srcStride = mFrac;
    for (uint16_t i = 0; i < mFrac; ++i) LoadData(a2Local[i * 16 * tk], a1Local[i * 512], params);
    inQueueA2.EnQue(a2Local);
    inQueueA1.FreeTensor(a1Local);
  }
  // The NZ copy of B^T is already Zn: one LoadData of every fractal.
  __aicore__ inline void SplitB() {
    LocalTensor<int8_t> b1Local = inQueueB1.DeQue<int8_t>();
    LocalTensor<int8_t> b2Local = inQueueB2.AllocTensor<int8_t>();
    LoadData(b2Local, b1Local, {0, kFrac * nFrac, 1, 0, 0, false, 0});
    inQueueB2.EnQue(b2Local);
    inQueueB1.FreeTensor(b1Local);
  }
  __aicore__ inline void Compute(const LocalTensor<int32_t>& c1Local, bool first) {
    LocalTensor<int8_t> a2Local = inQueueA2.DeQue<int8_t>();
    LocalTensor<int8_t> b2Local = inQueueB2.DeQue<int8_t>();
    Mmad(c1Local, a2Local, b2Local, {tm, tn, tk, 0, false, first});
    inQueueA2.FreeTensor(a2Local);
    inQueueB2.FreeTensor(b2Local);
  }
  __aicore__ inline void CopyOut(uint32_t row, uint32_t col) {
    LocalTensor<int32_t> c1Local = outQueueCO1.DeQue<int32_t>();
    FixpipeParamsV220 params(tn, tm, tm, GEMM_N, false);
    Fixpipe(cGM[uint64_t{row} * GEMM_N + col], c1Local, params);
    outQueueCO1.FreeTensor(c1Local);
  }

  TPipe pipe;
  TQue<TPosition::A1, 1> inQueueA1;
  TQue<TPosition::B1, 1> inQueueB1;
  TQue<TPosition::A2, 1> inQueueA2;
  TQue<TPosition::B2, 1> inQueueB2;
  TQue<TPosition::CO1, 1> outQueueCO1;
  GlobalTensor<int8_t> aGM, btGM;
  GlobalTensor<int32_t> cGM;
};

extern "C" __global__ __aicore__ void tiled_gemm(GM_ADDR a, GM_ADDR bt, GM_ADDR c) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  KernelTiledGemm op;
  op.Init(a, bt, c);
  op.Process();
}

#ifndef BLOCKS
#define BLOCKS 2
#endif

int32_t main(int32_t argc, char* argv[]) {
  const uint32_t blockDim = argc > 1 ? static_cast<uint32_t>(std::atoi(argv[1])) : BLOCKS;
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> value(-128, 127);
  std::vector<int8_t> A(size_t{GEMM_M} * GEMM_K), B(size_t{GEMM_K} * GEMM_N);
  for (auto& x : A) x = static_cast<int8_t>(value(rng));
  for (auto& x : B) x = static_cast<int8_t>(value(rng));

  uint8_t* a = static_cast<uint8_t*>(AscendC::GmAlloc(A.size()));
  uint8_t* bt = static_cast<uint8_t*>(AscendC::GmAlloc(B.size()));
  uint8_t* c = static_cast<uint8_t*>(AscendC::GmAlloc(size_t{GEMM_M} * GEMM_N * sizeof(int32_t)));
  std::memcpy(a, A.data(), A.size());
  for (uint32_t x = 0; x < GEMM_K; ++x)
    for (uint32_t j = 0; j < GEMM_N; ++j)
      bt[size_t{j} * GEMM_K + x] = static_cast<uint8_t>(B[size_t{x} * GEMM_N + j]);

  AscendC::SetKernelMode(KernelMode::AIC_MODE);
  ICPU_RUN_KF(tiled_gemm, blockDim, a, bt, c);

  uint64_t wrong = 0;
  std::vector<int32_t> row(GEMM_N);
  for (uint32_t i = 0; i < GEMM_M; ++i) {
    std::fill(row.begin(), row.end(), 0);
    for (uint32_t x = 0; x < GEMM_K; ++x) {
      const int32_t av = A[size_t{i} * GEMM_K + x];
      for (uint32_t j = 0; j < GEMM_N; ++j) row[j] += av * B[size_t{x} * GEMM_N + j];
    }
    for (uint32_t j = 0; j < GEMM_N; ++j) {
      int32_t got;
      std::memcpy(&got, c + (size_t{i} * GEMM_N + j) * sizeof(int32_t), sizeof got);
      if (got != row[j] && wrong++ < 5) std::printf("C[%u][%u] = %d, expected %d\n", i, j, got, row[j]);
    }
  }
  std::printf("tiled_gemm %ux%ux%u, tiles %ux%ux%u, on %u block(s): %s\n", GEMM_M, GEMM_K, GEMM_N, TILE_M,
              TILE_K, TILE_N, blockDim, wrong ? "MISMATCH" : "match");
  AscendC::GmFree(a);
  AscendC::GmFree(bt);
  AscendC::GmFree(c);
  return wrong ? 1 : 0;
}
