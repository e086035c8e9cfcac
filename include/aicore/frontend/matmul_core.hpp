// The runtime behind the Matmul API's Matmul object (ascendc/lib/matmul_intf.h, docs/ascendc.md
// "Matmul API"). It holds what the kernel set (tiling, tensors, tails, org shape) and, at
// IterateAll, builds the generator's plan of the best-practice matmul schedule from it
// (aicore/gen/matmul.hpp: one schedule for `aicore-sim gen` and the Matmul API), emits it, maps its
// GM operands onto the kernel's GlobalTensors and issues every instruction at the IterateAll line
// (origin Library). Misuse is a KernelError at the user's line.
#pragma once
#include <cstdint>
#include <string>

#include "aicore/frontend/call_site.hpp"
#include "aicore/isa/types.hpp"
#include "ascendc/kernel_tiling/kernel_tiling.h"

namespace aicore::frontend {

class PipeCore;

// What the Matmul template's arguments fix (checked at compile time by the header).
struct MatmulKind {
  isa::DType a = isa::DType::Half, b = isa::DType::Half, c = isa::DType::Float;
  bool mdl = false;       // CFG_MDL (doMultiDataLoad); else CFG_NORM
  bool unit_flag = true;  // MatmulConfig::enUnitFlag
  int iterate_order = 2;  // MatmulConfig::iterateOrder (IterateOrder: 0 ORDER_M, 1 ORDER_N, 2 UNDEF)
};

class MatmulCore {
 public:
  explicit MatmulCore(MatmulKind kind) : kind_(kind) {}

  // REGIST_MATMUL_OBJ / Init: the tiling (copied) and the TPipe (null: the kernel's current one).
  // A null tiling registers the object without one (Init gives it later).
  void init(const AscendC::tiling::TCubeTiling* tiling, PipeCore* pipe, CallSite site, const char* api);
  void set_a(const void* gm, bool transpose, CallSite site);
  void set_b(const void* gm, bool transpose, CallSite site);
  [[noreturn]] void set_bias(CallSite site);
  void set_tail(int32_t m, int32_t n, int32_t k, CallSite site);
  void set_org_shape(int32_t m, int32_t n, int32_t ka, int32_t kb, CallSite site);
  void set_single_shape(int32_t m, int32_t n, int32_t k, CallSite site);
  void iterate_all(const void* c, uint8_t en_atomic, CallSite site);
  [[noreturn]] void unsupported(const char* api, const std::string& what, CallSite site);
  void end(CallSite site);

 private:
  void need_object(CallSite site, const char* api) const;

  MatmulKind kind_;
  AscendC::tiling::TCubeTiling tiling_{};
  bool registered_ = false, has_tiling_ = false, ended_ = false;
  PipeCore* pipe_ = nullptr;
  isa::Addr a_{}, b_{};
  bool has_a_ = false, has_b_ = false, b_trans_ = false;
  // -1: from the tiling.
  int32_t tail_m_ = -1, tail_n_ = -1, tail_k_ = -1;
  int32_t org_m_ = -1, org_n_ = -1, org_ka_ = -1, org_kb_ = -1;
  int32_t single_m_ = -1, single_n_ = -1, single_k_ = -1;
};

}  // namespace aicore::frontend
