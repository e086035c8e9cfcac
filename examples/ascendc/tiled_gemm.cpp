// Tiled, double-buffered int8 GEMM over blocks, static-tensor style with explicit ping-pong flags:
// C (M x N int32) = A (M x K) x B (K x N), A row-major and B stored transposed (N x K row-major, so
// that its NZ copy in L1 is already the Zn layout L0B wants: int8 fractals cannot be transposed on
// the way). C is cut into tiles dealt round-robin to the blocks (GetBlockIdx() / GetBlockNum());
// each tile accumulates K in L0C in chunks. L1 and L0A/L0B have two slots, L0C two tiles: slot p's
// "free" flags (MTE1_MTE2, M_MTE1, FIX_M, id p) are set once before the loop and waited at the end,
// its "full" flags (MTE2_MTE1, MTE1_M, M_FIX) follow each copy, so the copy of the next chunk runs
// while this one is loaded and multiplied, and a tile is written out while the next is multiplied.
// Each id of each event is set and waited strictly in turn: no flag is ever set twice.
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

constexpr uint32_t kChunks = GEMM_K / TILE_K, kTiles = (GEMM_M / TILE_M) * (GEMM_N / TILE_N);
// Two accumulating Mmads into the same L0C cells are ordered by the Cube itself only for tiles of
// more than 10 fractals (the Mmad documentation); smaller tiles need a PipeBarrier<PIPE_M>.
constexpr bool kNeedsMBarrier = (TILE_M / 16) * (TILE_N / 16) <= 10;

class KernelTiledGemm {
 public:
  __aicore__ inline void Init(GM_ADDR a, GM_ADDR bt, GM_ADDR c) {
    aGM.SetGlobalBuffer((__gm__ int8_t*)a, uint64_t{GEMM_M} * GEMM_K);
    btGM.SetGlobalBuffer((__gm__ int8_t*)bt, uint64_t{GEMM_N} * GEMM_K);
    cGM.SetGlobalBuffer((__gm__ int32_t*)c, uint64_t{GEMM_M} * GEMM_N);
    LocalMemAllocator<Hardware::L1> l1;
    LocalMemAllocator<Hardware::L0A> l0a;
    LocalMemAllocator<Hardware::L0B> l0b;
    LocalMemAllocator<Hardware::L0C> l0c;
    for (int p = 0; p < 2; ++p) {
      a1[p] = l1.Alloc<TPosition::A1, int8_t>(tm * tk);
      b1[p] = l1.Alloc<TPosition::B1, int8_t>(tn * tk);
      a2[p] = l0a.Alloc<int8_t>(tm * tk);
      b2[p] = l0b.Alloc<int8_t>(tn * tk);
      c1[p] = l0c.Alloc<int32_t>(tm * tn);
    }
  }
  // Step s is chunk s % kChunks of this block's tile s / kChunks; it uses L1/L0 slot s % 2 and
  // the L0C slot of its tile.
  __aicore__ inline void Process() {
    const uint32_t myTiles = (kTiles - GetBlockIdx() + GetBlockNum() - 1) / GetBlockNum();
    for (int p = 0; p < 2; ++p) {  // every slot starts free
      SetFlag<HardEvent::MTE1_MTE2>(p);
      SetFlag<HardEvent::M_MTE1>(p);
      SetFlag<HardEvent::FIX_M>(p);
    }
    for (uint32_t s = 0; s < myTiles * kChunks; ++s) {
      const uint32_t t = s / kChunks, kc = s % kChunks, p = s % 2, u = t % 2;
      CopyIn(t, kc, p);
      Split(p);
      if (kc == 0) WaitFlag<HardEvent::FIX_M>(u);
      Compute(p, u, kc == 0);
      if (kc == kChunks - 1) CopyOut(t, u);
    }
    for (int p = 0; p < 2; ++p) {
      WaitFlag<HardEvent::MTE1_MTE2>(p);
      WaitFlag<HardEvent::M_MTE1>(p);
      WaitFlag<HardEvent::FIX_M>(p);
    }
  }

 private:
  // Row and column of C where this block's t-th tile starts.
  __aicore__ inline uint32_t TileRow(uint32_t t) const {
    return (GetBlockIdx() + t * GetBlockNum()) / (GEMM_N / TILE_N) * TILE_M;
  }
  __aicore__ inline uint32_t TileCol(uint32_t t) const {
    return (GetBlockIdx() + t * GetBlockNum()) % (GEMM_N / TILE_N) * TILE_N;
  }
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
  __aicore__ inline void CopyIn(uint32_t t, uint32_t kc, uint32_t p) {
    WaitFlag<HardEvent::MTE1_MTE2>(p);
    CopyTile(a1[p], aGM[uint64_t{TileRow(t)} * GEMM_K + kc * TILE_K], tm);
    CopyTile(b1[p], btGM[uint64_t{TileCol(t)} * GEMM_K + kc * TILE_K], tn);
    SetFlag<HardEvent::MTE2_MTE1>(p);
  }
  // A: NZ (fractal (k1, m1) at k1 * mFrac + m1) -> Zz (fractal (m1, k1) at m1 * kFrac + k1), one
  // LoadData per 16 rows. B: the NZ copy of B^T is already Zn: one LoadData of every fractal.
  __aicore__ inline void Split(uint32_t p) {
    WaitFlag<HardEvent::MTE2_MTE1>(p);
    WaitFlag<HardEvent::M_MTE1>(p);
    LoadData2DParams params;
    params.repeatTimes = kFrac;
    params.srcStride = mFrac;
    for (uint16_t i = 0; i < mFrac; ++i) LoadData(a2[p][i * 16 * tk], a1[p][i * 512], params);
    LoadData(b2[p], b1[p], {0, kFrac * nFrac, 1, 0, 0, false, 0});
    SetFlag<HardEvent::MTE1_MTE2>(p);
    SetFlag<HardEvent::MTE1_M>(p);
  }
  __aicore__ inline void Compute(uint32_t p, uint32_t u, bool first) {
    WaitFlag<HardEvent::MTE1_M>(p);
    if (kNeedsMBarrier && !first) PipeBarrier<PIPE_M>();
    Mmad(c1[u], a2[p], b2[p], {tm, tn, tk, 0, false, first});
    SetFlag<HardEvent::M_MTE1>(p);
  }
  __aicore__ inline void CopyOut(uint32_t t, uint32_t u) {
    SetFlag<HardEvent::M_FIX>(u);
    WaitFlag<HardEvent::M_FIX>(u);
    FixpipeParamsV220 params(tn, tm, tm, GEMM_N, false);
    Fixpipe(cGM[uint64_t{TileRow(t)} * GEMM_N + TileCol(t)], c1[u], params);
    SetFlag<HardEvent::FIX_M>(u);
  }

  GlobalTensor<int8_t> aGM, btGM;
  GlobalTensor<int32_t> cGM;
  LocalTensor<int8_t> a1[2], b1[2], a2[2], b2[2];
  LocalTensor<int32_t> c1[2];
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
