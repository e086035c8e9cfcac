// The Matmul API's kernel side (docs/ascendc.md, "Matmul API"): MatmulType, the Matmul object and
// REGIST_MATMUL_OBJ (its templates and the constant tiling: matmul_config.hpp).
// The object runs the generator's best-practice schedule (aicore/gen/matmul.hpp) through the
// runtime (aicore/frontend/matmul_core.hpp): what aicore-sim does not support is a static_assert
// naming it (types, formats, positions, templates) or a KernelError at the call's line.
#pragma once
#include <cstdint>
#include <type_traits>

#include "aicore/frontend/matmul_core.hpp"
#include "aicore/frontend/runtime.hpp"
#include "ascendc/detail/cube_format.hpp"
#include "ascendc/detail/enums.hpp"
#include "ascendc/detail/intrinsics.hpp"
#include "ascendc/detail/matmul_config.hpp"
#include "ascendc/detail/pipe.hpp"
#include "ascendc/detail/soft_float.hpp"
#include "ascendc/detail/tensor.hpp"
#include "ascendc/kernel_tiling/kernel_tiling.h"

namespace AscendC {

template <TPosition POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false,
          LayoutMode LAYOUT = LayoutMode::NONE, bool IBSHARE = false>
struct MatmulType {
  constexpr static TPosition pos = POSITION;
  constexpr static CubeFormat format = FORMAT;
  using T = TYPE;
  constexpr static bool isTrans = ISTRANS;
  constexpr static LayoutMode layout = LAYOUT;
  constexpr static bool ibShare = IBSHARE;
};

namespace detail {
template <class T>
constexpr bool cube_input() {
  return std::is_same<T, half>::value || std::is_same<T, bfloat16_t>::value;
}
template <class T>
constexpr bool cube_output() {
  return std::is_same<T, float>::value || std::is_same<T, half>::value || std::is_same<T, bfloat16_t>::value;
}
}  // namespace detail

// MM_CFG: a MatmulConfig (CFG_NORM, CFG_MDL, GetNormalConfig(...), GetMMConfig<...>(...)) or a
// constant tiling (GetMatmulApiTiling<...>(config)), whose cfg is the template.
template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const auto& MM_CFG = CFG_NORM>
class Matmul {
  using CfgT = std::remove_cv_t<std::remove_reference_t<decltype(MM_CFG)>>;
  static_assert(std::is_same<CfgT, MatmulConfig>::value || std::is_same<CfgT, MatmulApiStaticTiling>::value,
                "Matmul: the fifth template argument is a MatmulConfig or a MatmulApiStaticTiling");
  static constexpr MatmulConfig kCfg = detail::config_of(MM_CFG);
  using SrcAT = typename A_TYPE::T;
  using SrcBT = typename B_TYPE::T;
  using DstT = typename C_TYPE::T;
  using BiasT = typename BIAS_TYPE::T;
  static_assert(A_TYPE::pos == TPosition::GM && B_TYPE::pos == TPosition::GM && C_TYPE::pos == TPosition::GM,
                "Matmul: aicore-sim supports A, B and C in GM (TPosition::GM); TSCM, VECCALC/VECIN and CO1 "
                "positions are not supported yet");
  static_assert(A_TYPE::format == CubeFormat::ND && B_TYPE::format == CubeFormat::ND &&
                    C_TYPE::format == CubeFormat::ND,
                "Matmul: aicore-sim supports CubeFormat::ND for A, B and C; NZ and the other formats are not "
                "supported yet");
  static_assert(detail::cube_input<SrcAT>() && std::is_same<SrcAT, SrcBT>::value,
                "Matmul: aicore-sim supports A and B of one type, half or bfloat16_t (int8_t, float and the "
                "mixed-type matmuls are not supported yet)");
  static_assert(detail::cube_output<DstT>(), "Matmul: aicore-sim supports C of float, half or bfloat16_t");
  static_assert(A_TYPE::layout == LayoutMode::NONE && B_TYPE::layout == LayoutMode::NONE,
                "Matmul: batch layouts (LayoutMode) are not supported yet by aicore-sim");
  static_assert(
      (kCfg.doNorm || kCfg.doMultiDataLoad) && !kCfg.doBasicBlock && !kCfg.doSpecialBasicBlock &&
          !kCfg.doSpecialMDL && !kCfg.doIBShareNorm,
      "Matmul: aicore-sim supports the NORM (CFG_NORM, GetNormalConfig) and MDL (CFG_MDL, GetMDLConfig) "
      "templates; BasicBlock, SpecialBasicBlock, SpecialMDL and IBShare are not supported yet");
  static_assert(
      !kCfg.isNBatch && !kCfg.enVecND2NZ && kCfg.doMTE2Preload == 0 && !kCfg.intraBlockPartSum,
      "Matmul: batch loops, vector ND2NZ, MTE2 preload and intra-block partial sums are not supported "
      "yet by aicore-sim");

