// One small int8 multiply (C 16 x 16 = A 16 x 32 x B 32 x 16) in the other construction styles, and
// with its synchronisation broken (argv[1] picks the variant):
//   static_ok      LocalMemAllocator tensors, manual flags, no TPipe
//   tbuf_ok        TBufs carved by a TPipe that is destroyed at once (so its M_MTE1 flags are
//                  drained before the kernel's own), manual flags
//   queue_ok       TPipe/TQue
//   removed_flag   static_ok without the MTE2 -> MTE1 flag pair
//   missing_enque  queue_ok without the EnQue/DeQue of the L0B tensor
//   queue_two_buffers  queue_ok three times over, A1 and B1 with two buffers each (the usual
//                  Ascend C double-buffer loop): an EnQue reuses the event id its DeQue released
//                  one iteration earlier, and only the FreeTensor two iterations back orders the
//                  new SetFlag after that DeQue's WaitFlag
// Every variant computes the right C (blocks run in program order); the broken ones race.
#include <cstdio>
#include <string>

#include "int8_host.hpp"

using namespace AscendC;

namespace {
std::string g_variant;
constexpr uint16_t m = 16, k = 32, n = 16;

Nd2NzParams nd2nz(uint16_t rows) {
  return Nd2NzParams(1, rows, k, 0, k, rows, 1, 0);
}
}  // namespace

__aicore__ inline void static_style(GlobalTensor<int8_t>& aGM, GlobalTensor<int8_t>& btGM,
                                    GlobalTensor<int32_t>& cGM, bool mte2_flag) {
  LocalMemAllocator<Hardware::L1> l1;
  LocalTensor<int8_t> a1 = l1.Alloc<TPosition::A1, int8_t>(m * k);
  LocalTensor<int8_t> b1 = l1.Alloc<TPosition::B1, int8_t>(k * n);
  LocalMemAllocator<Hardware::L0A> l0a;
  LocalMemAllocator<Hardware::L0B> l0b;
  LocalMemAllocator<Hardware::L0C> l0c;
  LocalTensor<int8_t> a2 = l0a.Alloc<int8_t>(m * k);
  LocalTensor<int8_t> b2 = l0b.Alloc<int8_t>(k * n);
  LocalTensor<int32_t> c1 = l0c.Alloc<int32_t>(m * n);
  DataCopy(a1, aGM, nd2nz(m));
  DataCopy(b1, btGM, nd2nz(n));  // mark: static_copy_b
  if (mte2_flag) {
    SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
  }
  LoadData(a2, a1, {0, 1, 0, 0, 0, false, 0});  // mark: static_load_a
  LoadData(b2, b1, {0, 1, 0, 0, 0, false, 0});
  SetFlag<HardEvent::MTE1_M>(EVENT_ID0);
  WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);
  Mmad(c1, a2, b2, {m, n, k, 0, false, true});
  SetFlag<HardEvent::M_FIX>(EVENT_ID0);
  WaitFlag<HardEvent::M_FIX>(EVENT_ID0);
  Fixpipe(cGM, c1, {n, m, m, n, false});
  PipeBarrier<PIPE_ALL>();
}

__aicore__ inline void tbuf_style(GlobalTensor<int8_t>& aGM, GlobalTensor<int8_t>& btGM,
                                  GlobalTensor<int32_t>& cGM) {
  TPipe pipe;
  TBuf<TPosition::A1> l1;
  TBuf<TPosition::A2> l0a;
  TBuf<TPosition::B2> l0b;
  TBuf<TPosition::CO1> l0c;
  GetTPipePtr()->InitBuffer(l1, m * k + k * n);
  GetTPipePtr()->InitBuffer(l0a, m * k);
  GetTPipePtr()->InitBuffer(l0b, k * n);
  GetTPipePtr()->InitBuffer(l0c, m * n * sizeof(int32_t));
  pipe.Destroy();  // the TPipe's own flags are drained before the kernel's schedule starts
  LocalTensor<int8_t> a1 = l1.Get<int8_t>();
  LocalTensor<int8_t> b1 = l1.GetWithOffset<int8_t>(k * n, m * k);
  LocalTensor<int8_t> a2 = l0a.Get<int8_t>(), b2 = l0b.Get<int8_t>();
  LocalTensor<int32_t> c1 = l0c.Get<int32_t>();
  DataCopy(a1, aGM, nd2nz(m));
  DataCopy(b1[0], btGM, nd2nz(n));
  SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID1);
  WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID1);
  LoadData(a2, a1, {0, 1, 0, 0, 0, false, 0});
  LoadData(b2, b1, {0, 1, 0, 0, 0, false, 0});
  SetFlag<HardEvent::MTE1_M>(EVENT_ID1);
  WaitFlag<HardEvent::MTE1_M>(EVENT_ID1);
  Mmad(c1, a2, b2, {m, n, k, 0, false, true});
  SetFlag<HardEvent::M_FIX>(EVENT_ID1);
  WaitFlag<HardEvent::M_FIX>(EVENT_ID1);
  Fixpipe(cGM, c1, {n, m, m, n, false});
}

