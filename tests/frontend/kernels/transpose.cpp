// A basic-API matmul whose B is loaded L1 -> L0B with LoadDataWithTranspose, written for these
// tests: B (K x N, row-major in GM) goes to B1 in NZ (C0-column blocks of K rows) as ND2NZ
// leaves it; the Cube wants Zn (fractals of 16 N-rows of C0 K-elements), so each K step moves, per
// C0 rows of K, one square per C0-column block of B, transposed:
//   int8  a square is two 16 x 32 fractals (32 K-rows of a 32-column block), transposed into the
//         Zn fractals of its two 16-column halves (dstGap 1: two fractals per repeat)
//   half  a square is one 16 x 16 fractal, transposed into its Zn fractal
// A (M x K) goes to A1 in NZ and L0A by LoadData 2D, one per 16-row block. The values are small
// integers: every product and sum is exact, so C must equal the naive product bit for bit.
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
constexpr uint16_t M = 32, K = 128, N = 64, kStep = 64, steps = K / kStep;
}  // namespace

template <typename T, typename C>
class TransposeMatmul {
 public:
  static constexpr uint16_t c0 = 32 / sizeof(T);  // K elements per fractal row
  static constexpr uint16_t fractal = 512 / sizeof(T);

  TransposeMatmul(GlobalTensor<T>& a, GlobalTensor<T>& b, GlobalTensor<C>& c) : aGM_(a), bGM_(b), cGM_(c) {
    pipe_.InitBuffer(qA1_, 1, M * K * sizeof(T));
    pipe_.InitBuffer(qB1_, 1, K * N * sizeof(T));
    pipe_.InitBuffer(qA2_, 1, M * kStep * sizeof(T));
    pipe_.InitBuffer(qB2_, 1, kStep * N * sizeof(T));
    pipe_.InitBuffer(qC_, 1, M * N * sizeof(C));
  }

  void Process() {
    LocalTensor<T> a1 = qA1_.AllocTensor<T>();
    DataCopy(a1, aGM_, Nd2NzParams(1, M, K, 0, K, M, 1, 0));  // C0-column blocks of M rows
    qA1_.EnQue(a1);
    LocalTensor<T> b1 = qB1_.AllocTensor<T>();
    DataCopy(b1, bGM_, Nd2NzParams(1, K, N, 0, N, K, 1, 0));  // C0-column blocks of K rows
    qB1_.EnQue(b1);
    a1 = qA1_.DeQue<T>();
    b1 = qB1_.DeQue<T>();
    LocalTensor<C> c1 = qC_.AllocTensor<C>();
    constexpr uint16_t m1 = M / 16, n1 = N / 16, k1 = K / c0, step1 = kStep / c0;
    for (uint16_t s = 0; s < steps; ++s) {
      LocalTensor<T> a2 = qA2_.AllocTensor<T>();
      for (uint16_t i = 0; i < m1; ++i)  // Zz row i: fractals (k, i) of the NZ, M / 16 apart
        LoadData(a2[i * step1 * fractal], a1,
                 LoadData2DParams(s * step1 * m1 + i, step1, m1, 0, 0, false, 0));
      qA2_.EnQue(a2);
      LocalTensor<T> b2 = qB2_.AllocTensor<T>();
      for (uint16_t k = 0; k < step1; ++k)  // Zn row k: the squares (k, column block j) of every j
        LoadDataWithTranspose(
            b2[k * n1 * fractal], b1,
            LoadData2dTransposeParams(s * step1 + k, N / c0, k1, c0 / 16 - 1, 0));  // mark: ldt
      qB2_.EnQue(b2);
      a2 = qA2_.DeQue<T>();
      b2 = qB2_.DeQue<T>();
      Mmad(c1, a2, b2, MmadParams(M, N, kStep, 0, false, s == 0));
      qA2_.FreeTensor(a2);
      qB2_.FreeTensor(b2);
    }
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
  GlobalTensor<C>& cGM_;
  TPipe pipe_;
  TQue<TPosition::A1, 1> qA1_;
  TQue<TPosition::B1, 1> qB1_;
  TQue<TPosition::A2, 1> qA2_;
  TQue<TPosition::B2, 1> qB2_;
  TQue<TPosition::CO1, 1> qC_;
};

template <typename T, typename C>
void run_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR c) {
  GlobalTensor<T> aGM, bGM;
  GlobalTensor<C> cGM;
  aGM.SetGlobalBuffer((__gm__ T*)a);
  bGM.SetGlobalBuffer((__gm__ T*)b);
  cGM.SetGlobalBuffer((__gm__ C*)c);
  TransposeMatmul<T, C> op(aGM, bGM, cGM);
  op.Process();
}

extern "C" __global__ __aicore__ void transpose(GM_ADDR a, GM_ADDR b, GM_ADDR c) {
  if (g_variant == "half")
    run_kernel<half, float>(a, b, c);
  else
    run_kernel<int8_t, int32_t>(a, b, c);
}

template <typename T, typename C>
int check() {
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> value(-3, 3);
  std::vector<int> A(M * K), B(K * N);
  for (auto& x : A) x = value(rng);
  for (auto& x : B) x = value(rng);
  auto* a = static_cast<uint8_t*>(GmAlloc(M * K * sizeof(T)));
  auto* b = static_cast<uint8_t*>(GmAlloc(K * N * sizeof(T)));
  auto* c = static_cast<uint8_t*>(GmAlloc(M * N * sizeof(C)));
  for (size_t i = 0; i < A.size(); ++i) {
    const T v(static_cast<float>(A[i]));
    std::memcpy(a + i * sizeof(T), &v, sizeof(T));
  }
  for (size_t i = 0; i < B.size(); ++i) {
    const T v(static_cast<float>(B[i]));
    std::memcpy(b + i * sizeof(T), &v, sizeof(T));
  }
  AscendC::SetKernelMode(KernelMode::AIC_MODE);
  ICPU_RUN_KF(transpose, 1, a, b, c);
  int wrong = 0;
  for (uint32_t i = 0; i < M; ++i)
    for (uint32_t j = 0; j < N; ++j) {
      int sum = 0;
      for (uint32_t k = 0; k < K; ++k) sum += A[i * K + k] * B[k * N + j];
      const C want = static_cast<C>(sum);
      C got;
      std::memcpy(&got, c + (i * N + j) * sizeof(C), sizeof(C));
      wrong += std::memcmp(&got, &want, sizeof(C)) != 0;
    }
  GmFree(a);
  GmFree(b);
  GmFree(c);
  return wrong;
}

int32_t main(int32_t argc, char* argv[]) {
  g_variant = argc > 1 ? argv[1] : "int8";
  const int wrong = g_variant == "half" ? check<half, float>() : check<int8_t, int32_t>();
  std::printf("transpose %s: %s\n", g_variant.c_str(), wrong ? "MISMATCH" : "match");
  return wrong ? 1 : 0;
}
