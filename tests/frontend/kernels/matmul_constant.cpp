// A kernel in the style of the Ascend C best-practice Matmul samples with a constant tiling: the
// template is GetMMConfig<CONFIG_MDL>(MatmulShapeParams{singleCoreM, singleCoreN, K, 128, 256, 64}),
// the tiling GetMatmulApiTiling<...>(config) with depthA1 / stepKa and depthB1 / stepKb set by the
// kernel (big L1 packets), the Matmul object Matmul<A, B, C, BIAS, CONSTANT>. The host passes only
// a problem shape (M, N, K, the parts) in GM; each block takes part (block % mParts, block /
// mParts), registers the object with a null tiling (full constants), sets the org shape and its
// tail, and runs IterateAll on each of two halves of M (the "L2 cache" loop). The host checks C bit
// for bit against a plain double loop. Exact data (multiples of 1/8 in [-1, 1]).
//
// Usage: matmul_constant VARIANT BLOCKS M N K SINGLE_M SINGLE_N
//   full        full constants, MDL, depthA1 8 / stepKa 4, depthB1 4 / stepKb 2, fp32 C
//   full-unit   the same with cfg.enUnitFlag = true, half C
//   partial     partial constants (base only): the host's MultiCoreMatmulTiling gives the rest
//   mismatch    partial constants whose base is not the host tiling's (an error at IterateAll)
//   no-tiling   partial constants and a null tiling (an error at IterateAll)
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

namespace {

struct ProblemShape {
  uint32_t usedCoreNum, m, n, k, singleCoreM, singleCoreN;
};

using AT = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
using BT = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half, true>;
using CF = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
using CH = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
using BiasT = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;

constexpr uint32_t kSingleM = 64, kSingleN = 256, kK = 512;

template <class C, bool unitFlag>
constexpr MatmulApiStaticTiling full_constant() {
  constexpr MatmulShapeParams shape = {kSingleM, kSingleN, kK, 128, 256, 64};
  MatmulConfig cfg = GetMMConfig<MatmulConfigMode::CONFIG_MDL>(shape);
  cfg.enUnitFlag = unitFlag;
  MatmulApiStaticTiling t = AscendC::GetMatmulApiTiling<AT, BT, C, BiasT>(cfg);
  t.depthA1 = 8;
  t.stepKa = 4;
  t.depthB1 = 4;
  t.stepKb = 2;
  return t;
}
constexpr MatmulApiStaticTiling partial_constant(uint32_t baseN) {
  MatmulShapeParams shape;
  shape.basicM = 64;
  shape.basicN = baseN;
  shape.basicK = 64;
  return AscendC::GetMatmulApiTiling<AT, BT, CF, BiasT>(GetMMConfig<MatmulConfigMode::CONFIG_NORM>(shape));
}

constexpr MatmulApiStaticTiling kFull = full_constant<CF, false>();
constexpr MatmulApiStaticTiling kFullUnit = full_constant<CH, true>();
constexpr MatmulApiStaticTiling kPartial = partial_constant(128);
constexpr MatmulApiStaticTiling kPartialOther = partial_constant(64);

// The constant says what the template is: MDL from the config, unitFlag as the kernel set it.
static_assert(kFull.cfg.doMultiDataLoad && !kFull.cfg.doNorm && !kFull.cfg.enUnitFlag, "MDL, no unitFlag");
static_assert(kFullUnit.cfg.enUnitFlag && kFull.baseM == 128 && kFull.baseN == 256 && kFull.baseK == 64,
              "base from basicM/N/K");
static_assert(kFull.singleCoreM == 64 && kFull.singleCoreK == 512 && kPartial.singleCoreM == 0,
              "single-core shape from the config");

template <class CType, const auto& CFG>
void body(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR shapeGm, GM_ADDR tilingGm) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  AscendC::TPipe pipe;
  ProblemShape s;
  std::memcpy(&s, shapeGm, sizeof(s));
  if (AscendC::GetBlockIdx() >= s.usedCoreNum) return;
  const uint32_t mParts = s.m / 2 / s.singleCoreM;  // parts of one half of M
  const uint32_t mIdx = AscendC::GetBlockIdx() % mParts, nIdx = AscendC::GetBlockIdx() / mParts;
  AscendC::GlobalTensor<half> aGlobal, bGlobal;
  AscendC::GlobalTensor<typename CType::T> cGlobal;
  aGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), uint64_t(s.m) * s.k);
  bGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), uint64_t(s.n) * s.k);
  cGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ typename CType::T*>(c), uint64_t(s.m) * s.n);
  AscendC::Matmul<AT, BT, CType, BiasT, CFG> mm;
  if (tilingGm) {
    TCubeTiling tiling;
    std::memcpy(&tiling, tilingGm, sizeof(tiling));
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
  } else {
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, (TCubeTiling*)nullptr);
  }
  mm.SetOrgShape(s.m, s.n, s.k);
  const uint32_t tailN =
      s.n - nIdx * s.singleCoreN < s.singleCoreN ? s.n - nIdx * s.singleCoreN : s.singleCoreN;
  if (tailN < s.singleCoreN) mm.SetTail(s.singleCoreM, tailN);
  for (uint32_t half_m = 0; half_m < 2; ++half_m) {
    const uint64_t row = uint64_t(half_m) * (s.m / 2) + uint64_t(mIdx) * s.singleCoreM;
    mm.SetTensorA(aGlobal[row * s.k]);
    mm.SetTensorB(bGlobal[uint64_t(nIdx) * s.singleCoreN * s.k], true);
    mm.IterateAll(cGlobal[row * s.n + uint64_t(nIdx) * s.singleCoreN]);  // ITERATE_ALL
  }
  mm.End();
}

}  // namespace

