// An int4 matmul in the style of the Ascend C basic-API load samples, written for these tests, with
// sizes that are not whole fractals along K and N: A (M = 48 x K = 70) and B (K x N = 50), both row-major
// int4 in GM (two elements a byte, the even one low). GM -> L1 by DataCopy Nd2NzParams in its b8 form: dValue
// and srcDValue count bytes, 35 for A's rows and 25 for B's (A1: NZ of 48 x 128, B1: NZ of 128 x 64,
// zero-padded). L1 -> L0A by LoadData 2D per 16-row block (variant "load2d") or by one Load3Dv2 (variant
// "load3d"); L1 -> L0B by LoadDataWithTranspose of int4 (64 x 64 squares, four fractals each) per 64-row
// block of K. One int32 = int4 x int4 Mmad (m 48, n 50, k 70), Fixpipe of the int32 cells to C (ND); variant
// "unitflag" hands C over by unitFlag and clears the flags. The host compares C with a naive int32 product of
// the values -8..7.
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "int4_host.hpp"
#include "kernel_operator.h"
#include "tikicpulib.h"

namespace {
std::string g_variant;
constexpr uint16_t M = 48, K = 70, N = 50;  // M whole 16-row blocks: every L0C unit flag is taken
constexpr uint16_t mAlign = 48, kAlign = 128, nAlign = 64;  // L1: 16 rows, 64-element squares
constexpr uint32_t fractal = 1024;                          // int4 elements in a 512-byte fractal
}  // namespace

extern "C" __global__ __aicore__ void int4_load(GM_ADDR a, GM_ADDR b, GM_ADDR c) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  AscendC::GlobalTensor<AscendC::int4b_t> aGM, bGM;
  AscendC::GlobalTensor<int32_t> cGM;
  aGM.SetGlobalBuffer((__gm__ AscendC::int4b_t*)a, M * K);
  bGM.SetGlobalBuffer((__gm__ AscendC::int4b_t*)b, K * N);
  cGM.SetGlobalBuffer((__gm__ int32_t*)c, M * N);
  AscendC::LocalTensor<AscendC::int4b_t> a1(AscendC::TPosition::A1, 0, mAlign * kAlign);
  AscendC::LocalTensor<AscendC::int4b_t> b1(AscendC::TPosition::B1, 8192, kAlign * nAlign);
  AscendC::LocalTensor<AscendC::int4b_t> a2(AscendC::TPosition::A2, 0, mAlign * kAlign);
  AscendC::LocalTensor<AscendC::int4b_t> b2(AscendC::TPosition::B2, 0, kAlign * nAlign);
  AscendC::LocalTensor<int32_t> c1(AscendC::TPosition::CO1, 0, mAlign * nAlign);

  // ND -> NZ in the copy's b8 form: a row of 70 int4 is 35 bytes (B's of 50: 25).
  AscendC::Nd2NzParams pa;
  pa.ndNum = 1, pa.nValue = M, pa.dValue = K / 2, pa.srcDValue = K / 2;
  pa.dstNzC0Stride = mAlign, pa.dstNzNStride = 1;
  AscendC::DataCopy(a1, aGM, pa);
  AscendC::Nd2NzParams pb;
  pb.ndNum = 1, pb.nValue = K, pb.dValue = N / 2, pb.srcDValue = N / 2;
  pb.dstNzC0Stride = kAlign, pb.dstNzNStride = 1;
  AscendC::DataCopy(b1, bGM, pb);
  AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
  AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);

  if (g_variant == "load3d") {  // A1 as a 1-row feature map of mAlign positions, K channels
    AscendC::LoadData3DParamsV2<AscendC::int4b_t> p;
    p.l1H = 1, p.l1W = mAlign, p.channelSize = kAlign;
    p.kExtension = kAlign, p.mExtension = mAlign;
    p.strideW = 1, p.strideH = 1, p.filterW = 1, p.filterH = 1, p.dilationFilterW = 1, p.dilationFilterH = 1;
    AscendC::LoadData(a2, a1, p);
  } else {  // per 16-row block: its kAlign / 64 fractals (NZ column blocks mAlign rows apart)
    for (uint16_t i = 0; i < mAlign / 16; ++i)
      AscendC::LoadData(a2[i * (kAlign / 64) * fractal], a1[i * 16 * 64],
                        AscendC::LoadData2DParams(0, kAlign / 64, mAlign / 16, 0, 0, false, 0));
  }
  // B1's NZ column block (64 values of n) holds kAlign rows of k: each 64-row block of k is one
  // square; transposed it is four Zn fractals of 16 n x 64 k, fractals (k1, n1 = 0..3) of L0B.
  AscendC::LoadData2dTransposeParams t;
  t.repeatTimes = nAlign / 64;
  t.srcStride = kAlign / 64;
  for (uint16_t r = 0; r < kAlign / 64; ++r)
    AscendC::LoadDataWithTranspose(b2[r * (nAlign / 16) * fractal], b1[r * 64 * 64], t);
  AscendC::SetFlag<AscendC::HardEvent::MTE1_M>(EVENT_ID0);
  AscendC::WaitFlag<AscendC::HardEvent::MTE1_M>(EVENT_ID0);
  // Variant "unitflag": L0C handed to Fixpipe by unitFlag 3 instead of M_FIX flags, then the unit
  // flags cleared as Huawei's unitFlag sample does (SetFixPipeConfig with its CO1 tensor, true).
  const bool unit = g_variant == "unitflag";
  AscendC::Mmad(c1, a2, b2, AscendC::MmadParams(M, N, K, unit ? 3 : 0, false, true));
  if (!unit) {
    AscendC::SetFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);
  }
  AscendC::FixpipeParamsV220 f;
  f.nSize = N, f.mSize = M, f.srcStride = mAlign, f.dstStride = N;
  if (unit) f.unitFlag = 3;
  AscendC::Fixpipe(cGM, c1, f);
  if (unit) AscendC::SetFixPipeConfig<int32_t>(c1, true);
}

int32_t main(int32_t argc, char* argv[]) {
  g_variant = argc > 1 ? argv[1] : "";
  std::mt19937 rng(35);
  const std::vector<int> A = random_int4(rng, M * K), B = random_int4(rng, K * N);
  auto* a = static_cast<uint8_t*>(AscendC::GmAlloc(M * K / 2));
  auto* b = static_cast<uint8_t*>(AscendC::GmAlloc(K * N / 2));
  auto* c = static_cast<int32_t*>(AscendC::GmAlloc(M * N * sizeof(int32_t)));
  std::memset(a, 0, M * K / 2);
  std::memset(b, 0, K * N / 2);
  for (uint32_t i = 0; i < M * K; ++i) put4(a, i, A[i]);
  for (uint32_t i = 0; i < K * N; ++i) put4(b, i, B[i]);
  AscendC::SetKernelMode(KernelMode::AIC_MODE);
  ICPU_RUN_KF(int4_load, 1, a, b, reinterpret_cast<uint8_t*>(c));
  int wrong = 0;
  for (uint32_t i = 0; i < M; ++i)
    for (uint32_t j = 0; j < N; ++j) {
      int32_t want = 0;
      for (uint32_t k = 0; k < K; ++k) want += A[i * K + k] * B[k * N + j];
      wrong += c[i * N + j] != want;
    }
  AscendC::GmFree(a);
  AscendC::GmFree(b);
  AscendC::GmFree(c);
  std::printf("int4_load %s: %s\n", g_variant.c_str(), wrong ? "MISMATCH" : "match");
  return wrong ? 1 : 0;
}
