// The host side of CANN's CPU-debug harness, so that an existing CPU-debug main() compiles as it
// is: GmAlloc / GmFree, SetKernelMode and ICPU_RUN_KF. A launch runs every block on the simulated
// core and then simulates the blocks together for timing (aicore/frontend/launch.hpp).
#pragma once
#include <cstddef>
#include <cstdint>

#include "aicore/frontend/asc_launch.hpp"
#include "aicore/frontend/launch.hpp"

enum class KernelMode : uint8_t { MIX_MODE = 0, AIC_MODE, AIV_MODE, MIX_AIC_1_1 };

namespace AscendC {

inline void* GmAlloc(size_t size, aicore::frontend::CallSite site = aicore::frontend::CallSite::here()) {
  return aicore::frontend::gm_alloc(size, site);
}
inline void GmFree(void* ptr, aicore::frontend::CallSite site = aicore::frontend::CallSite::here()) {
  aicore::frontend::gm_free(ptr, site);
}
// AIC_MODE (a Cube-only kernel) is what runs here; MIX_MODE runs the AIC part; AIV modes are
// refused at the launch.
inline void SetKernelMode(KernelMode mode,
                          aicore::frontend::CallSite site = aicore::frontend::CallSite::here()) {
  aicore::frontend::set_kernel_mode(static_cast<aicore::frontend::KernelMode>(mode), site);
}

}  // namespace AscendC

// ICPU_RUN_KF(kernel, blockDim, args...): runs `kernel(args...)` on blockDim blocks.
#define ICPU_RUN_KF(func, blockdim, ...)                                    \
  ::aicore::frontend::launch(                                               \
      #func, static_cast<uint32_t>(blockdim), [&]() { func(__VA_ARGS__); }, \
      ::aicore::frontend::launch_args(__VA_ARGS__), #__VA_ARGS__,           \
      ::aicore::frontend::CallSite::here(__FILE__, __LINE__))

#define ICPU_SET_TILING_KEY(key) \
  static_assert(false && (key), "ICPU_SET_TILING_KEY is not supported yet by aicore-sim")
