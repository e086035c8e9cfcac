// A basic-API float x float matmul, written for these tests: A (M x K) and B^T (N x K) copied to
// A1/B1 in NZ (8-float column blocks), L0A loaded by LoadData 2D per 16-row block (NZ -> Zz), L0B
// by one LoadData 2D per K step (B^T's NZ is L0B's Zn), float Mmads accumulating over the K
// steps, Fixpipe of the float cells. C is compared bit for bit with the documented arithmetic
// (docs/semantics.md §6): per step, float32 products summed in ascending k from 0; the second
// step's sum added to the first's cell. Variant "nz": the Fixpipe keeps the NZ layout (CFG_NZ):
// C in GM as 16-column blocks of M rows, dstStride = M * 64 / 32 32-byte units apart. Variant
// "vquant": A and B small integers, the Fixpipe writes int8 by VQF322B8_PRE with a cbufWorkspace
// table in L1 (column j scaled by 1, 2 or 4, as j % 3 says; saturating), checked against
// clamp(C * scale) in exact integers; "vquant_no_table": the same mode without the table (an error).
// Variants "fbquant" / "fbquant1": the same conversion by DataCopy(GM, CO1, DataCopyCO12DstParams)
// with the table copied L1 -> fixpipe buffer (DataCopy(C2PIPE2GM, C1, DataCopyParams), 128-byte
// bursts) and named by SetFixPipeConfig (two-tensor form, one-tensor form); "fbquant_no_config"
// without SetFixPipeConfig, "fbquant_changed" with the L1 table changed after its copy and
// "fbquant_not_filled" with SetFixPipeConfig naming FB bytes no copy filled (errors);
// "fbquant_race": the table's DataCopy to L1 unsynchronised with the FIX read (a data race).
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

namespace {
bool g_nz = false;
std::string g_variant;
constexpr uint16_t M = 32, K = 64, N = 48, kStep = 32, steps = K / kStep;
constexpr uint16_t c0 = 8, fractal = 128;  // floats per fractal row, per fractal
}  // namespace

class FloatMatmul {
 public:
  FloatMatmul(GlobalTensor<float>& a, GlobalTensor<float>& bt, GlobalTensor<float>& c,
              GlobalTensor<int32_t>& q)
      : aGM_(a), btGM_(bt), cGM_(c), qGM_(q) {
    pipe_.InitBuffer(qQ_, 1, N * sizeof(uint64_t));
    pipe_.InitBuffer(qA1_, 1, M * K * sizeof(float));
    pipe_.InitBuffer(qB1_, 1, K * N * sizeof(float));
    pipe_.InitBuffer(qA2_, 1, M * kStep * sizeof(float));
    pipe_.InitBuffer(qB2_, 1, kStep * N * sizeof(float));
    pipe_.InitBuffer(qC_, 1, M * N * sizeof(float));
  }

