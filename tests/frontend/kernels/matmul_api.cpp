// A kernel in the style of the Ascend C Matmul samples: the host makes the tiling with
// MultiCoreMatmulTiling and passes its bytes in a GM buffer; each block copies it, finds its part
// of C from GetBlockIdx() and the tiling (part (i, j) = (block / parts along N, block % parts along
// N)), and runs Matmul + REGIST_MATMUL_OBJ + SetTail + IterateAll (or the Iterate / GetTensorC
// loop). The host checks C bit for bit against a plain double loop rounded to C's type by its own
// conversion below, and prints "matmul_api: ok" or what differs.
//
// Usage: matmul_api M K N BLOCKS float|half|bf16 nd|nt norm|mdl[-iterate][-orderm][-bias|-biash]
//        [BASEM BASEN BASEK]
// (-bias: SetBias(true) on the host and SetBias of a float bias, C = bias + A x B; -biash: a half
// bias, float C and NORM only; -bias-off: SetBias, then DisableBias: C = A x B; -single: parts of
// N / 2 - 5 columns, not a multiple of 16)
// (B given K x N, or transposed: N x K; the last three: SetFixSplit). The data are multiples of
// 1/8 in [-1, 1]: every fp32 sum is exact, so the golden is exact.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "tikicpulib.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

using namespace AscendC;
using namespace matmul;

namespace {

bool g_btrans = false;
bool g_iterate = false;   // Iterate / GetTensorC instead of IterateAll
bool g_bias = false;      // SetBias
bool g_bias_off = false;  // and DisableBias after it: C = A x B with an isBias tiling

template <class CT, const MatmulConfig& CFG, class BT = float>
void matmul_body(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGm, GM_ADDR bias) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  TPipe pipe;
  TCubeTiling tiling;
  const auto* src = reinterpret_cast<__gm__ const int32_t*>(tilingGm);
  auto* dst = reinterpret_cast<int32_t*>(&tiling);
  for (size_t i = 0; i < sizeof(TCubeTiling) / sizeof(int32_t); ++i) dst[i] = src[i];
  const int32_t block = static_cast<int32_t>(GetBlockIdx());
  if (block >= tiling.usedCoreNum) return;
  const int32_t nParts = (tiling.N + tiling.singleCoreN - 1) / tiling.singleCoreN;
  const int32_t mIdx = block / nParts, nIdx = block % nParts;
  const int32_t tailM = std::min(tiling.singleCoreM, tiling.M - mIdx * tiling.singleCoreM);
  const int32_t tailN = std::min(tiling.singleCoreN, tiling.N - nIdx * tiling.singleCoreN);
  const uint64_t offsetA = uint64_t(mIdx) * tiling.singleCoreM * tiling.Ka;
  const uint64_t offsetB =
      g_btrans ? uint64_t(nIdx) * tiling.singleCoreN * tiling.Kb : uint64_t(nIdx) * tiling.singleCoreN;
  const uint64_t offsetC =
      uint64_t(mIdx) * tiling.singleCoreM * tiling.N + uint64_t(nIdx) * tiling.singleCoreN;
  GlobalTensor<half> aGlobal, bGlobal;
  GlobalTensor<CT> cGlobal;
  aGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), uint64_t(tiling.M) * tiling.Ka);
  bGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), uint64_t(tiling.Kb) * tiling.N);
  cGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ CT*>(c), uint64_t(tiling.M) * tiling.N);
  Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>,
         MatmulType<TPosition::GM, CubeFormat::ND, half, true>, MatmulType<TPosition::GM, CubeFormat::ND, CT>,
         MatmulType<TPosition::GM, CubeFormat::ND, BT>, CFG>
      mm;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
  mm.SetTensorA(aGlobal[offsetA]);
  mm.SetTensorB(bGlobal[offsetB], g_btrans);
  if (g_bias) {
    GlobalTensor<BT> biasGlobal;
    biasGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ BT*>(bias), uint64_t(tiling.N));
    mm.SetBias(biasGlobal[uint64_t(nIdx) * tiling.singleCoreN]);
    if (g_bias_off) mm.DisableBias();
  }
  mm.SetTail(tailM, tailN);
  if (g_iterate) {
    while (mm.Iterate()) {              // MATMUL_ITERATE
      mm.GetTensorC(cGlobal[offsetC]);  // MATMUL_GET_TENSOR_C
    }
  } else {
    mm.IterateAll(cGlobal[offsetC]);  // MATMUL_ITERATE_ALL
  }
  mm.End();
}

}  // namespace