extern "C" __global__ __cube__ void mm_full(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR s, GM_ADDR t) {
  body<CF, kFull>(a, b, c, s, t);
}
extern "C" __global__ __cube__ void mm_full_unit(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR s, GM_ADDR t) {
  body<CH, kFullUnit>(a, b, c, s, t);
}
extern "C" __global__ __cube__ void mm_partial(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR s, GM_ADDR t) {
  body<CF, kPartial>(a, b, c, s, t);
}
extern "C" __global__ __cube__ void mm_partial_other(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR s, GM_ADDR t) {
  body<CF, kPartialOther>(a, b, c, s, t);
}

namespace {

double a_of(uint32_t m, uint32_t k) {
  return (int((m * 7 + k * 3) % 17) - 8) / 8.0;
}
double b_of(uint32_t k, uint32_t n) {
  return (int((k * 5 + n * 11) % 17) - 8) / 8.0;
}
// Round to nearest even (normal range: the sums here are far from both ends).
uint16_t half_bits(double v) {
  const uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  const double x = std::fabs(v);
  if (x == 0) return sign;
  int e = 0;
  std::frexp(x, &e);  // x = f * 2^e, f in [0.5, 1)
  int exp = e - 1 + 15;
  double q = std::nearbyint((x / std::ldexp(1.0, e - 1) - 1.0) * 1024);
  if (q == 1024) q = 0, ++exp;
  return static_cast<uint16_t>(sign | exp << 10 | static_cast<uint16_t>(q));
}

}  // namespace

