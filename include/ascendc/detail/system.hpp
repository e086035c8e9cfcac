// System variables of a Cube block, InitSocState, and the kernel-type hint.
#pragma once
#include <cstdint>

#include "aicore/frontend/call_site.hpp"
#include "aicore/frontend/runtime.hpp"
#include "ascendc/detail/compiler_env.hpp"

namespace AscendC {

inline int64_t GetBlockIdx() {
  return aicore::frontend::block_idx();
}
inline int64_t GetBlockNum() {
  return aicore::frontend::block_num();
}
inline int64_t GetSubBlockIdx() {
  return 0;  // an AIC has no sub-blocks
}
inline int64_t GetTaskRation() {
  return 1;  // one AIC per task
}
inline int64_t GetTaskRatio() {
  return 1;
}
// Resets the core's special registers (atomic mode, masks, padding): none of them is modelled, so
// there is no instruction to record.
inline void InitSocState() {}

namespace detail {
void kernel_task_type(KernelMetaType t, aicore::frontend::CallSite site);
}

}  // namespace AscendC

#define KERNEL_TASK_TYPE_DEFAULT(type) \
  ::AscendC::detail::kernel_task_type(type, ::aicore::frontend::CallSite::here(__FILE__, __LINE__))
