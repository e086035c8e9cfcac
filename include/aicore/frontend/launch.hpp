// Running a kernel: GM buffers the host allocates (GmAlloc), and launches (ICPU_RUN_KF). A launch
// of N blocks runs the kernel once per block, in block order, each on its own on-chip memories
// with GM shared, so the GM buffers hold the results when it returns. It then simulates the N
// recorded programs together on a chip of N cores, in a child process (the SystemC kernel can be
// elaborated once per process, and a program may launch many kernels), and writes stats.json and
// the outputs asked for to one directory per launch. Options come from $AICORE_SIM_ARGS
// (frontend/launch_options.hpp), which `aicore-sim kernel` sets.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "aicore/frontend/call_site.hpp"

namespace aicore::frontend {

// Host memory standing for GM, zeroed. Each buffer is one GM tensor of the launches that use it.
void* gm_alloc(size_t bytes, CallSite site);
void gm_free(void* p, CallSite site);

enum class KernelMode : uint8_t { Mix, Aic, Aiv, MixAic11 };
void set_kernel_mode(KernelMode m, CallSite site);

// One launch. `args` are the kernel's pointer arguments and `arg_text` their spelling in the
// call (tensor names in traces and reports). Errors end the program: exit status 2 for bad
// options, 3 for a kernel error or a failed simulation.
void launch(const char* kernel, uint32_t blocks, const std::function<void()>& body,
            const std::vector<const void*>& args, const char* arg_text, CallSite site,
            const char* api = "ICPU_RUN_KF");

// Marks the program as an `.asc` one (aclInit or a <<<>>> launch, before the first launch): its
// launches' outputs default to $AICORE_SIM_OUT, else aicore-sim-out beside the executable, with
// timeline.json (launch_options.hpp).
void set_asc_program();
bool asc_program();

// Variadic helper of ICPU_RUN_KF: every argument must be a pointer.
template <class... A>
std::vector<const void*> launch_args(A... a) {
  static_assert((std::is_pointer<A>::value && ...),
                "ICPU_RUN_KF: every kernel argument must be a pointer returned by GmAlloc");
  return {static_cast<const void*>(a)...};
}

}  // namespace aicore::frontend
