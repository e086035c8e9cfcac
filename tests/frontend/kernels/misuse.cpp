// Kernels that break the rules the front end checks, one per scenario (argv[1]); test_frontend runs
// each and expects its error at the line marked "expect: SCENARIO". Built once by CMake.
#include <cstdio>
#include <cstring>
#include <string>

#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

namespace {
std::string g_scenario;
}

extern "C" __global__ __aicore__ void misuse(GM_ADDR a, GM_ADDR c) {
  const std::string& s = g_scenario;
  GlobalTensor<int8_t> aGM;
  aGM.SetGlobalBuffer((__gm__ int8_t*)a, 4096);
  if (s == "deque_empty") {
    TPipe pipe;
    TQue<TPosition::A1, 1> q;
    pipe.InitBuffer(q, 1, 1024);
    q.DeQue<int8_t>();  // expect: deque_empty
  } else if (s == "enque_over_depth") {
    TPipe pipe;
    TQue<TPosition::A1, 1> q;
    pipe.InitBuffer(q, 2, 1024);
    LocalTensor<int8_t> t0 = q.AllocTensor<int8_t>();
    LocalTensor<int8_t> t1 = q.AllocTensor<int8_t>();
    q.EnQue(t0);
    q.EnQue(t1);  // expect: enque_over_depth
  } else if (s == "alloc_no_free") {
    TPipe pipe;
    TQue<TPosition::B1, 1> q;
    pipe.InitBuffer(q, 1, 1024);
    q.AllocTensor<int8_t>();
    q.AllocTensor<int8_t>();  // expect: alloc_no_free
  } else if (s == "free_twice") {
    TPipe pipe;
    TQue<TPosition::A1, 1> q;
    pipe.InitBuffer(q, 1, 1024);
    LocalTensor<int8_t> t = q.AllocTensor<int8_t>();
    q.FreeTensor(t);
    q.FreeTensor(t);  // expect: free_twice
  } else if (s == "too_many_events") {
    // TPipe holds M_MTE1 0-2: five outstanding FreeTensors of an L0A queue take 3-7, a sixth has none.
    TPipe pipe;
    TQue<TPosition::A2, 1> q;
    pipe.InitBuffer(q, 6, 512);
    for (int i = 0; i < 6; ++i) {
      LocalTensor<int8_t> t = q.AllocTensor<int8_t>();
      q.FreeTensor(t);  // expect: too_many_events
    }
  } else if (s == "capacity") {
    TPipe pipe;
    TQue<TPosition::A2, 1> q1, q2;
    pipe.InitBuffer(q1, 1, 60 * 1024);
    pipe.InitBuffer(q2, 1, 8 * 1024);  // expect: capacity
  } else if (s == "misaligned_tensor") {
    LocalTensor<int8_t> t(TPosition::A1, 16, 64);  // expect: misaligned_tensor
  } else if (s == "tensor_past_end") {
    LocalTensor<half> t(TPosition::B2, 32 * 1024, 32 * 1024);  // expect: tensor_past_end
  } else if (s == "second_tpipe") {
    TPipe pipe;
    TPipe other;  // expect: second_tpipe
  } else if (s == "misaligned_operand") {
    LocalTensor<int8_t> l1(TPosition::A1, 0, 1024);
    LocalTensor<int8_t> l0a(TPosition::A2, 32, 512);
    LoadData(l0a, l1, {0, 1, 0, 0, 0, false, 0});  // expect: misaligned_operand
  } else if (s == "wrong_position") {
    LocalTensor<int8_t> l1(TPosition::A1, 0, 1024);
    LocalTensor<int8_t> l0a(TPosition::A2, 0, 512);
    DataCopy(l0a, aGM, 512);  // expect: wrong_position
  } else if (s == "gm_not_allocated") {
    static int8_t host[1024];
    GlobalTensor<int8_t> g;
    g.SetGlobalBuffer(host, 1024);
    LocalTensor<int8_t> l1(TPosition::A1, 0, 1024);
    DataCopy(l1, g, 1024);  // expect: gm_not_allocated
  } else if (s == "get_value_range") {
    LocalTensor<int32_t> t(TPosition::CO1, 0, 16);
    t.GetValue(16);  // expect: get_value_range
  } else if (s == "deadlock") {
    LocalTensor<int8_t> l1(TPosition::A1, 0, 1024);
    DataCopy(l1, aGM, 1024);
    WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID1);  // expect: deadlock
  } else if (s == "manual_m_mte1") {
    // A live TPipe has set M_MTE1 0-2 already: setting id 0 again is a double SetFlag.
    TPipe pipe;
    SetFlag<HardEvent::M_MTE1>(EVENT_ID0);  // expect: manual_m_mte1
    WaitFlag<HardEvent::M_MTE1>(EVENT_ID0);
  } else if (s == "read_past_end") {
    // 1024 bytes past a 4096-byte buffer: a warning (once for the line), and zeros (silicon reads
    // what follows it).
    LocalTensor<int8_t> l1(TPosition::A1, 0, 5120);
    for (int i = 0; i < 2; ++i) DataCopy(l1, aGM, 5120);  // expect: read_past_end
    if (l1.GetValue(4096 + 5) != 0)
      std::printf("misuse read_past_end: the bytes past the end are not zero\n");
  } else if (s == "write_past_end") {
    GlobalTensor<int32_t> cGM;
    cGM.SetGlobalBuffer((__gm__ int32_t*)(c + 3584), 256);
    LocalTensor<int32_t> c1(TPosition::CO1, 0, 256);
    Fixpipe(cGM, c1, {16, 16, 16, 16, false});  // expect: write_past_end
  } else if (s.rfind("fixbuf_", 0) == 0) {      // the fixpipe buffer's rules (SetFixPipeConfig, L1 -> FB)
    LocalTensor<uint64_t> l1(TPosition::C1, 0, 32), fb(TPosition::C2PIPE2GM, 0, 32),
        l0a(TPosition::A2, 0, 32);
    if (s == "fixbuf_relu_tensor") SetFixPipeConfig(fb, fb);  // expect: fixbuf_relu_tensor
    if (s == "fixbuf_src_not_l1") DataCopy(fb, l0a, DataCopyParams(1, 1, 0, 0));  // expect: fixbuf_src_not_l1
    if (s == "fixbuf_empty_copy") DataCopy(fb, l1, DataCopyParams(1, 0, 0, 0));   // expect: fixbuf_empty_copy
    if (s == "fixbuf_past_l1") {
      LocalTensor<uint64_t> end(TPosition::C1, 512 * 1024 - 128, 16);
      DataCopy(fb, end, DataCopyParams(2, 1, 0, 0));  // expect: fixbuf_past_l1
    }
  }
  (void)c;
}

