// The APIs the examples do not use, each checked by the kernel against a value computed here on
// the host (argv[1] picks the variant; prints "api VARIANT: ok" or what differs):
//   bias       Mmad with a CO1 bias that is its own destination: C = A x B, then C += A x B; DataCopy
//              by element count; Fixpipe with reluEn
//   bias_c2    Mmad with a bias in C2 (the bias table) that nothing filled: the checker's
//              uninitialised-read error at the Mmad (kernels/bias.cpp fills and uses the table)
//   bf16       bf16 x bf16 -> float Mmad, B transposed fractal by fractal on its way to L0B
//   scalar     GetValue / SetValue / operator() / ReinterpretCast on local and global tensors, the
//              event-id and queue bookkeeping APIs, TQueSync, FIX_FIX, V events (ignored on the AIC),
//              the system variables
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

namespace {
std::string g_variant, g_failure;
void expect(bool ok, const std::string& what) {
  if (!ok && g_failure.empty()) g_failure = what;
}
constexpr uint16_t m = 16, k = 32, n = 16;
}  // namespace

// A (16 x 32 int8, all 1) x B (32 x 16 int8, column j all 2 or, for odd j, all -2), B given as
// B^T (16 x 32 row-major, one Zn fractal): every C cell is 64 or -64; twice that after the
// accumulating Mmad, and 0 for the odd columns once reluEn clamps them.
__aicore__ inline void bias_variant(GlobalTensor<int8_t>& aGM, GlobalTensor<int8_t>& btGM,
                                    GlobalTensor<int32_t>& cGM, bool in_c2) {
  LocalTensor<int8_t> a1(TPosition::A1, 0, m * k), b1(TPosition::B1, m * k, k * n);
  LocalTensor<int8_t> a2(TPosition::A2, 0, m * k), b2(TPosition::B2, 0, k * n);
  LocalTensor<int32_t> c1(TPosition::CO1, 0, m * n);
  DataCopy(a1, aGM, m * k);  // A is one fractal row: its ND bytes are already one Zz fractal
  DataCopy(b1, btGM, k * n);
  SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
  WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
  LoadData(a2, a1, {0, 1, 0, 0, 0, false, 0});
  LoadData(b2, b1, {0, 1, 0, 0, 0, false, 0});
  SetFlag<HardEvent::MTE1_M>(EVENT_ID0);
  WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);
  Mmad(c1, a2, b2, {m, n, k, 0, false, true});
  PipeBarrier<PIPE_M>();
  if (in_c2) {
    LocalTensor<int32_t> bias(TPosition::C2, 0, n);     // never filled: C is undefined where it leaves
    Mmad(c1, a2, b2, bias, {m, n, k, 0, false, true});  // expect: bias_c2
  }
  Mmad(c1, a2, b2, c1, {m, n, k, 0, false, true});  // bias = dst: accumulates though cmatrixInitVal
  SetFlag<HardEvent::M_FIX>(EVENT_ID0);
  WaitFlag<HardEvent::M_FIX>(EVENT_ID0);
  Fixpipe(cGM, c1, {n, m, m, n, true});  // expect: bias_c2 out
  PipeBarrier<PIPE_ALL>();
}

// A (16 x 16 bf16, A[i][j] = i + j / 8) x B (16 x 16 bf16, B[i][j] = i - j), both in Zz-like ND
// fractals; C[i][j] = sum_x A[i][x] B[x][j].
__aicore__ inline void bf16_variant(GlobalTensor<bfloat16_t>& aGM, GlobalTensor<bfloat16_t>& bGM,
                                    GlobalTensor<float>& cGM) {
  LocalTensor<bfloat16_t> a1(TPosition::A1, 0, 256), b1(TPosition::B1, 512, 256);
  LocalTensor<bfloat16_t> a2(TPosition::A2, 0, 256), b2(TPosition::B2, 0, 256);
  LocalTensor<float> c1(TPosition::CO1, 0, 256);
  DataCopy(a1, aGM, {1, 16, 0, 0});
  DataCopy(b1, bGM, {1, 16, 0, 0});
  SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
  WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
  LoadData(a2, a1, {0, 1, 0, 0, 0, false, 0});
  LoadData(b2, b1, {0, 1, 0, 0, 0, true, 0});  // B's 16 x 16 fractal transposed to Zn
  SetFlag<HardEvent::MTE1_M>(EVENT_ID0);
  WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);
  Mmad(c1, a2, b2, {16, 16, 16, 0, false, true});
  SetFlag<HardEvent::M_FIX>(EVENT_ID0);
  WaitFlag<HardEvent::M_FIX>(EVENT_ID0);
  Fixpipe(cGM, c1, {16, 16, 16, 16, false});
  PipeBarrier<PIPE_ALL>();
}

