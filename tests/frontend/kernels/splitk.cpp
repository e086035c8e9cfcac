// Split-K on two blocks through the Ascend C front end: C (16 x 16 int32) = A (16 x 64 int8) x B
// (64 x 16 int8), block b multiplying k in [32b, 32b + 32) and adding its partial into the same C
// with SetAtomicAdd<int32_t>() ... SetAtomicNone(), then SyncAll(). The host checks C against a
// plain loop; prints "splitk: ok" or what differs. argv[1] = "plain" leaves the atomic mode out
// (the race checker's case).
#include <cstdio>
#include <cstring>
#include <string>

#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

namespace {
bool g_atomic = true;
constexpr int M = 16, K = 64, N = 16, KH = 32;
int8_t a_of(int m, int k) {
  return static_cast<int8_t>((m * 7 + k * 3) % 11 - 5);
}
int8_t b_of(int k, int n) {
  return static_cast<int8_t>((k * 5 + n * 13) % 9 - 4);
}
}  // namespace

extern "C" __global__ __aicore__ void splitk(GM_ADDR a, GM_ADDR bt, GM_ADDR c) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  // A and B^T are given per block as one Zz / Zn fractal of 16 rows x 32 k-bytes each.
  const uint32_t block = GetBlockIdx();
  GlobalTensor<int8_t> aGM, btGM;
  GlobalTensor<int32_t> cGM;
  aGM.SetGlobalBuffer((__gm__ int8_t*)a + block * M * KH, M * KH);
  btGM.SetGlobalBuffer((__gm__ int8_t*)bt + block * N * KH, N * KH);
  cGM.SetGlobalBuffer((__gm__ int32_t*)c, M * N);
  LocalTensor<int8_t> a1(TPosition::A1, 0, M * KH), b1(TPosition::B1, M * KH, N * KH);
  LocalTensor<int8_t> a2(TPosition::A2, 0, M * KH), b2(TPosition::B2, 0, N * KH);
  LocalTensor<int32_t> c1(TPosition::CO1, 0, M * N);
  DataCopy(a1, aGM, M * KH);
  DataCopy(b1, btGM, N * KH);
  SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
  WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
  LoadData(a2, a1, {0, 1, 0, 0, 0, false, 0});
  LoadData(b2, b1, {0, 1, 0, 0, 0, false, 0});
  SetFlag<HardEvent::MTE1_M>(EVENT_ID0);
  WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);
  Mmad(c1, a2, b2, {M, N, KH, 0, false, true});
  SetFlag<HardEvent::M_FIX>(EVENT_ID0);
  WaitFlag<HardEvent::M_FIX>(EVENT_ID0);
  if (g_atomic) SetAtomicAdd<int32_t>();
  Fixpipe(cGM, c1, {N, M, M, N, false});
  if (g_atomic) SetAtomicNone();
  SyncAll();
}

int32_t main(int32_t argc, char* argv[]) {
  g_atomic = !(argc > 1 && std::string(argv[1]) == "plain");
  auto* ga = static_cast<uint8_t*>(AscendC::GmAlloc(M * K));
  auto* gbt = static_cast<uint8_t*>(AscendC::GmAlloc(N * K));
  auto* gc = static_cast<uint8_t*>(AscendC::GmAlloc(M * N * 4));
  auto* a = reinterpret_cast<int8_t*>(ga);
  auto* bt = reinterpret_cast<int8_t*>(gbt);
  auto* c = reinterpret_cast<int32_t*>(gc);
  for (int blk = 0; blk < 2; ++blk)
    for (int r = 0; r < 16; ++r)
      for (int kk = 0; kk < KH; ++kk) {
        a[blk * M * KH + r * KH + kk] = a_of(r, blk * KH + kk);   // Zz: row r, k-byte kk
        bt[blk * N * KH + r * KH + kk] = b_of(blk * KH + kk, r);  // Zn: n-row r, k-byte kk
      }
  std::memset(c, 0, M * N * 4);
  AscendC::SetKernelMode(KernelMode::AIC_MODE);
  ICPU_RUN_KF(splitk, 2, ga, gbt, gc);
  std::string failure;
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      int32_t want = 0;
      for (int k = 0; k < K; ++k) want += a_of(m, k) * b_of(k, n);
      if (g_atomic && c[m * N + n] != want && failure.empty())
        failure = "C[" + std::to_string(m) + "][" + std::to_string(n) +
                  "] = " + std::to_string(c[m * N + n]) + ", want " + std::to_string(want);
    }
  std::printf("splitk: %s\n", failure.empty() ? "ok" : ("FAILED: " + failure).c_str());
  AscendC::GmFree(ga);
  AscendC::GmFree(gbt);
  AscendC::GmFree(gc);
  return failure.empty() ? 0 : 1;
}
