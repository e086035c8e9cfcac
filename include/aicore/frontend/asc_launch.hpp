// The `<<<blockDim, l2ctrl, stream>>>` launch of `.asc` programs, after the tool that compiles
// them has translated it (src/cli/asc_rewrite.hpp) into
//   ::aicore::frontend::asc_kernel(kernel, "kernel", "args", __FILE__, __LINE__)
//       .launch(blockDim, l2ctrl, stream)(args)
// A launch is the front end's (launch.hpp): blockDim blocks, checked against chip.cores, each run
// in turn, then simulated together. The stream must be null or one aclrtCreateStream made; l2ctrl
// is reserved (any value). The arguments are the kernel's: pointers into aclrtMalloc (or GmAlloc)
// buffers become the launch's GM tensors, named as the call spells them; other arguments (a
// scalar, a tiling struct) are passed by value.
#pragma once
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "aicore/frontend/installed_prefix.hpp"
#include "aicore/frontend/launch.hpp"

namespace aicore::frontend {

// Checks the stream (null or live) and the block count, then launches (launch.hpp); `kernel` and
// `arg_text` are the call's spellings.
void asc_launch(const char* kernel, uint64_t blocks, const void* stream, const std::function<void()>& body,
                const std::vector<const void*>& args, const char* arg_text, CallSite site);

// A launch through a null kernel pointer: an error at the launch's line (exit status 3).
[[noreturn]] void asc_null_kernel(const char* kernel, CallSite site);

template <class T>
const void* asc_pointer(const T& a) {
  if constexpr (std::is_pointer<T>::value)
    return static_cast<const void*>(a);
  else
    return nullptr;
}

template <class F>
struct AscLaunch {
  F& kernel;
  const char* name;
  const char* arg_text;
  CallSite site;
  uint64_t blocks;
  const void* stream;
  template <class... A>
  void operator()(A&&... a) const {
    asc_launch(
        name, blocks, stream, [&]() { kernel(a...); }, std::vector<const void*>{asc_pointer(a)...}, arg_text,
        site);
  }
};

template <class F>
struct AscKernel {
  F& kernel;
  const char* name;
  const char* arg_text;
  CallSite site;
  template <class B, class L, class S = std::nullptr_t>
  AscLaunch<F> launch(B blockDim, L /*l2ctrl, reserved*/, S stream = nullptr) const {
    static_assert(std::is_integral<B>::value || std::is_enum<B>::value,
                  "<<<blockDim, l2ctrl, stream>>>: blockDim must be an integer (the number of blocks)");
    static_assert(std::is_pointer<S>::value || std::is_same<S, std::nullptr_t>::value,
                  "<<<blockDim, l2ctrl, stream>>>: stream must be an aclrtStream (or nullptr)");
    if constexpr (std::is_signed<B>::value)
      if (blockDim < 0) return AscLaunch<F>{kernel, name, arg_text, site, 0, stream};
    return AscLaunch<F>{kernel, name, arg_text, site, static_cast<uint64_t>(blockDim), stream};
  }
};

// `kernel` names a kernel function, or a pointer to one (`constexpr auto k = ...; k<<<...>>>(...)`,
// as a sample picks its kernel at compile time).
template <class F>
auto asc_kernel(F& kernel, const char* name, const char* arg_text, const char* file, uint32_t line) {
  using Fn = std::remove_pointer_t<std::remove_cv_t<F>>;
  static_assert(std::is_function<Fn>::value,
                "<<<>>>: the launched name must be a kernel function or a pointer to one");
  const CallSite site{file, line};
  if constexpr (std::is_function<F>::value) {
    return AscKernel<Fn>{kernel, name, arg_text, site};
  } else {
    if (kernel == nullptr) asc_null_kernel(name, site);
    return AscKernel<Fn>{*kernel, name, arg_text, site};
  }
}

}  // namespace aicore::frontend
