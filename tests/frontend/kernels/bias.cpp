// A basic-API matmul with a bias in the bias table, written for these tests in the queue style:
// the bias goes GM -> C1 (TQue<C1>, DataCopy) -> C2 (TQue<C2>, DataCopy L1 -> bias table), and the
// first K step's Mmad takes it (Mmad(dst, fm, filter, bias, params): C = bias + A x B); the later
// steps accumulate. A (M x K) and B^T (N x K) go to A1/B1 in NZ by ND2NZ; B^T's NZ is already the
// Zn order of L0B, A's is loaded one 16-row block at a time. Variants:
//   int8   int8 A, B; int32 bias and C
//   half   half A, B; a half bias converted to float on its way into the table; float C
//   race   int8, the C2 tensor used without its EnQue/DeQue: the checker reports a race at the Mmad
// The values are small integers: every product and sum is exact, so C must equal the naive
// bias + A x B bit for bit.
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
constexpr uint16_t M = 32, K = 64, N = 48, kStep = 32, steps = K / kStep;
}  // namespace

template <typename T, typename C, typename B>
class BiasMatmul {
 public:
  static constexpr uint16_t c0 = 32 / sizeof(T);
  static constexpr uint16_t fractal = 512 / sizeof(T);

  BiasMatmul(GlobalTensor<T>& a, GlobalTensor<T>& b, GlobalTensor<B>& bias, GlobalTensor<C>& c)
      : aGM_(a), bGM_(b), biasGM_(bias), cGM_(c) {
    pipe_.InitBuffer(qA1_, 1, M * K * sizeof(T));
    pipe_.InitBuffer(qB1_, 1, K * N * sizeof(T));
    pipe_.InitBuffer(qBias1_, 1, N * sizeof(B));
    pipe_.InitBuffer(qA2_, 1, M * kStep * sizeof(T));
    pipe_.InitBuffer(qB2_, 1, kStep * N * sizeof(T));
    pipe_.InitBuffer(qBias2_, 1, N * sizeof(C));
    pipe_.InitBuffer(qC_, 1, M * N * sizeof(C));
  }

  void Process(bool race) {
    LocalTensor<T> a1 = qA1_.AllocTensor<T>();
    DataCopy(a1, aGM_, Nd2NzParams(1, M, K, 0, K, M, 1, 0));
    qA1_.EnQue(a1);
    LocalTensor<T> b1 = qB1_.AllocTensor<T>();
    DataCopy(b1, bGM_, Nd2NzParams(1, N, K, 0, K, N, 1, 0));  // B^T: its NZ is L0B's Zn order
    qB1_.EnQue(b1);
    LocalTensor<B> bias1 = qBias1_.AllocTensor<B>();
    DataCopy(bias1, biasGM_, N);
    qBias1_.EnQue(bias1);
    bias1 = qBias1_.DeQue<B>();
    LocalTensor<C> bias2 = qBias2_.AllocTensor<C>();
    a1 = qA1_.DeQue<T>();
    b1 = qB1_.DeQue<T>();
    LocalTensor<C> c1 = qC_.AllocTensor<C>();
    constexpr uint16_t m1 = M / 16, n1 = N / 16, step1 = kStep / c0;
    for (uint16_t s = 0; s < steps; ++s) {
      LocalTensor<T> a2 = qA2_.AllocTensor<T>();
      for (uint16_t i = 0; i < m1; ++i)
        LoadData(a2[i * step1 * fractal], a1,
                 LoadData2DParams(s * step1 * m1 + i, step1, m1, 0, 0, false, 0));
      qA2_.EnQue(a2);
      LocalTensor<T> b2 = qB2_.AllocTensor<T>();
      LoadData(b2, b1, LoadData2DParams(s * step1 * n1, step1 * n1, 1, 0, 0, false, 0));
      qB2_.EnQue(b2);
      if (s == 0) {  // after the L0 loads: only the C2 queue's flags order the copy before the Mmad
        DataCopy(bias2, bias1, {1, static_cast<uint16_t>(N * sizeof(C) / 64), 0, 0});  // 64-byte units
        if (!race) {
          qBias2_.EnQue(bias2);
          bias2 = qBias2_.DeQue<C>();
        }
      }
      a2 = qA2_.DeQue<T>();
      b2 = qB2_.DeQue<T>();
      if (s == 0)
        Mmad(c1, a2, b2, bias2, MmadParams(M, N, kStep, 0, false, true));  // mark: bias mmad
      else
        Mmad(c1, a2, b2, MmadParams(M, N, kStep, 0, false, false));
      qA2_.FreeTensor(a2);
      qB2_.FreeTensor(b2);
    }
    qBias1_.FreeTensor(bias1);
    qBias2_.FreeTensor(bias2);
    qA1_.FreeTensor(a1);
    qB1_.FreeTensor(b1);
    qC_.EnQue(c1);
    c1 = qC_.DeQue<C>();
    Fixpipe(cGM_, c1, {N, M, M, N, false});
    qC_.FreeTensor(c1);
  }