  static constexpr aicore::frontend::MatmulKind kind() {
    aicore::frontend::MatmulKind k;
    k.a = detail::dtype_of<SrcAT>();
    k.b = detail::dtype_of<SrcBT>();
    k.c = detail::dtype_of<DstT>();
    k.bias = detail::dtype_of<BiasT>();
    k.mdl = !kCfg.doNorm;
    k.unit_flag = kCfg.enUnitFlag;
    k.iterate_order = static_cast<int>(kCfg.iterateOrder);
    return k;
  }

  // A constant tiling's TCubeTiling fields.
  static TCubeTiling constant_tiling() {
    TCubeTiling t;
#define AICORE_COPY_FIELD(name) t.name = MM_CFG.name;
    AICORE_TCUBE_TILING_FIELDS(AICORE_COPY_FIELD)
#undef AICORE_COPY_FIELD
    return t;
  }

 public:
  Matmul() : core_(kind()) {
    if constexpr (std::is_same<CfgT, MatmulApiStaticTiling>::value)
      core_.set_constant_tiling(constant_tiling());
  }

  void Init(const TCubeTiling* cubeTiling, TPipe* tpipe = nullptr, CallSite site = CallSite::here()) {
    core_.init(cubeTiling, tpipe ? &tpipe->core() : nullptr, site, "Matmul::Init");
  }
  void SetTensorA(const GlobalTensor<SrcAT>& gm, bool isTransposeA = false,
                  CallSite site = CallSite::here()) {
    core_.set_a(gm.GetPhyAddr(), isTransposeA, site);
  }
  void SetTensorB(const GlobalTensor<SrcBT>& gm, bool isTransposeB = false,
                  CallSite site = CallSite::here()) {
    core_.set_b(gm.GetPhyAddr(), isTransposeB, site);
  }
  void SetBias(const GlobalTensor<BiasT>& gm, CallSite site = CallSite::here()) {
    core_.set_bias(gm.GetPhyAddr(), site);
  }
  void SetTail(int tailM = -1, int tailN = -1, int tailK = -1, CallSite site = CallSite::here()) {
    core_.set_tail(tailM, tailN, tailK, site);
  }
  void SetOrgShape(int orgM, int orgN, int orgK, CallSite site = CallSite::here()) {
    core_.set_org_shape(orgM, orgN, orgK, orgK, site);
  }
  void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb, int orgKc = 0,
                   CallSite site = CallSite::here()) {
    (void)orgKc;
    core_.set_org_shape(orgM, orgN, orgKa, orgKb, site);
  }
  void SetSingleShape(int singleM, int singleN, int singleK, CallSite site = CallSite::here()) {
    core_.set_single_shape(singleM, singleN, singleK, site);
  }
  // C (the part SetTail / singleCore sizes give) = A x B, written to gm: the whole gen schedule.
  template <bool sync = true>
  void IterateAll(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0, bool enSequentialWrite = false,
                  bool waitIterateAll = false, bool fakeMsg = false, CallSite site = CallSite::here()) {
    static_assert(sync, "Matmul::IterateAll<false> (asynchronous) is not supported yet by aicore-sim");
    (void)enSequentialWrite, (void)waitIterateAll, (void)fakeMsg;
    core_.iterate_all(gm.GetPhyAddr(), enAtomic, site);
  }
  // One base block of C at a time: `while (mm.Iterate()) { mm.GetTensorC(cGlobal); }` issues
  // IterateAll's program, Iterate the block's copies, loads and Mmads, GetTensorC its Fixpipe into
  // gm at the block's place in the part (as IterateAll writes it).
  template <bool sync = true>
  bool Iterate(bool enPartialSum = false, CallSite site = CallSite::here()) {
    static_assert(sync, "Matmul::Iterate<false> (asynchronous) is not supported yet by aicore-sim");
    if (enPartialSum) core_.unsupported("Matmul::Iterate", "enPartialSum = true", site);
    return core_.iterate(site);
  }
  template <bool sync = true>
  void GetTensorC(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0, bool enSequentialWrite = false,
                  CallSite site = CallSite::here()) {
    static_assert(sync, "Matmul::GetTensorC<false> (asynchronous) is not supported yet by aicore-sim");
    core_.get_tensor_c(gm.GetPhyAddr(), enAtomic, enSequentialWrite, site);
  }
  template <bool sync = true, class U>
  void GetTensorC(const LocalTensor<U>&, uint8_t = 0, bool = false, CallSite = CallSite::here()) {
    static_assert(
        detail::unsupported<U>::value,
        "Matmul::GetTensorC into a LocalTensor (VECIN, CO1) is not supported yet by aicore-sim (GM is)");
  }
  void ClearBias(CallSite site = CallSite::here()) {
    core_.clear_bias(site, "Matmul::ClearBias");
  }
  void DisableBias(CallSite site = CallSite::here()) {
    core_.clear_bias(site, "Matmul::DisableBias");
  }
  void End(CallSite site = CallSite::here()) {
    core_.end(site);
  }