extern "C" __global__ __aicore__ void mm_float(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR t, GM_ADDR bias) {
  matmul_body<float, CFG_NORM>(a, b, c, t, bias);
}
extern "C" __global__ __aicore__ void mm_half(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR t, GM_ADDR bias) {
  matmul_body<half, CFG_NORM>(a, b, c, t, bias);
}
extern "C" __global__ __aicore__ void mm_bf16(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR t, GM_ADDR bias) {
  matmul_body<bfloat16_t, CFG_NORM>(a, b, c, t, bias);
}
extern "C" __global__ __aicore__ void mm_float_mdl(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR t, GM_ADDR bias) {
  matmul_body<float, CFG_MDL>(a, b, c, t, bias);
}
extern "C" __global__ __aicore__ void mm_float_hbias(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR t,
                                                     GM_ADDR bias) {
  matmul_body<float, CFG_NORM, half>(a, b, c, t, bias);
}
extern "C" __global__ __aicore__ void mm_half_mdl(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR t, GM_ADDR bias) {
  matmul_body<half, CFG_MDL>(a, b, c, t, bias);
}

namespace {

// Round to nearest even, normal and subnormal ranges (the sums here are far below the overflow).
uint16_t half_bits(double v) {
  const uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  const double x = std::fabs(v);
  if (x == 0) return sign;
  int e = 0;
  std::frexp(x, &e);  // x = f * 2^e, f in [0.5, 1)
  int exp = e - 1 + 15;
  if (exp <= 0)
    return static_cast<uint16_t>(sign | static_cast<uint16_t>(std::nearbyint(x / std::ldexp(1.0, -24))));
  double q = std::nearbyint((x / std::ldexp(1.0, e - 1) - 1.0) * 1024);
  if (q == 1024) q = 0, ++exp;
  return static_cast<uint16_t>(sign | exp << 10 | static_cast<uint16_t>(q));
}
uint16_t bf16_bits(double v) {
  const float f = static_cast<float>(v);  // exact: the sums have few significant bits
  uint32_t u;
  std::memcpy(&u, &f, 4);
  u += 0x7fff + (u >> 16 & 1);
  return static_cast<uint16_t>(u >> 16);
}
uint16_t input_bits(double v) {  // v a multiple of 1/8 in [-1, 1]: exact in half
  return half_bits(v);
}

double a_of(int m, int k) {
  return ((m * 7 + k * 3) % 17 - 8) / 8.0;
}
double b_of(int k, int n) {
  return ((k * 5 + n * 11) % 17 - 8) / 8.0;
}
double bias_of(int n) {  // a multiple of 1/8 in [-1, 1]
  return ((n * 13 + 5) % 17 - 8) / 8.0;
}

}  // namespace

