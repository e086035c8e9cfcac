// The runtime behind the Matmul API's Matmul object (ascendc/lib/matmul_intf.h, docs/ascendc.md
// "Matmul API"). It holds what the kernel set (tiling, tensors, tails, org shape) and, at
// IterateAll, builds the generator's plan of the best-practice matmul schedule from it
// (aicore/gen/matmul.hpp: one schedule for `aicore-sim gen` and the Matmul API), emits it, maps its
// GM operands onto the kernel's GlobalTensors and issues every instruction at the IterateAll line
// (origin Library). Misuse is a KernelError at the user's line.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "aicore/frontend/call_site.hpp"
#include "aicore/isa/instructions.hpp"
#include "ascendc/kernel_tiling/kernel_tiling.h"

namespace aicore::frontend {

class PipeCore;

// What the Matmul template's arguments fix (checked at compile time by the header).
struct MatmulKind {
  isa::DType a = isa::DType::Half, b = isa::DType::Half, c = isa::DType::Float;
  isa::DType bias = isa::DType::Float;  // BIAS_TYPE's
  bool mdl = false;                     // CFG_MDL (doMultiDataLoad); else CFG_NORM
  bool unit_flag = true;                // MatmulConfig::enUnitFlag
  int iterate_order = 2;  // MatmulConfig::iterateOrder (IterateOrder: 0 ORDER_M, 1 ORDER_N, 2 UNDEF)
};

class MatmulCore {
 public:
  explicit MatmulCore(MatmulKind kind) : kind_(kind) {}

  // REGIST_MATMUL_OBJ / Init: the tiling (copied) and the TPipe (null: the kernel's current one).
  // A null tiling registers the object without one (Init gives it later).
  void init(const AscendC::tiling::TCubeTiling* tiling, PipeCore* pipe, CallSite site, const char* api);
  // A constant tiling (Matmul<..., MatmulApiStaticTiling>): with singleCoreM/N/K set it is the
  // object's tiling (REGIST_MATMUL_OBJ's may be null); otherwise the registered tiling is used and
  // its base must be the constant's.
  void set_constant_tiling(const AscendC::tiling::TCubeTiling& constant);
  void set_a(const void* gm, bool transpose, CallSite site);
  void set_b(const void* gm, bool transpose, CallSite site);
  // SetBias: the bias (GM, N elements of BIAS_TYPE) for the next IterateAll / Iterate loop; the
  // tiling must have isBias = 1. ClearBias / DisableBias: no bias from then on.
  void set_bias(const void* gm, CallSite site);
  void clear_bias(CallSite site, const char* api);
  void set_tail(int32_t m, int32_t n, int32_t k, CallSite site);
  void set_org_shape(int32_t m, int32_t n, int32_t ka, int32_t kb, CallSite site);
  void set_single_shape(int32_t m, int32_t n, int32_t k, CallSite site);
  void iterate_all(const void* c, uint8_t en_atomic, CallSite site);
  // Iterate / GetTensorC: the same program as IterateAll, cut per base block of C. Iterate issues
  // the block's copies, loads and Mmads (the first call also the pre-sets), GetTensorC its Fixpipe
  // into c at the block's place; the Iterate after the last block issues the drains and returns
  // false (End does, if the loop stopped there).
  bool iterate(CallSite site);
  void get_tensor_c(const void* c, uint8_t en_atomic, bool sequential, CallSite site);
  [[noreturn]] void unsupported(const char* api, const std::string& what, CallSite site);
  void end(CallSite site);

 private:
  void need_object(CallSite site, const char* api) const;
  // The checked program of the current settings, GM tensors 0/1 mapped to A and B (C: tensor 2).
  std::vector<isa::Op> program(CallSite site, const char* api);
  void issue_range(size_t from, size_t to, const isa::Addr* c, CallSite site, const char* api);

  MatmulKind kind_;
  // The tiling of this call: the constant one when it is full, else the registered one.
  const AscendC::tiling::TCubeTiling& tiling(CallSite site, const char* api) const;
  bool full_constant() const;

  AscendC::tiling::TCubeTiling tiling_{}, constant_{};
  bool registered_ = false, has_tiling_ = false, has_constant_ = false, ended_ = false;
  PipeCore* pipe_ = nullptr;
  isa::Addr a_{}, b_{};
  isa::Addr bias_{};
  bool has_a_ = false, has_b_ = false, b_trans_ = false, has_bias_ = false;
  // -1: from the tiling.
  int32_t tail_m_ = -1, tail_n_ = -1, tail_k_ = -1;
  int32_t org_m_ = -1, org_n_ = -1, org_ka_ = -1, org_kb_ = -1;
  int32_t single_m_ = -1, single_n_ = -1, single_k_ = -1;
  // Iterate's state: the program, where each block's Fixpipe run starts and ends, what is issued.
  std::vector<isa::Op> prog_;
  std::vector<std::pair<size_t, size_t>> outs_;
  size_t next_ = 0, block_ = 0;
  bool iterating_ = false, awaiting_c_ = false;
};

}  // namespace aicore::frontend
