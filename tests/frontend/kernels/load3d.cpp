// A half matmul in the basic-API style whose A is loaded L1 -> L0A with one Load3Dv2 (LoadData
// with LoadData3DParamsV2) per K step, written for these tests:
//   plain       A (M x K) copied to A1 in NZ; each step's M x kStep block read as a 1-row feature map
//               (l1H = 1, l1W = M, channelSize = K, filter 1 x 1) at kStartPt
//   transposed  A^T (K x M) copied to A1 in NZ; each step's rows of A^T read with enTranspose, so
//               L0A gets the step's M x kStep block of A
// B^T (N x K) goes to B1 in NZ, which is L0B's Zn: one LoadData 2D. The values are small integers:
// every product and sum is exact in float, so C must equal the naive product bit for bit.
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

namespace {
std::string g_variant;
constexpr uint16_t M = 48, K = 96, N = 32, kStep = 32, steps = K / kStep;
}  // namespace

class Load3dMatmul {
 public:
  Load3dMatmul(GlobalTensor<half>& a, GlobalTensor<half>& bt, GlobalTensor<float>& c, bool transposed)
      : aGM_(a), btGM_(bt), cGM_(c), transposed_(transposed) {
    pipe_.InitBuffer(qA1_, 1, M * K * sizeof(half));
    pipe_.InitBuffer(qB1_, 1, K * N * sizeof(half));
    pipe_.InitBuffer(qA2_, 1, M * kStep * sizeof(half));
    pipe_.InitBuffer(qB2_, 1, kStep * N * sizeof(half));
    pipe_.InitBuffer(qC_, 1, M * N * sizeof(float));
  }

  void Process() {
    LocalTensor<half> a1 = qA1_.AllocTensor<half>();
    if (transposed_)  // A^T: K rows of M, NZ with K rows per column block
      DataCopy(a1, aGM_, Nd2NzParams(1, K, M, 0, M, K, 1, 0));
    else  // A: M rows of K, NZ with M rows per column block
      DataCopy(a1, aGM_, Nd2NzParams(1, M, K, 0, K, M, 1, 0));
    qA1_.EnQue(a1);
    LocalTensor<half> b1 = qB1_.AllocTensor<half>();
    DataCopy(b1, btGM_, Nd2NzParams(1, N, K, 0, K, N, 1, 0));
    qB1_.EnQue(b1);
    a1 = qA1_.DeQue<half>();
    b1 = qB1_.DeQue<half>();
    LocalTensor<float> c1 = qC_.AllocTensor<float>();
    for (uint16_t s = 0; s < steps; ++s) {
      LocalTensor<half> a2 = qA2_.AllocTensor<half>();
      LoadData3DParamsV2<half> p;
      if (transposed_) {  // the map is A^T: row k of the im2col matrix, column m
        p.l1H = 1;
        p.l1W = K;
        p.channelSize = M;
        p.mStartPt = s * kStep;
        p.mExtension = kStep;
        p.kStartPt = 0;
        p.kExtension = M;
        p.enTranspose = true;
      } else {
        p.l1H = 1;
        p.l1W = M;
        p.channelSize = K;
        p.mStartPt = 0;
        p.mExtension = M;
        p.kStartPt = s * kStep;
        p.kExtension = kStep;
      }
      LoadData(a2, a1, p);  // mark: load3d_a
      qA2_.EnQue(a2);
      LocalTensor<half> b2 = qB2_.AllocTensor<half>();
      // The step's kStep / 16 column blocks of B^T's NZ: N / 16 fractals each, contiguous.
      LoadData(b2, b1[s * kStep * N], LoadData2DParams(0, kStep / 16 * N / 16, 1, 0, 0, false, 0));
      qB2_.EnQue(b2);
      a2 = qA2_.DeQue<half>();
      b2 = qB2_.DeQue<half>();
      Mmad(c1, a2, b2, MmadParams(M, N, kStep, 0, false, s == 0));
      qA2_.FreeTensor(a2);
      qB2_.FreeTensor(b2);
    }
    qA1_.FreeTensor(a1);
    qB1_.FreeTensor(b1);
    qC_.EnQue(c1);
    c1 = qC_.DeQue<float>();
    Fixpipe(cGM_, c1, {N, M, M, N, false});
    qC_.FreeTensor(c1);
  }

 private:
  GlobalTensor<half>& aGM_;
  GlobalTensor<half>& btGM_;
  GlobalTensor<float>& cGM_;
  bool transposed_;
  TPipe pipe_;
  TQue<TPosition::A1, 1> qA1_;
  TQue<TPosition::B1, 1> qB1_;
  TQue<TPosition::A2, 1> qA2_;
  TQue<TPosition::B2, 1> qB2_;
  TQue<TPosition::CO1, 1> qC_;
};

extern "C" __global__ __aicore__ void load3d(GM_ADDR a, GM_ADDR bt, GM_ADDR c) {
  GlobalTensor<half> aGM, btGM;
  GlobalTensor<float> cGM;
  aGM.SetGlobalBuffer((__gm__ half*)a);
  btGM.SetGlobalBuffer((__gm__ half*)bt);
  cGM.SetGlobalBuffer((__gm__ float*)c);
  Load3dMatmul op(aGM, btGM, cGM, g_variant == "transposed");
  op.Process();
}

int32_t main(int32_t argc, char* argv[]) {
  g_variant = argc > 1 ? argv[1] : "plain";
  const bool transposed = g_variant == "transposed";
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> value(-3, 3);
  std::vector<float> A(M * K), B(K * N);
  for (auto& x : A) x = static_cast<float>(value(rng));
  for (auto& x : B) x = static_cast<float>(value(rng));
  auto* a = static_cast<uint8_t*>(GmAlloc(M * K * sizeof(half)));
  auto* bt = static_cast<uint8_t*>(GmAlloc(K * N * sizeof(half)));
  auto* c = static_cast<uint8_t*>(GmAlloc(M * N * sizeof(float)));
  for (uint32_t i = 0; i < M; ++i)
    for (uint32_t k = 0; k < K; ++k) {
      const half h(A[i * K + k]);
      std::memcpy(a + (transposed ? k * M + i : i * K + k) * sizeof(half), &h, sizeof(half));
    }
  for (uint32_t k = 0; k < K; ++k)
    for (uint32_t j = 0; j < N; ++j) {
      const half h(B[k * N + j]);
      std::memcpy(bt + (j * K + k) * sizeof(half), &h, sizeof(half));
    }
  AscendC::SetKernelMode(KernelMode::AIC_MODE);
  ICPU_RUN_KF(load3d, 1, a, bt, c);
  int wrong = 0;
  for (uint32_t i = 0; i < M; ++i)
    for (uint32_t j = 0; j < N; ++j) {
      float want = 0, got;
      for (uint32_t k = 0; k < K; ++k) want += A[i * K + k] * B[k * N + j];
      std::memcpy(&got, c + (i * N + j) * sizeof(float), sizeof(float));
      wrong += std::memcmp(&got, &want, sizeof(float)) != 0;
    }
  GmFree(a);
  GmFree(bt);
  GmFree(c);
  std::printf("load3d %s: %s\n", g_variant.c_str(), wrong ? "MISMATCH" : "match");
  return wrong ? 1 : 0;
}