int32_t main(int32_t argc, char* argv[]) {
  if (argc < 8) {
    std::printf("usage: matmul_api M K N BLOCKS float|half|bf16 nd|nt norm|mdl [BASEM BASEN BASEK]\n");
    return 2;
  }
  const int M = std::atoi(argv[1]), K = std::atoi(argv[2]), N = std::atoi(argv[3]),
            blocks = std::atoi(argv[4]);
  const std::string ctype = argv[5], mode = argv[7];
  // norm|mdl, then -iterate: the Iterate / GetTensorC loop instead of IterateAll; -orderm:
  // SetTraverse(FIRSTM), C's base blocks along M first.
  const std::string tmpl = mode.substr(0, mode.find('-'));
  g_iterate = mode.find("-iterate") != std::string::npos;
  const bool order_m = mode.find("-orderm") != std::string::npos;
  // -single: SetSingleShape(M / 2, N / 2 - 5): parts whose N is not a multiple of 16 (the best-
  // practice sample's 683-column split), the last column of parts a narrow tail.
  const bool single = mode.find("-single") != std::string::npos;
  const bool bias_half = mode.find("-biash") != std::string::npos;
  g_bias = mode.find("-bias") != std::string::npos;
  g_bias_off = mode.find("-bias-off") != std::string::npos;
  g_btrans = std::string(argv[6]) == "nt";
  const size_t c_size = ctype == "float" ? 4 : 2;

  // Host tiling, as the samples make it.
  matmul_tiling::MultiCoreMatmulTiling cubeTiling(*platform_ascendc::PlatformAscendCManager::GetInstance());
  cubeTiling.SetDim(blocks);
  cubeTiling.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
  cubeTiling.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16, g_btrans);
  cubeTiling.SetCType(TPosition::GM, CubeFormat::ND,
                      ctype == "float"  ? matmul_tiling::DataType::DT_FLOAT
                      : ctype == "half" ? matmul_tiling::DataType::DT_FLOAT16
                                        : matmul_tiling::DataType::DT_BF16);
  cubeTiling.SetShape(M, N, K);
  cubeTiling.SetOrgShape(M, N, K);
  cubeTiling.SetBias(g_bias);
  if (g_bias)
    cubeTiling.SetBiasType(
        TPosition::GM, CubeFormat::ND,
        bias_half ? matmul_tiling::DataType::DT_FLOAT16 : matmul_tiling::DataType::DT_FLOAT);
  cubeTiling.SetBufferSpace(-1, -1, -1);
  if (order_m) cubeTiling.SetTraverse(matmul_tiling::MatrixTraverse::FIRSTM);
  if (single) cubeTiling.SetSingleShape(M / 2, N / 2 - 5, K);
  if (argc >= 11) cubeTiling.SetFixSplit(std::atoi(argv[8]), std::atoi(argv[9]), std::atoi(argv[10]));
  optiling::TCubeTiling tilingData;
  if (cubeTiling.GetTiling(tilingData) == -1) {
    std::printf("matmul_api: GetTiling failed\n");
    return 1;
  }
  std::printf(
      "tiling: usedCoreNum=%d singleCoreM=%d singleCoreN=%d baseM=%d baseN=%d baseK=%d dbL0A=%d dbL0C=%d\n",
      tilingData.get_usedCoreNum(), tilingData.get_singleCoreM(), tilingData.get_singleCoreN(),
      tilingData.get_baseM(), tilingData.get_baseN(), tilingData.get_baseK(), tilingData.get_dbL0A(),
      tilingData.get_dbL0C());

  auto* a = static_cast<uint8_t*>(AscendC::GmAlloc(size_t(M) * K * 2));
  auto* b = static_cast<uint8_t*>(AscendC::GmAlloc(size_t(K) * N * 2));
  auto* c = static_cast<uint8_t*>(AscendC::GmAlloc(size_t(M) * N * c_size));
  auto* tiling = static_cast<uint8_t*>(AscendC::GmAlloc(tilingData.GetDataSize()));
  auto* bias = static_cast<uint8_t*>(AscendC::GmAlloc(size_t(N) * 4));
  for (int n = 0; n < N; ++n) {
    if (bias_half) {
      const uint16_t h = half_bits(bias_of(n));
      std::memcpy(bias + size_t(n) * 2, &h, 2);
    } else {
      const float f = static_cast<float>(bias_of(n));
      std::memcpy(bias + size_t(n) * 4, &f, 4);
    }
  }
  tilingData.SaveToBuffer(tiling, tilingData.GetDataSize());
  auto* a16 = reinterpret_cast<uint16_t*>(a);
  auto* b16 = reinterpret_cast<uint16_t*>(b);
  for (int m = 0; m < M; ++m)
    for (int k = 0; k < K; ++k) a16[m * K + k] = input_bits(a_of(m, k));
  for (int k = 0; k < K; ++k)
    for (int n = 0; n < N; ++n) b16[g_btrans ? n * K + k : k * N + n] = input_bits(b_of(k, n));

  AscendC::SetKernelMode(KernelMode::AIC_MODE);
  if (bias_half) {
    ICPU_RUN_KF(mm_float_hbias, blocks, a, b, c, tiling, bias);
  } else {
    if (ctype == "float" && tmpl == "norm") ICPU_RUN_KF(mm_float, blocks, a, b, c, tiling, bias);
    if (ctype == "half" && tmpl == "norm") ICPU_RUN_KF(mm_half, blocks, a, b, c, tiling, bias);
    if (ctype == "bf16") ICPU_RUN_KF(mm_bf16, blocks, a, b, c, tiling, bias);
    if (ctype == "float" && tmpl == "mdl") ICPU_RUN_KF(mm_float_mdl, blocks, a, b, c, tiling, bias);
    if (ctype == "half" && tmpl == "mdl") ICPU_RUN_KF(mm_half_mdl, blocks, a, b, c, tiling, bias);
  }

  // A timing-only launch computes no data: nothing to check.
  const char* options = std::getenv("AICORE_SIM_ARGS");
  if (options && std::strstr(options, "--timing-only")) {
    std::printf("matmul_api: timing only, not checked\n");
    return 0;
  }
  std::string failure;
  for (int m = 0; m < M && failure.empty(); ++m)
    for (int n = 0; n < N && failure.empty(); ++n) {
      double want = g_bias && !g_bias_off ? bias_of(n) : 0;
      for (int k = 0; k < K; ++k) want += a_of(m, k) * b_of(k, n);
      bool same;
      std::string got;
      if (ctype == "float") {
        float g;
        std::memcpy(&g, c + (size_t(m) * N + n) * 4, 4);
        const float w = static_cast<float>(want);
        same = std::memcmp(&g, &w, 4) == 0;
        got = std::to_string(g);
      } else {
        uint16_t g;
        std::memcpy(&g, c + (size_t(m) * N + n) * 2, 2);
        const uint16_t w = ctype == "half" ? half_bits(want) : bf16_bits(want);
        same = g == w;
        got = "bits " + std::to_string(g) + " (want bits " + std::to_string(w) + ")";
      }
      if (!same)
        failure = "C[" + std::to_string(m) + "][" + std::to_string(n) + "] = " + got + ", want " +
                  std::to_string(want);
    }
  std::printf("matmul_api: %s\n", failure.empty() ? "ok" : ("FAILED: " + failure).c_str());
  AscendC::GmFree(a);
  AscendC::GmFree(b);
  AscendC::GmFree(c);
  AscendC::GmFree(tiling);
  AscendC::GmFree(bias);
  return failure.empty() ? 0 : 1;
}