__aicore__ inline void queue_style(GlobalTensor<int8_t>& aGM, GlobalTensor<int8_t>& btGM,
                                   GlobalTensor<int32_t>& cGM, bool enque_b2, int passes, int l1_buffers) {
  TPipe pipe;
  TQue<TPosition::A1, 1> qA1;
  TQue<TPosition::B1, 1> qB1;
  TQue<TPosition::A2, 1> qA2;
  TQue<TPosition::B2, 1> qB2;
  TQue<TPosition::CO1, 1> qC;
  pipe.InitBuffer(qA1, l1_buffers, m * k);
  pipe.InitBuffer(qB1, l1_buffers, k * n);
  pipe.InitBuffer(qA2, 1, m * k);
  pipe.InitBuffer(qB2, 1, k * n);
  pipe.InitBuffer(qC, 1, m * n * sizeof(int32_t));
  for (int pass = 0; pass < passes; ++pass) {
    LocalTensor<int8_t> a1 = qA1.AllocTensor<int8_t>();
    DataCopy(a1, aGM, nd2nz(m));
    qA1.EnQue(a1);  // mark: queue_enque_a1
    LocalTensor<int8_t> b1 = qB1.AllocTensor<int8_t>();
    DataCopy(b1, btGM, nd2nz(n));
    qB1.EnQue(b1);
    a1 = qA1.DeQue<int8_t>();  // mark: queue_deque_a1
    LocalTensor<int8_t> a2 = qA2.AllocTensor<int8_t>();
    LoadData(a2, a1, {0, 1, 0, 0, 0, false, 0});
    qA2.EnQue(a2);
    qA1.FreeTensor(a1);
    b1 = qB1.DeQue<int8_t>();
    LocalTensor<int8_t> b2 = qB2.AllocTensor<int8_t>();
    LoadData(b2, b1, {0, 1, 0, 0, 0, false, 0});  // mark: queue_load_b
    if (enque_b2) qB2.EnQue(b2);
    qB1.FreeTensor(b1);
    a2 = qA2.DeQue<int8_t>();
    if (enque_b2) b2 = qB2.DeQue<int8_t>();
    LocalTensor<int32_t> c1 = qC.AllocTensor<int32_t>();
    Mmad(c1, a2, b2, {m, n, k, 0, false, true});  // mark: queue_mmad
    qC.EnQue(c1);
    qA2.FreeTensor(a2);
    qB2.FreeTensor(b2);
    c1 = qC.DeQue<int32_t>();
    Fixpipe(cGM, c1, {n, m, m, n, false});
    qC.FreeTensor(c1);
  }
}

extern "C" __global__ __aicore__ void styles(GM_ADDR a, GM_ADDR bt, GM_ADDR c) {
  GlobalTensor<int8_t> aGM, btGM;
  GlobalTensor<int32_t> cGM;
  aGM.SetGlobalBuffer((__gm__ int8_t*)a);
  btGM.SetGlobalBuffer((__gm__ int8_t*)bt);
  cGM.SetGlobalBuffer((__gm__ int32_t*)c);
  if (g_variant == "static_ok" || g_variant == "removed_flag")
    static_style(aGM, btGM, cGM, g_variant == "static_ok");
  if (g_variant == "tbuf_ok") tbuf_style(aGM, btGM, cGM);
  if (g_variant == "queue_ok" || g_variant == "missing_enque")
    queue_style(aGM, btGM, cGM, g_variant == "queue_ok", 1, 1);
  if (g_variant == "queue_two_buffers") queue_style(aGM, btGM, cGM, true, 3, 2);
}

int32_t main(int32_t argc, char* argv[]) {
  g_variant = argc > 1 ? argv[1] : "static_ok";
  Int8Gemm g(m, k, n, 9);
  AscendC::SetKernelMode(KernelMode::AIC_MODE);
  uint8_t *a = g.a, *bt = g.bt, *c = g.c;  // the names the launch gives the GM tensors
  ICPU_RUN_KF(styles, 1, a, bt, c);
  const int wrong = g.wrong();
  std::printf("styles %s: %s\n", g_variant.c_str(), wrong ? "MISMATCH" : "match");
  return wrong ? 1 : 0;
}