__aicore__ inline void scalar_variant(GlobalTensor<int8_t>& aGM, GlobalTensor<int32_t>& cGM) {
  expect(GetBlockNum() == 1 && GetBlockIdx() == 0 && GetSubBlockIdx() == 0 && GetTaskRation() == 1, "system");
  // Global scalar access and views.
  aGM.SetValue(3, 7);
  expect(aGM.GetValue(3) == 7 && aGM[3].GetValue(0) == 7, "GlobalTensor GetValue/SetValue/[]");
  expect(aGM.ReinterpretCast<int32_t>().GetSize() == aGM.GetSize() / 4, "GlobalTensor ReinterpretCast");
  // Local scalar access and views.
  LocalTensor<int32_t> t(TPosition::CO1, 1024, 64);
  t(5) = -9;
  expect(t.GetValue(5) == -9 && t[5].GetValue(0) == -9 && t.GetPhyAddr()[5] == -9,
         "LocalTensor ()/GetValue/[]");
  expect(t.ReinterpretCast<int8_t>().GetSize() == 256 && t[4].GetSize() == 60 && t.GetLength() == 256,
         "LocalTensor ReinterpretCast/GetSize");
  expect(t.GetPosition() == TPosition::CO1, "GetPosition");
  // The pipe's event-id API and the queue bookkeeping.
  {
    TPipe pipe;
    expect(GetTPipePtr() == &pipe, "GetTPipePtr");
    expect(pipe.FetchEventID<HardEvent::M_MTE1>() == 3, "FetchEventID after TPipe's 0-2");
    const TEventID id = pipe.AllocEventID<HardEvent::MTE2_FIX>();
    expect(id == 0 && pipe.FetchEventID<HardEvent::MTE2_FIX>() == 1, "AllocEventID");
    pipe.ReleaseEventID<HardEvent::MTE2_FIX>(id);
    expect(pipe.FetchEventID<HardEvent::MTE2_FIX>() == 0, "ReleaseEventID");
    TQue<TPosition::CO1, 2> q;
    pipe.InitBuffer(q, 2, 1024);
    expect(q.VacantInQue() && !q.HasTensorInQue() && q.HasIdleBuffer(), "empty queue");
    LocalTensor<int32_t> c = q.AllocTensor<int32_t>();
    q.EnQue(c);
    expect(q.GetTensorCountInQue() == 1 && q.HasTensorInQue() && q.HasIdleBuffer(), "one in the queue");
    c = q.DeQue<int32_t>();
    q.FreeTensor(c);
    q.FreeAllEvent();  // waits for the FreeTensor's FIX_M id now, not at ~TPipe
  }
  // Raw flags and the events the AIC ignores.
  TQueSync<PIPE_MTE2, PIPE_MTE1> sync;
  sync.SetFlag(3);
  sync.WaitFlag(3);
  SetFlag<HardEvent::MTE2_V>(EVENT_ID0);   // nothing on the Cube core
  WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);  // nothing
  SetFlag<HardEvent::FIX_FIX>(EVENT_ID0);  // PipeBarrier<PIPE_FIX>
  PipeBarrier<PIPE_ALL>();
  (void)cGM;
}

extern "C" __global__ __aicore__ void api(GM_ADDR a, GM_ADDR b, GM_ADDR c) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  GlobalTensor<int8_t> aGM;
  GlobalTensor<int32_t> cGM;
  aGM.SetGlobalBuffer((__gm__ int8_t*)a, 1024);
  cGM.SetGlobalBuffer((__gm__ int32_t*)c, 256);
  GlobalTensor<int8_t> btGM;
  btGM.SetGlobalBuffer((__gm__ int8_t*)b, 512);
  if (g_variant == "bias" || g_variant == "bias_c2") bias_variant(aGM, btGM, cGM, g_variant == "bias_c2");
  if (g_variant == "scalar") scalar_variant(aGM, cGM);
  if (g_variant == "bf16") {
    GlobalTensor<bfloat16_t> ag, bg;
    GlobalTensor<float> cg;
    ag.SetGlobalBuffer((__gm__ bfloat16_t*)a);
    bg.SetGlobalBuffer((__gm__ bfloat16_t*)b);
    cg.SetGlobalBuffer((__gm__ float*)c);
    bf16_variant(ag, bg, cg);
  }
}

int32_t main(int32_t argc, char* argv[]) {
  g_variant = argc > 1 ? argv[1] : "bias";
  uint8_t* a = static_cast<uint8_t*>(AscendC::GmAlloc(1024));
  uint8_t* b = static_cast<uint8_t*>(AscendC::GmAlloc(1024));
  uint8_t* c = static_cast<uint8_t*>(AscendC::GmAlloc(1024));
  if (g_variant == "bf16") {
    for (int i = 0; i < 16; ++i)
      for (int j = 0; j < 16; ++j) {
        const bfloat16_t x = float(i) + float(j) / 8, y = float(i - j);
        std::memcpy(a + (i * 16 + j) * 2, &x, 2);
        std::memcpy(b + (i * 16 + j) * 2, &y, 2);
      }
  } else {
    std::memset(a, 1, 1024);
    for (int j = 0; j < 16; ++j) std::memset(b + j * 32, j % 2 ? -2 : 2, 32);  // B^T row j
  }
  AscendC::SetKernelMode(KernelMode::AIC_MODE);
  ICPU_RUN_KF(api, 1, a, b, c);
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) {
      int32_t ci;
      float cf;
      std::memcpy(&ci, c + (i * 16 + j) * 4, 4);
      std::memcpy(&cf, c + (i * 16 + j) * 4, 4);
      if (g_variant == "bias") expect(ci == (j % 2 ? 0 : 128), "C = relu(A x B + A x B)");
      if (g_variant == "bf16") {
        double want = 0;
        for (int x = 0; x < 16; ++x) want += (double(i) + double(x) / 8) * double(x - j);
        expect(std::fabs(cf - want) <= 1e-3, "bf16 Mmad");
      }
    }
  std::printf("api %s: %s\n", g_variant.c_str(), g_failure.empty() ? "ok" : ("FAILED: " + g_failure).c_str());
  AscendC::GmFree(a);
  AscendC::GmFree(b);
  AscendC::GmFree(c);
  return g_failure.empty() ? 0 : 1;
}