int32_t main(int32_t argc, char* argv[]) {
  g_scenario = argc > 1 ? argv[1] : "";
  uint8_t* a = static_cast<uint8_t*>(AscendC::GmAlloc(4096));
  uint8_t* c = static_cast<uint8_t*>(AscendC::GmAlloc(4096));
  if (g_scenario == "outside_kernel") {
    TPipe pipe;  // expect: outside_kernel
  } else if (g_scenario == "too_many_blocks") {
    ICPU_RUN_KF(misuse, 25, a, c);  // expect: too_many_blocks
  } else if (g_scenario == "aiv_mode") {
    AscendC::SetKernelMode(KernelMode::AIV_MODE);  // expect: aiv_mode
  } else if (g_scenario == "gm_free_unknown") {
    AscendC::GmFree(a + 1);  // expect: gm_free_unknown
  } else if (g_scenario == "two_launches") {
    ICPU_RUN_KF(misuse, 1, a, c);
    ICPU_RUN_KF(misuse, 1, a, c);
  } else {
    AscendC::SetKernelMode(KernelMode::AIC_MODE);
    ICPU_RUN_KF(misuse, 1, a, c);
  }
  std::printf("misuse %s: no error\n", g_scenario.c_str());
  AscendC::GmFree(a);
  AscendC::GmFree(c);
  return 0;
}