 private:
  GlobalTensor<T>& aGM_;
  GlobalTensor<T>& bGM_;
  GlobalTensor<B>& biasGM_;
  GlobalTensor<C>& cGM_;
  TPipe pipe_;
  TQue<TPosition::A1, 1> qA1_;
  TQue<TPosition::B1, 1> qB1_;
  TQue<TPosition::C1, 1> qBias1_;
  TQue<TPosition::A2, 1> qA2_;
  TQue<TPosition::B2, 1> qB2_;
  TQue<TPosition::C2, 1> qBias2_;
  TQue<TPosition::CO1, 1> qC_;
};

template <typename T, typename C, typename B>
void run_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c) {
  GlobalTensor<T> aGM, bGM;
  GlobalTensor<B> biasGM;
  GlobalTensor<C> cGM;
  aGM.SetGlobalBuffer((__gm__ T*)a);
  bGM.SetGlobalBuffer((__gm__ T*)b);
  biasGM.SetGlobalBuffer((__gm__ B*)bias);
  cGM.SetGlobalBuffer((__gm__ C*)c);
  BiasMatmul<T, C, B> op(aGM, bGM, biasGM, cGM);
  op.Process(g_variant == "race");
}

extern "C" __global__ __aicore__ void bias(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c) {
  if (g_variant == "half")
    run_kernel<half, float, half>(a, b, bias, c);
  else
    run_kernel<int8_t, int32_t, int32_t>(a, b, bias, c);
}

template <typename T>
void put(uint8_t* p, size_t i, int v) {
  const T x(static_cast<float>(v));
  std::memcpy(p + i * sizeof(T), &x, sizeof(T));
}

template <typename T, typename C, typename B>
int check() {
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> value(-3, 3), offset(-500, 500);
  std::vector<int> A(M * K), Bt(N * K), bias_v(N);
  for (auto& x : A) x = value(rng);
  for (auto& x : Bt) x = value(rng);
  for (auto& x : bias_v) x = offset(rng);
  auto* a = static_cast<uint8_t*>(GmAlloc(M * K * sizeof(T)));
  auto* b = static_cast<uint8_t*>(GmAlloc(N * K * sizeof(T)));
  auto* bias_gm = static_cast<uint8_t*>(GmAlloc(N * sizeof(B)));
  auto* c = static_cast<uint8_t*>(GmAlloc(M * N * sizeof(C)));
  for (size_t i = 0; i < A.size(); ++i) put<T>(a, i, A[i]);
  for (size_t i = 0; i < Bt.size(); ++i) put<T>(b, i, Bt[i]);
  for (size_t i = 0; i < bias_v.size(); ++i) {
    if constexpr (sizeof(B) == 4)
      std::memcpy(bias_gm + i * 4, &bias_v[i], 4);  // int32
    else
      put<B>(bias_gm, i, bias_v[i]);
  }
  AscendC::SetKernelMode(KernelMode::AIC_MODE);
  ICPU_RUN_KF(bias, 1, a, b, bias_gm, c);
  int wrong = 0;
  for (uint32_t i = 0; i < M; ++i)
    for (uint32_t j = 0; j < N; ++j) {
      int sum = bias_v[j];
      for (uint32_t k = 0; k < K; ++k) sum += A[i * K + k] * Bt[j * K + k];
      const C want = static_cast<C>(sum);
      C got;
      std::memcpy(&got, c + (i * N + j) * sizeof(C), sizeof(C));
      wrong += std::memcmp(&got, &want, sizeof(C)) != 0;
    }
  GmFree(a);
  GmFree(b);
  GmFree(bias_gm);
  GmFree(c);
  return wrong;
}

int32_t main(int32_t argc, char* argv[]) {
  g_variant = argc > 1 ? argv[1] : "int8";
  const int wrong = g_variant == "half" ? check<half, float, half>() : check<int8_t, int32_t, int32_t>();
  std::printf("bias %s: %s\n", g_variant.c_str(), wrong ? "MISMATCH" : "match");
  return wrong ? 1 : 0;
}
