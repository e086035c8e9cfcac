// The Matmul API's templates (docs/ascendc.md, "Matmul API"): MatmulConfig with GetNormalConfig /
// GetMDLConfig / GetMMConfig and CFG_NORM / CFG_MDL, and the constant tiling (MatmulApiStaticTiling,
// GetMatmulApiTiling) that a Matmul object may take instead of a MatmulConfig. Written from the
// documented interface: the field names and defaults are the docs'; how GetMatmulApiTiling fills the
// tiling fields the config does not fix is aicore-sim's rule (CANN's is not public), stated below.
#pragma once
#include <cstdint>
#include <type_traits>

#include "ascendc/kernel_tiling/kernel_tiling.h"

namespace AscendC {

enum class LayoutMode : int32_t { NONE = 0, BSNGD, SBNGD, BNGS1S2, NORMAL };
enum class IterateOrder : int32_t { ORDER_M = 0, ORDER_N, UNDEF };
enum class ScheduleType : int32_t { INNER_PRODUCT = 0, OUTER_PRODUCT };
enum class BatchMode : int32_t { NONE = 0, BATCH_LESS_THAN_L1, BATCH_LARGE_THAN_L1, SINGLE_LARGE_THAN_L1 };

// The documented fields of MatmulConfig that the templates set; aicore-sim reads doNorm /
// doMultiDataLoad (the template), enUnitFlag and iterateOrder, and refuses the other templates.
struct MatmulConfig {
  bool doNorm = false;
  bool doBasicBlock = false;
  bool doMultiDataLoad = false;
  uint32_t basicM = 0, basicN = 0, basicK = 0;
  bool intrinsicsCheck = false;
  bool isNBatch = false;
  bool enVecND2NZ = false;
  bool doSpecialBasicBlock = false;
  uint32_t doMTE2Preload = 0;
  uint32_t singleCoreM = 0, singleCoreN = 0, singleCoreK = 0;
  uint32_t stepM = 0, stepN = 0;
  uint32_t baseMN = 0, singleCoreMN = 0;
  bool enUnitFlag = true;
  bool isPerTensor = false;
  bool hasAntiQuantOffset = false;
  bool doIBShareNorm = false;
  bool doSpecialMDL = false;
  bool enableInit = true;
  BatchMode batchMode = BatchMode::NONE;
  bool enableEnd = true;
  bool enableGetTensorC = true;
  bool enableSetOrgShape = true;
  bool enableSetBias = true;
  bool enableSetTail = true;
  bool enableQuantVector = true;
  bool enableSetDefineData = true;
  uint8_t iterateMode = 0;
  bool enableReuse = true;
  bool enableUBReuse = true;
  bool enableL1CacheUB = false;
  bool intraBlockPartSum = false;
  IterateOrder iterateOrder = IterateOrder::UNDEF;
  ScheduleType scheduleType = ScheduleType::INNER_PRODUCT;
  bool enableDoubleCache = false;
  bool isBiasBatch = true;
  bool enableStaticPadZeros = false;
  bool isPartialOutput = false;
  bool enableMixDualMaster = false;
  bool isA2B2Shared = false;
  bool isEnableChannelSplit = false;
  bool enableKdimReorderLoad = false;
};

constexpr MatmulConfig GetNormalConfig(const bool intrinsicsLimit = false, const bool batchLoop = false,
                                       const bool isVecND2NZ = false,
                                       const BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1,
                                       const bool isMsgReuse = true,
                                       const IterateOrder iterateOrder = IterateOrder::UNDEF,
                                       const ScheduleType scheduleType = ScheduleType::INNER_PRODUCT,
                                       const bool enUnitFlag = true, const bool enableMixDualMaster = false) {
  MatmulConfig c;
  c.doNorm = true;
  c.intrinsicsCheck = intrinsicsLimit;
  c.isNBatch = batchLoop;
  c.enVecND2NZ = isVecND2NZ;
  c.batchMode = bmmMode;
  c.enableReuse = isMsgReuse;
  c.iterateOrder = iterateOrder;
  c.scheduleType = scheduleType;
  c.enUnitFlag = enUnitFlag;
  c.enableMixDualMaster = enableMixDualMaster;
  return c;
}

constexpr MatmulConfig GetMDLConfig(const bool intrinsicsLimit = false, const bool batchLoop = false,
                                    const uint32_t doMTE2Preload = 0, const bool isVecND2NZ = false,
                                    bool isPerTensor = false, bool hasAntiQuantOffset = false,
                                    const bool enUnitFlag = false, const bool isMsgReuse = true,
                                    const bool enableUBReuse = true, const bool enableL1CacheUB = false,
                                    const bool enableMixDualMaster = false,
                                    const bool enableKdimReorderLoad = false) {
  MatmulConfig c;
  c.doMultiDataLoad = true;
  c.intrinsicsCheck = intrinsicsLimit;
  c.isNBatch = batchLoop;
  c.doMTE2Preload = doMTE2Preload;
  c.enVecND2NZ = isVecND2NZ;
  c.isPerTensor = isPerTensor;
  c.hasAntiQuantOffset = hasAntiQuantOffset;
  c.enUnitFlag = enUnitFlag;
  c.enableReuse = isMsgReuse;
  c.enableUBReuse = enableUBReuse;
  c.enableL1CacheUB = enableL1CacheUB;
  c.enableMixDualMaster = enableMixDualMaster;
  c.enableKdimReorderLoad = enableKdimReorderLoad;
  return c;
}

inline constexpr MatmulConfig CFG_NORM = GetNormalConfig();
inline constexpr MatmulConfig CFG_MDL = GetMDLConfig();

// GetMMConfig<mode>(params...): the template of `mode` (GetNormalConfig() / GetMDLConfig()) with the
// fields the parameter structs carry, in any order. aicore-sim provides MatmulShapeParams and
// MatmulQuantParams; the Norm and MDL modes.
enum class MatmulConfigMode : int32_t { CONFIG_NORM = 0, CONFIG_MDL, CONFIG_SPECIALMDL, CONFIG_IBSHARE };

struct MatmulShapeParams {
  uint32_t singleCoreM = 0, singleCoreN = 0, singleCoreK = 0;
  uint32_t basicM = 0, basicN = 0, basicK = 0;  // baseM, baseN, baseK
};
struct MatmulQuantParams {
  bool isPerTensor = false;
  bool hasAntiQuantOffset = false;
};

namespace detail {
template <class T>
struct unsupported_mm_param : std::false_type {};
constexpr void apply_mm_param(MatmulConfig& c, const MatmulShapeParams& p) {
  c.singleCoreM = p.singleCoreM;
  c.singleCoreN = p.singleCoreN;
  c.singleCoreK = p.singleCoreK;
  c.basicM = p.basicM;
  c.basicN = p.basicN;
  c.basicK = p.basicK;
}
constexpr void apply_mm_param(MatmulConfig& c, const MatmulQuantParams& p) {
  c.isPerTensor = p.isPerTensor;
  c.hasAntiQuantOffset = p.hasAntiQuantOffset;
}
template <class P>
constexpr void apply_mm_param(MatmulConfig&, const P&) {
  static_assert(
      unsupported_mm_param<P>::value,
      "GetMMConfig: aicore-sim takes MatmulShapeParams and MatmulQuantParams; MatmulBatchParams and "
      "MatmulFuncParams are not supported yet");
}
}  // namespace detail

template <MatmulConfigMode configMode, typename... ArgTypes>
constexpr MatmulConfig GetMMConfig(ArgTypes&&... args) {
  static_assert(configMode == MatmulConfigMode::CONFIG_NORM || configMode == MatmulConfigMode::CONFIG_MDL,
                "GetMMConfig: aicore-sim supports CONFIG_NORM and CONFIG_MDL; CONFIG_SPECIALMDL and "
                "CONFIG_IBSHARE are not supported yet");
  MatmulConfig c = configMode == MatmulConfigMode::CONFIG_NORM ? GetNormalConfig() : GetMDLConfig();
  (detail::apply_mm_param(c, args), ...);
  return c;
}

// The constant tiling: the TCubeTiling fields as compile-time values plus the config they were made
// from (cfg). A Matmul object given one (Matmul<A, B, C, BIAS, CONSTANT_CFG>) takes its template
// from cfg; with singleCoreM/N/K set ("full constants") the constant is its tiling and
// REGIST_MATMUL_OBJ may pass a null tiling; with only the base set ("partial constants") the tiling
// comes from REGIST_MATMUL_OBJ as usual and its base must be the constant's.
struct MatmulApiStaticTiling {
#define AICORE_STATIC_TILING_FIELD(name) int32_t name = 0;
  AICORE_TCUBE_TILING_FIELDS(AICORE_STATIC_TILING_FIELD)
#undef AICORE_STATIC_TILING_FIELD
  MatmulConfig cfg{};
};

// L1_SIZE: arch 2201's L1, the default l1Size of GetMatmulApiTiling.
constexpr int32_t L1_SIZE = 512 * 1024;

namespace detail {
// Bytes of one element of a MatmulType's type (the Cube's inputs are 2-byte here).
template <class T>
constexpr int32_t mm_elem_bytes() {
  return static_cast<int32_t>(sizeof(T));
}
constexpr int32_t ceil16(int32_t v) {
  return (v + 15) / 16 * 16;
}
}  // namespace detail

// aicore-sim's rule for what the config leaves open: base from basicM/N/K (which must be set:
// otherwise a compile-time error), the single-core shape from singleCoreM/N/K (0 when not set) and
// M, N, Ka, Kb from it; stepM = stepN = stepKa = stepKb = 1; depthA1 = depthB1 = 2 when two A and
// two B tiles fit l1Size, else 1; dbL0A = dbL0B = 2 when two tiles fit the 64 KiB L0A/L0B; dbL0C = 2
// when two fp32 C blocks fit the 128 KiB L0C and the single-core part has more than one; iterateOrder
// the config's (ORDER_N when UNDEF); isBias 1 (SetBias decides); usedCoreNum 1. The kernel may change
// any field of the result (it is a plain struct), as the best-practice sample does with depth and step.
template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE>
constexpr MatmulApiStaticTiling GetMatmulApiTiling(const MatmulConfig& mmCFG, int32_t l1Size = L1_SIZE) {
  if (mmCFG.basicM == 0 || mmCFG.basicN == 0 || mmCFG.basicK == 0)
    throw "GetMatmulApiTiling: the config has no base block: set basicM, basicN and basicK (GetMMConfig "
          "with MatmulShapeParams)";
  MatmulApiStaticTiling t;
  t.cfg = mmCFG;
  t.baseM = static_cast<int32_t>(mmCFG.basicM);
  t.baseN = static_cast<int32_t>(mmCFG.basicN);
  t.baseK = static_cast<int32_t>(mmCFG.basicK);
  t.singleCoreM = static_cast<int32_t>(mmCFG.singleCoreM);
  t.singleCoreN = static_cast<int32_t>(mmCFG.singleCoreN);
  t.singleCoreK = static_cast<int32_t>(mmCFG.singleCoreK);
  t.M = t.singleCoreM;
  t.N = t.singleCoreN;
  t.Ka = t.Kb = t.singleCoreK;
  t.usedCoreNum = 1;
  t.stepM = t.stepN = t.stepKa = t.stepKb = 1;
  const int32_t ea = detail::mm_elem_bytes<typename A_TYPE::T>(),
                eb = detail::mm_elem_bytes<typename B_TYPE::T>();
  const int32_t a = detail::ceil16(t.baseM) * detail::ceil16(t.baseK) * ea;
  const int32_t b = detail::ceil16(t.baseN) * detail::ceil16(t.baseK) * eb;
  t.depthA1 = t.depthB1 = 2 * (a + b) <= l1Size ? 2 : 1;
  t.dbL0A = t.dbL0B = 2 * a <= 64 * 1024 && 2 * b <= 64 * 1024 ? 2 : 1;
  const bool many = t.singleCoreM > t.baseM || t.singleCoreN > t.baseN;
  t.dbL0C = 2 * detail::ceil16(t.baseM) * detail::ceil16(t.baseN) * 4 <= 128 * 1024 && many ? 2 : 1;
  t.iterateOrder = mmCFG.iterateOrder == IterateOrder::ORDER_M ? 0 : 1;
  t.isBias = 1;
  (void)sizeof(typename C_TYPE::T), (void)sizeof(typename BIAS_TYPE::T);
  return t;
}

namespace detail {
// The MatmulConfig of a Matmul object's MM_CFG, a MatmulConfig or a MatmulApiStaticTiling.
constexpr MatmulConfig config_of(const MatmulConfig& c) {
  return c;
}
constexpr MatmulConfig config_of(const MatmulApiStaticTiling& t) {
  return t.cfg;
}
}  // namespace detail

}  // namespace AscendC
