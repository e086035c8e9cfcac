// K-loops in the documented TPipe/TQue double-buffer style (CopyIn -> Split -> Compute ->
// CopyOut over queues of BUFFER_NUM buffers), written for these tests:
//   loop2, loop3, loop4  A1/B1 queues of BUFFER_NUM = 2, 3, 4 buffers, A2/B2 of two (the L0
//                        ping-pong): CopyIn(k); Split(k); Compute(k)
//   prefetch             BUFFER_NUM = 2, CopyIn(k+1) issued before Split(k) and Compute(k)
//   missing_b2           loop2 without the EnQue/DeQue of B2: the Mmad races the LoadData of B2
// The library's flags re-set event ids before their previous WaitFlag is ordered (the set is held
// on hardware, docs/ascendc.md "Double buffering"): every variant but missing_b2 runs clean.
#include <cstdio>
#include <string>

#include "int8_host.hpp"

using namespace AscendC;

namespace {
std::string g_variant;
constexpr uint16_t m = 16, n = 16, kc = 32, chunks = 6, K = kc * chunks;
}  // namespace

template <int BUFFER_NUM>
class KLoop {
 public:
  KLoop(GlobalTensor<int8_t>& a, GlobalTensor<int8_t>& bt, GlobalTensor<int32_t>& c, bool enque_b2)
      : aGM_(a), btGM_(bt), cGM_(c), enque_b2_(enque_b2) {
    pipe_.InitBuffer(qA1_, BUFFER_NUM, m * kc);
    pipe_.InitBuffer(qB1_, BUFFER_NUM, kc * n);
    pipe_.InitBuffer(qA2_, 2, m * kc);
    pipe_.InitBuffer(qB2_, 2, kc * n);
    pipe_.InitBuffer(qC_, 1, m * n * sizeof(int32_t));
  }

  void Process(bool prefetch) {
    LocalTensor<int32_t> c1 = qC_.template AllocTensor<int32_t>();
    if (prefetch) CopyIn(0);
    for (int k = 0; k < chunks; ++k) {
      if (!prefetch) CopyIn(k);
      if (prefetch && k + 1 < chunks) CopyIn(k + 1);
      Split();
      Compute(k, c1);
    }
    qC_.EnQue(c1);
    c1 = qC_.template DeQue<int32_t>();
    Fixpipe(cGM_, c1, {n, m, m, n, false});
    qC_.FreeTensor(c1);
  }

 private:
  void CopyIn(int k) {
    LocalTensor<int8_t> a1 = qA1_.template AllocTensor<int8_t>();
    DataCopy(a1, aGM_[k * kc], Nd2NzParams(1, m, kc, 0, K, m, 1, 0));
    qA1_.EnQue(a1);  // mark: kloop_enque_a1
    LocalTensor<int8_t> b1 = qB1_.template AllocTensor<int8_t>();
    DataCopy(b1, btGM_[k * kc], Nd2NzParams(1, n, kc, 0, K, n, 1, 0));
    qB1_.EnQue(b1);
  }
  void Split() {
    LocalTensor<int8_t> a1 = qA1_.template DeQue<int8_t>();
    LocalTensor<int8_t> a2 = qA2_.template AllocTensor<int8_t>();
    LoadData(a2, a1, {0, 1, 0, 0, 0, false, 0});
    qA2_.EnQue(a2);
    qA1_.FreeTensor(a1);
    LocalTensor<int8_t> b1 = qB1_.template DeQue<int8_t>();
    b2_ = qB2_.template AllocTensor<int8_t>();
    LoadData(b2_, b1, {0, 1, 0, 0, 0, false, 0});  // mark: kloop_load_b
    if (enque_b2_) qB2_.EnQue(b2_);
    qB1_.FreeTensor(b1);
  }
  void Compute(int k, LocalTensor<int32_t>& c1) {
    LocalTensor<int8_t> a2 = qA2_.template DeQue<int8_t>();
    if (enque_b2_) b2_ = qB2_.template DeQue<int8_t>();
    // Accumulating Mmads of fewer than 10 fractals need the barrier (the Mmad page's rule).
    if (k > 0) PipeBarrier<PIPE_M>();
    Mmad(c1, a2, b2_, {m, n, kc, 0, false, k == 0});  // mark: kloop_mmad
    qA2_.FreeTensor(a2);
    qB2_.FreeTensor(b2_);
  }

  GlobalTensor<int8_t>& aGM_;
  GlobalTensor<int8_t>& btGM_;
  GlobalTensor<int32_t>& cGM_;
  bool enque_b2_;
  TPipe pipe_;
  TQue<TPosition::A1, BUFFER_NUM> qA1_;
  TQue<TPosition::B1, BUFFER_NUM> qB1_;
  TQue<TPosition::A2, 1> qA2_;
  TQue<TPosition::B2, 1> qB2_;
  TQue<TPosition::CO1, 1> qC_;
  LocalTensor<int8_t> b2_;
};

extern "C" __global__ __aicore__ void kloop(GM_ADDR a, GM_ADDR bt, GM_ADDR c) {
  GlobalTensor<int8_t> aGM, btGM;
  GlobalTensor<int32_t> cGM;
  aGM.SetGlobalBuffer((__gm__ int8_t*)a);
  btGM.SetGlobalBuffer((__gm__ int8_t*)bt);
  cGM.SetGlobalBuffer((__gm__ int32_t*)c);
  if (g_variant == "loop2" || g_variant == "prefetch" || g_variant == "missing_b2") {
    KLoop<2> op(aGM, btGM, cGM, g_variant != "missing_b2");
    op.Process(g_variant == "prefetch");
  } else if (g_variant == "loop3") {
    KLoop<3> op(aGM, btGM, cGM, true);
    op.Process(false);
  } else if (g_variant == "loop4") {
    KLoop<4> op(aGM, btGM, cGM, true);
    op.Process(false);
  }
}

int32_t main(int32_t argc, char* argv[]) {
  g_variant = argc > 1 ? argv[1] : "loop2";
  Int8Gemm g(m, K, n, 21);
  AscendC::SetKernelMode(KernelMode::AIC_MODE);
  uint8_t *a = g.a, *bt = g.bt, *c = g.c;  // the names the launch gives the GM tensors
  ICPU_RUN_KF(kloop, 1, a, bt, c);
  const int wrong = g.wrong();
  std::printf("kloop %s: %s\n", g_variant.c_str(), wrong ? "MISMATCH" : "match");
  return wrong ? 1 : 0;
}