 private:
  aicore::frontend::MatmulCore core_;
};

namespace detail {
inline void regist_matmul(CallSite, TPipe*, GM_ADDR) {}
template <class MM, class Tiling, class... Rest>
void regist_matmul(CallSite site, TPipe* pipe, GM_ADDR workspace, MM& mm, const Tiling* tiling,
                   Rest&&... rest) {
  static_assert(std::is_same<std::remove_cv_t<Tiling>, TCubeTiling>::value ||
                    std::is_same<Tiling, std::nullptr_t>::value,
                "REGIST_MATMUL_OBJ: each Matmul object is followed by the address of its TCubeTiling");
  mm.Init(tiling, pipe, site);
  regist_matmul(site, pipe, workspace, rest...);
}
template <class MM, class... Rest>
void regist_matmul(CallSite site, TPipe* pipe, GM_ADDR workspace, MM& mm, std::nullptr_t, Rest&&... rest) {
  mm.Init(nullptr, pipe, site);
  regist_matmul(site, pipe, workspace, rest...);
}
}  // namespace detail

// The system workspace the Matmul objects would use for messages between the cores. aicore-sim's
// AIC-only Matmul uses none: GetSysWorkSpacePtr is what SetSysWorkspace last set, else a token
// non-null address (the samples check it against nullptr); nothing reads or writes it.
namespace detail {
inline GM_ADDR& sys_workspace() {
  static uint8_t token[32];
  static GM_ADDR p = token;
  return p;
}
}  // namespace detail
inline GM_ADDR GetSysWorkSpacePtr() {
  return detail::sys_workspace();
}
inline void SetSysWorkspace(GM_ADDR workspace) {
  if (workspace) detail::sys_workspace() = workspace;
}

}  // namespace AscendC

// The samples write `using namespace matmul;` alone and then name AscendC's API unqualified
// (GetBlockIdx, CubeFormat, MatmulType): matmul brings AscendC along.
namespace matmul {
using namespace AscendC;
using AscendC::BatchMode;
using AscendC::CFG_MDL;
using AscendC::CFG_NORM;
using AscendC::CubeFormat;
using AscendC::GetMatmulApiTiling;
using AscendC::GetMDLConfig;
using AscendC::GetMMConfig;
using AscendC::GetNormalConfig;
using AscendC::IterateOrder;
using AscendC::LayoutMode;
using AscendC::Matmul;
using AscendC::MatmulApiStaticTiling;
using AscendC::MatmulConfig;
using AscendC::MatmulConfigMode;
using AscendC::MatmulQuantParams;
using AscendC::MatmulShapeParams;
using AscendC::MatmulType;
using AscendC::ScheduleType;
}  // namespace matmul

// The samples name these unqualified, with no using-directive (as CANN declares them).
using AscendC::CFG_MDL;
using AscendC::CFG_NORM;
using AscendC::GetMatmulApiTiling;
using AscendC::GetMDLConfig;
using AscendC::GetMMConfig;
using AscendC::GetNormalConfig;
using AscendC::GetSysWorkSpacePtr;
using AscendC::MatmulApiStaticTiling;
using AscendC::MatmulConfig;
using AscendC::MatmulConfigMode;
using AscendC::MatmulQuantParams;
using AscendC::MatmulShapeParams;
using AscendC::SetSysWorkspace;

// REGIST_MATMUL_OBJ(&pipe, workspace, mm, &tiling[, mm2, &tiling2 ...]): registers each Matmul
// object with its tiling and the kernel's TPipe, at the macro's line.
#define REGIST_MATMUL_OBJ(tpipe, workspace, ...)                                                             \
  ::AscendC::detail::regist_matmul(::aicore::frontend::CallSite::here(__FILE__, __LINE__), tpipe, workspace, \
                                   __VA_ARGS__)
