// A basic-API int4 x int4 matmul, written for these tests: A (M x K, int4b_t, row-major, two
// elements a byte, the even one in the low nibble) copied to A1 by DataCopy Nd2NzParams (NZ with
// 64-element column blocks; the b8 form, so dValue and srcDValue count bytes: K / 2), B^T (N x K) already in
// NZ on the host copied to B1 by a DataCopy of K * N elements; L0A loaded by LoadData 2D per 16-row block (NZ
// -> Zz), L0B by one LoadData 2D per K step (B^T's NZ is L0B's Zn), offsets by operator[] in elements (off /
// 2 bytes, GM and local tensors alike: B1 is copied in two halves); int32 = int4 x int4 Mmads accumulating
// over the K steps, Fixpipe of the int32 cells. C is compared with a naive int32 product of the unpacked
// matrices (values -8..7). Variant "odd_count": a DataCopy of a count that is not whole 32-byte blocks of
// int4 (an error at its line).
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "int4_host.hpp"
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

namespace {
std::string g_variant;
constexpr uint16_t M = 32, K = 256, N = 48, kStep = 128, steps = K / kStep;
constexpr uint32_t c0 = 64, fractal = 1024;  // int4 elements per fractal row, per fractal
}  // namespace

class Int4Matmul {
 public:
  Int4Matmul(GlobalTensor<int4b_t>& a, GlobalTensor<AscendC::int4b_t>& bt, GlobalTensor<int32_t>& c)
      : aGM_(a), btGM_(bt), cGM_(c) {
    pipe_.InitBuffer(qA1_, 1, M * K / 2);  // bytes: two int4 a byte
    pipe_.InitBuffer(qB1_, 1, K * N / 2);
    pipe_.InitBuffer(qA2_, 1, M * kStep / 2);
    pipe_.InitBuffer(qB2_, 1, kStep * N / 2);
    pipe_.InitBuffer(qC_, 1, M * N * sizeof(int32_t));
  }

  void Process() {
    LocalTensor<int4b_t> a1 = qA1_.AllocTensor<int4b_t>();
    DataCopy(a1, aGM_, Nd2NzParams(1, M, K / 2, 0, K / 2, M, 1, 0));  // b8 form: counts in bytes
    qA1_.EnQue(a1);
    LocalTensor<int4b_t> b1 = qB1_.AllocTensor<int4b_t>();
    if (g_variant == "odd_count")
      DataCopy(b1, btGM_, K * N - 2);  // mark: odd_count
    else {  // in two halves: GlobalTensor and LocalTensor [] both add K * N / 4 bytes
      DataCopy(b1, btGM_, K * N / 2);
      DataCopy(b1[K * N / 2], btGM_[K * N / 2], K * N / 2);
    }
    qB1_.EnQue(b1);
    a1 = qA1_.DeQue<int4b_t>();
    b1 = qB1_.DeQue<int4b_t>();
    LocalTensor<int32_t> c1 = qC_.AllocTensor<int32_t>();
    constexpr uint16_t m1 = M / 16, step1 = kStep / c0;
    for (uint16_t s = 0; s < steps; ++s) {
      LocalTensor<int4b_t> a2 = qA2_.AllocTensor<int4b_t>();
      for (uint16_t i = 0; i < m1; ++i)
        LoadData(a2[i * step1 * fractal], a1,
                 LoadData2DParams(s * step1 * m1 + i, step1, m1, 0, 0, false, 0));
      qA2_.EnQue(a2);
      LocalTensor<int4b_t> b2 = qB2_.AllocTensor<int4b_t>();
      LoadData(b2, b1[s * kStep * N], LoadData2DParams(0, step1 * N / 16, 1, 0, 0, false, 0));
      qB2_.EnQue(b2);
      a2 = qA2_.DeQue<int4b_t>();
      b2 = qB2_.DeQue<int4b_t>();
      Mmad(c1, a2, b2, MmadParams(M, N, kStep, 0, false, s == 0));  // mark: mmad
      qA2_.FreeTensor(a2);
      qB2_.FreeTensor(b2);
    }
    qA1_.FreeTensor(a1);
    qB1_.FreeTensor(b1);
    qC_.EnQue(c1);
    c1 = qC_.DeQue<int32_t>();
    Fixpipe(cGM_, c1, {N, M, M, N, false});
    qC_.FreeTensor(c1);
  }

 private:
  GlobalTensor<int4b_t>& aGM_;
  GlobalTensor<int4b_t>& btGM_;
  GlobalTensor<int32_t>& cGM_;
  TPipe pipe_;
  TQue<TPosition::A1, 1> qA1_;
  TQue<TPosition::B1, 1> qB1_;
  TQue<TPosition::A2, 1> qA2_;
  TQue<TPosition::B2, 1> qB2_;
  TQue<TPosition::CO1, 1> qC_;
};

extern "C" __global__ __aicore__ void int4_mmad(GM_ADDR a, GM_ADDR bt, GM_ADDR c) {
  GlobalTensor<int4b_t> aGM, btGM;
  GlobalTensor<int32_t> cGM;
  aGM.SetGlobalBuffer((__gm__ int4b_t*)a, M * K);
  btGM.SetGlobalBuffer((__gm__ int4b_t*)bt, K * N);
  cGM.SetGlobalBuffer((__gm__ int32_t*)c);
  Int4Matmul op(aGM, btGM, cGM);
  op.Process();
}

int32_t main(int32_t argc, char* argv[]) {
  g_variant = argc > 1 ? argv[1] : "";
  std::mt19937 rng(21);
  const std::vector<int> A = random_int4(rng, M * K), B = random_int4(rng, K * N);
  auto* a = static_cast<uint8_t*>(GmAlloc(M * K / 2));
  auto* bt = static_cast<uint8_t*>(GmAlloc(K * N / 2));
  auto* c = static_cast<int32_t*>(GmAlloc(M * N * sizeof(int32_t)));
  std::memset(a, 0, M * K / 2);
  std::memset(bt, 0, K * N / 2);
  for (uint32_t i = 0; i < M; ++i)
    for (uint32_t k = 0; k < K; ++k) put4(a, uint64_t{i} * K + k, A[i * K + k]);
  // B^T in NZ: column block k / 64 of N rows of 64 elements (32 bytes).
  for (uint32_t k = 0; k < K; ++k)
    for (uint32_t j = 0; j < N; ++j) put4(bt, (uint64_t{k / c0} * N + j) * c0 + k % c0, B[k * N + j]);
  AscendC::SetKernelMode(KernelMode::AIC_MODE);
  ICPU_RUN_KF(int4_mmad, 1, a, bt, reinterpret_cast<uint8_t*>(c));
  int wrong = 0;
  for (uint32_t i = 0; i < M; ++i)
    for (uint32_t j = 0; j < N; ++j) {
      int32_t want = 0;
      for (uint32_t k = 0; k < K; ++k) want += A[i * K + k] * B[k * N + j];
      wrong += c[i * N + j] != want;
    }
  GmFree(a);
  GmFree(bt);
  GmFree(c);
  std::printf("int4_mmad%s%s: %s\n", g_variant.empty() ? "" : " ", g_variant.c_str(),
              wrong ? "MISMATCH" : "match");
  return wrong ? 1 : 0;
}