int32_t main(int32_t argc, char* argv[]) {
  if (argc < 8) {
    std::printf("usage: matmul_constant VARIANT BLOCKS M N K SINGLE_M SINGLE_N\n");
    return 2;
  }
  const std::string variant = argv[1];
  const uint32_t blocks = std::atoi(argv[2]), M = std::atoi(argv[3]), N = std::atoi(argv[4]),
                 K = std::atoi(argv[5]), singleM = std::atoi(argv[6]), singleN = std::atoi(argv[7]);
  const bool halfC = variant == "full-unit";
  const size_t cSize = halfC ? 2 : 4;
  auto* a = static_cast<uint8_t*>(AscendC::GmAlloc(size_t(M) * K * 2));
  auto* b = static_cast<uint8_t*>(AscendC::GmAlloc(size_t(K) * N * 2));
  auto* c = static_cast<uint8_t*>(AscendC::GmAlloc(size_t(M) * N * cSize));
  auto* shape = static_cast<uint8_t*>(AscendC::GmAlloc(sizeof(ProblemShape)));
  const ProblemShape s{blocks, M, N, K, singleM, singleN};
  std::memcpy(shape, &s, sizeof(s));
  auto* a16 = reinterpret_cast<uint16_t*>(a);
  auto* b16 = reinterpret_cast<uint16_t*>(b);
  for (uint32_t m = 0; m < M; ++m)
    for (uint32_t k = 0; k < K; ++k) a16[m * K + k] = half_bits(a_of(m, k));
  for (uint32_t k = 0; k < K; ++k)
    for (uint32_t n = 0; n < N; ++n) b16[n * K + k] = half_bits(b_of(k, n));  // B transposed: N x K

  uint8_t* tiling = nullptr;
  if (variant == "partial" || variant == "mismatch") {  // the host tiling of one part
    matmul_tiling::MultiCoreMatmulTiling t(*platform_ascendc::PlatformAscendCManager::GetInstance());
    t.SetDim(1);
    t.SetAType(AscendC::TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    t.SetBType(AscendC::TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16, true);
    t.SetCType(AscendC::TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    t.SetShape(singleM, singleN, K);
    t.SetOrgShape(M, N, K);
    t.SetFixSplit(64, 128, 64);
    optiling::TCubeTiling data;
    if (t.GetTiling(data) == -1) return 1;
    tiling = static_cast<uint8_t*>(AscendC::GmAlloc(data.GetDataSize()));
    data.SaveToBuffer(tiling, data.GetDataSize());
  }
  AscendC::SetKernelMode(KernelMode::AIC_MODE);
  if (variant == "full") ICPU_RUN_KF(mm_full, blocks, a, b, c, shape, tiling);
  if (variant == "full-unit") ICPU_RUN_KF(mm_full_unit, blocks, a, b, c, shape, tiling);
  if (variant == "partial" || variant == "no-tiling") ICPU_RUN_KF(mm_partial, blocks, a, b, c, shape, tiling);
  if (variant == "mismatch") ICPU_RUN_KF(mm_partial_other, blocks, a, b, c, shape, tiling);

  const char* options = std::getenv("AICORE_SIM_ARGS");
  if (options && std::strstr(options, "--timing-only")) {
    std::printf("matmul_constant: timing only, not checked\n");
    return 0;
  }
  std::string failure;
  for (uint32_t m = 0; m < M && failure.empty(); ++m)
    for (uint32_t n = 0; n < N && failure.empty(); ++n) {
      double want = 0;
      for (uint32_t k = 0; k < K; ++k) want += a_of(m, k) * b_of(k, n);
      bool same;
      if (halfC) {
        uint16_t g;
        std::memcpy(&g, c + (size_t(m) * N + n) * 2, 2);
        same = g == half_bits(want);
      } else {
        float g;
        std::memcpy(&g, c + (size_t(m) * N + n) * 4, 4);
        same = g == static_cast<float>(want);
      }
      if (!same) failure = "C[" + std::to_string(m) + "][" + std::to_string(n) + "] differs";
    }
  std::printf("matmul_constant: %s\n", failure.empty() ? "ok" : ("FAILED: " + failure).c_str());
  AscendC::GmFree(a);
  AscendC::GmFree(b);
  AscendC::GmFree(c);
  AscendC::GmFree(shape);
  if (tiling) AscendC::GmFree(tiling);
  return failure.empty() ? 0 : 1;
}