  void Process() {
    // The quantisation table first: the A1 queue's flag then orders it before the Fixpipe too.
    LocalTensor<uint64_t> q1;
    if (g_variant == "vquant" || (g_variant.rfind("fbquant", 0) == 0 && g_variant != "fbquant_race")) {
      q1 = qQ_.AllocTensor<uint64_t>();
      DataCopy(q1.ReinterpretCast<int32_t>(), qGM_, N * 2);
      qQ_.EnQue(q1);
    }
    LocalTensor<float> a1 = qA1_.AllocTensor<float>();
    DataCopy(a1, aGM_, Nd2NzParams(1, M, K, 0, K, M, 1, 0));
    qA1_.EnQue(a1);
    LocalTensor<float> b1 = qB1_.AllocTensor<float>();
    DataCopy(b1, btGM_, Nd2NzParams(1, N, K, 0, K, N, 1, 0));
    qB1_.EnQue(b1);
    a1 = qA1_.DeQue<float>();
    b1 = qB1_.DeQue<float>();
    LocalTensor<float> c1 = qC_.AllocTensor<float>();
    constexpr uint16_t m1 = M / 16, step1 = kStep / c0;
    for (uint16_t s = 0; s < steps; ++s) {
      LocalTensor<float> a2 = qA2_.AllocTensor<float>();
      for (uint16_t i = 0; i < m1; ++i)
        LoadData(a2[i * step1 * fractal], a1,
                 LoadData2DParams(s * step1 * m1 + i, step1, m1, 0, 0, false, 0));
      qA2_.EnQue(a2);
      LocalTensor<float> b2 = qB2_.AllocTensor<float>();
      LoadData(b2, b1[s * kStep * N], LoadData2DParams(0, step1 * N / 16, 1, 0, 0, false, 0));
      qB2_.EnQue(b2);
      a2 = qA2_.DeQue<float>();
      b2 = qB2_.DeQue<float>();
      Mmad(c1, a2, b2, MmadParams(M, N, kStep, 0, false, s == 0));  // mark: mmad
      qA2_.FreeTensor(a2);
      qB2_.FreeTensor(b2);
    }
    qA1_.FreeTensor(a1);
    qB1_.FreeTensor(b1);
    qC_.EnQue(c1);
    c1 = qC_.DeQue<float>();
    if (g_variant == "datacopy" || g_variant == "datacopy_unset") {  // the FIX-register form, row-major
      if (g_variant == "datacopy") SetFixpipeNz2ndFlag(1, 0, 0);
      DataCopyCO12DstParams p(N, M, N, M, QuantMode_t::NoQuant, 0, false, true);
      DataCopy(cGM_, c1, p);  // mark: datacopy
    } else if (g_variant == "datacopy_nz") {
      DataCopy(
          cGM_, c1,
          DataCopyCO12DstParams(N, M, M * 16 * sizeof(float) / 32, M, QuantMode_t::NoQuant, 0, false, false));
    } else if (g_nz)
      Fixpipe<float, float, CFG_NZ>(cGM_, c1, {N, M, M, M * 16 * sizeof(float) / 32, false});  // mark: nz
    else if (g_variant == "vquant") {
      q1 = qQ_.DeQue<uint64_t>();
      FixpipeParamsV220 p{N, M, M, N, false};
      p.quantPre = QuantMode_t::VQF322B8_PRE;
      GlobalTensor<int8_t> c8 = cGM_.ReinterpretCast<int8_t>();
      Fixpipe<int8_t, float>(c8, c1, q1, p);
    } else if (g_variant == "vquant_no_table") {
      FixpipeParamsV220 p{N, M, M, N, false};
      p.quantPre = QuantMode_t::VQF322B8_PRE;
      GlobalTensor<int8_t> c8 = cGM_.ReinterpretCast<int8_t>();
      Fixpipe<int8_t, float>(c8, c1, p);  // mark: vquant_no_table
      qQ_.FreeTensor(q1);
    } else if (g_variant.rfind("fbquant", 0) == 0) {
      if (g_variant == "fbquant_race") {  // the table written now: nothing orders it before the FIX read
        q1 = qQ_.AllocTensor<uint64_t>();
        DataCopy(q1.ReinterpretCast<int32_t>(), qGM_, N * 2);
      } else
        q1 = qQ_.DeQue<uint64_t>();
      LocalTensor<uint64_t> fb(TPosition::C2PIPE2GM, 0, N);
      DataCopy(fb, q1, DataCopyParams(1, N * sizeof(uint64_t) / 128, 0, 0));  // L1 -> fixpipe buffer
      if (g_variant == "fbquant") SetFixPipeConfig(LocalTensor<uint64_t>(), fb);
      if (g_variant == "fbquant1" || g_variant == "fbquant_changed" || g_variant == "fbquant_race")
        SetFixPipeConfig(fb);
      if (g_variant == "fbquant_not_filled") SetFixPipeConfig(fb[N]);
      if (g_variant == "fbquant_changed") q1.SetValue(0, 0);
      SetFixpipeNz2ndFlag(1, 0, 0);
      GlobalTensor<int8_t> c8 = cGM_.ReinterpretCast<int8_t>();
      const DataCopyCO12DstParams p(N, M, N, M, QuantMode_t::VQF322B8_PRE, 0, false, true);
      DataCopy(c8, c1, p);  // mark: fb
      qQ_.FreeTensor(q1);
    } else
      Fixpipe(cGM_, c1, {N, M, M, N, false});
    qC_.FreeTensor(c1);
  }

