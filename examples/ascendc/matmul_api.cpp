// The high-level Matmul API (docs/ascendc.md, "Matmul API"): C (M x N float) = A (M x K half) x
// B (K x N half), all row-major in GM, split over the blocks by the host tiling
// (MultiCoreMatmulTiling). Each block copies the tiling from GM, takes its part of C
// (singleCoreM x singleCoreN, the last row and column of parts shorter: SetTail) and runs one
// IterateAll: the best-practice schedule of `aicore-sim gen --dtype half`. blockDim is BLOCKS
// (default 4) or the program's first argument; the sizes are MM_M, MM_K, MM_N (multiples of 16).
//
//   aicore-sim kernel examples/ascendc/matmul_api.cpp
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "tikicpulib.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

#ifndef MM_M
#define MM_M 256
#endif
#ifndef MM_K
#define MM_K 192
#endif
#ifndef MM_N
#define MM_N 384
#endif
#ifndef BLOCKS
#define BLOCKS 4
#endif

using namespace AscendC;

extern "C" __global__ __aicore__ void matmul_api(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGm) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  TPipe pipe;
  TCubeTiling tiling;
  std::memcpy(&tiling, tilingGm, sizeof(tiling));
  const int32_t block = GetBlockIdx();
  if (block >= tiling.usedCoreNum) return;
  // This block's part of C: part (i, j) for block i * (parts along N) + j.
  const int32_t nParts = (tiling.N + tiling.singleCoreN - 1) / tiling.singleCoreN;
  const int32_t mIdx = block / nParts, nIdx = block % nParts;
  const int32_t tailM = std::min(tiling.singleCoreM, tiling.M - mIdx * tiling.singleCoreM);
  const int32_t tailN = std::min(tiling.singleCoreN, tiling.N - nIdx * tiling.singleCoreN);
  GlobalTensor<half> aGlobal, bGlobal;
  GlobalTensor<float> cGlobal;
  aGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), tiling.M * tiling.Ka);
  bGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), tiling.Kb * tiling.N);
  cGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), tiling.M * tiling.N);
  matmul::Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>,
                 MatmulType<TPosition::GM, CubeFormat::ND, half>,
                 MatmulType<TPosition::GM, CubeFormat::ND, float>>
      mm;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
  mm.SetTensorA(aGlobal[mIdx * tiling.singleCoreM * tiling.Ka]);
  mm.SetTensorB(bGlobal[nIdx * tiling.singleCoreN]);
  mm.SetTail(tailM, tailN);
  mm.IterateAll(cGlobal[mIdx * tiling.singleCoreM * tiling.N + nIdx * tiling.singleCoreN]);
  mm.End();
}

int32_t main(int32_t argc, char* argv[]) {
  const int blocks = argc > 1 ? std::atoi(argv[1]) : BLOCKS;
  constexpr int M = MM_M, K = MM_K, N = MM_N;
  matmul_tiling::MultiCoreMatmulTiling cubeTiling(*platform_ascendc::PlatformAscendCManager::GetInstance());
  cubeTiling.SetDim(blocks);
  cubeTiling.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
  cubeTiling.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
  cubeTiling.SetCType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
  cubeTiling.SetShape(M, N, K);
  cubeTiling.SetOrgShape(M, N, K);
  cubeTiling.SetBias(false);
  cubeTiling.SetBufferSpace(-1, -1, -1);
  optiling::TCubeTiling tilingData;
  if (cubeTiling.GetTiling(tilingData) == -1) return 1;

  auto* a = static_cast<half*>(AscendC::GmAlloc(M * K * sizeof(half)));
  auto* b = static_cast<half*>(AscendC::GmAlloc(K * N * sizeof(half)));
  auto* c = static_cast<float*>(AscendC::GmAlloc(M * N * sizeof(float)));
  auto* tiling = static_cast<uint8_t*>(AscendC::GmAlloc(tilingData.GetDataSize()));
  tilingData.SaveToBuffer(tiling, tilingData.GetDataSize());
  // Multiples of 1/8 in [-1, 1]: every float sum is exact, in any order.
  std::vector<float> av(M * K), bv(K * N);
  for (int i = 0; i < M * K; ++i) av[i] = ((i * 7) % 17 - 8) / 8.0f, a[i] = half(av[i]);
  for (int i = 0; i < K * N; ++i) bv[i] = ((i * 5) % 17 - 8) / 8.0f, b[i] = half(bv[i]);

  AscendC::SetKernelMode(KernelMode::AIC_MODE);
  ICPU_RUN_KF(matmul_api, blocks, reinterpret_cast<uint8_t*>(a), reinterpret_cast<uint8_t*>(b),
              reinterpret_cast<uint8_t*>(c), tiling);

  int bad = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double want = 0;
      for (int k = 0; k < K; ++k) want += double(av[i * K + k]) * bv[k * N + j];
      bad += c[i * N + j] != static_cast<float>(want);
    }
  std::printf("matmul_api %dx%dx%d on %d block(s): %s\n", M, K, N, blocks, bad ? "MISMATCH" : "match");
  AscendC::GmFree(a);
  AscendC::GmFree(b);
  AscendC::GmFree(c);
  AscendC::GmFree(tiling);
  return bad ? 1 : 0;
}