 private:
  GlobalTensor<float>& aGM_;
  GlobalTensor<float>& btGM_;
  GlobalTensor<float>& cGM_;
  GlobalTensor<int32_t>& qGM_;
  TPipe pipe_;
  TQue<TPosition::C1, 1> qQ_;
  TQue<TPosition::A1, 1> qA1_;
  TQue<TPosition::B1, 1> qB1_;
  TQue<TPosition::A2, 1> qA2_;
  TQue<TPosition::B2, 1> qB2_;
  TQue<TPosition::CO1, 1> qC_;
};

extern "C" __global__ __aicore__ void float_mmad(GM_ADDR a, GM_ADDR bt, GM_ADDR c, GM_ADDR q) {
  GlobalTensor<float> aGM, btGM, cGM;
  GlobalTensor<int32_t> qGM;
  qGM.SetGlobalBuffer((__gm__ int32_t*)q);
  aGM.SetGlobalBuffer((__gm__ float*)a);
  btGM.SetGlobalBuffer((__gm__ float*)bt);
  cGM.SetGlobalBuffer((__gm__ float*)c);
  FloatMatmul op(aGM, btGM, cGM, qGM);
  op.Process();
}

int32_t main(int32_t argc, char* argv[]) {
  g_variant = argc > 1 ? argv[1] : "";
  g_nz = g_variant == "nz" || g_variant == "datacopy_nz";
  std::mt19937 rng(9);
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  std::vector<float> A(M * K), B(K * N);
  const bool vquant = g_variant == "vquant" || g_variant.rfind("fbquant", 0) == 0;
  std::uniform_int_distribution<int> small(-2, 2);
  for (auto& x : A) x = vquant ? static_cast<float>(small(rng)) : value(rng);
  for (auto& x : B) x = vquant ? static_cast<float>(small(rng)) : value(rng);
  // Column j's word: scale 2^(j % 3) (fp32 bits 0-31), bit 46 set (int8, signed), offset 0.
  auto* q = static_cast<uint64_t*>(GmAlloc(N * sizeof(uint64_t)));
  for (uint32_t j = 0; j < N; ++j) {
    const float scale = static_cast<float>(1u << (j % 3));
    uint32_t bits;
    std::memcpy(&bits, &scale, 4);
    q[j] = bits | uint64_t{1} << 46;
  }
  auto* a = static_cast<float*>(GmAlloc(M * K * sizeof(float)));
  auto* bt = static_cast<float*>(GmAlloc(K * N * sizeof(float)));
  auto* c = static_cast<float*>(GmAlloc(M * N * sizeof(float)));
  std::memcpy(a, A.data(), A.size() * sizeof(float));
  for (uint32_t k = 0; k < K; ++k)
    for (uint32_t j = 0; j < N; ++j) bt[j * K + k] = B[k * N + j];
  AscendC::SetKernelMode(KernelMode::AIC_MODE);
  ICPU_RUN_KF(float_mmad, 1, reinterpret_cast<uint8_t*>(a), reinterpret_cast<uint8_t*>(bt),
              reinterpret_cast<uint8_t*>(c), reinterpret_cast<uint8_t*>(q));
  int wrong = 0;
  for (uint32_t i = 0; i < M; ++i)
    for (uint32_t j = 0; j < N; ++j) {
      float cell = 0;
      for (uint32_t s = 0; s < steps; ++s) {
        float sum = 0;
        for (uint32_t k = s * kStep; k < (s + 1u) * kStep; ++k) sum = sum + A[i * K + k] * B[k * N + j];
        cell = s == 0 ? sum : cell + sum;
      }
      if (vquant) {  // integers: the scaled cell, saturated to int8
        const long scaled = std::lround(cell) * (1L << (j % 3));
        const auto want = static_cast<int8_t>(scaled > 127 ? 127 : scaled < -128 ? -128 : scaled);
        wrong += reinterpret_cast<const int8_t*>(c)[i * N + j] != want;
        continue;
      }
      const uint32_t at = g_nz ? ((j / 16) * M + i) * 16 + j % 16 : i * N + j;  // NZ: block, row, column
      wrong += std::memcmp(&c[at], &cell, sizeof(float)) != 0;
    }
  GmFree(a);
  GmFree(bt);
  GmFree(c);
  GmFree(q);
  std::printf("float_mmad%s%s: %s\n", g_variant.empty() ? "" : " ", g_variant.c_str(),
              wrong ? "MISMATCH" : "match");
  return wrong ? 1 : 0;
}
