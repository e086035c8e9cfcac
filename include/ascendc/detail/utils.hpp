// Small utilities of the Ascend C API that kernels use around the intrinsics: the type trait
// IsSameType (and Std::is_same), the block-size constants, printf / PRINTF from a kernel, and
// assert in a kernel (docs/ascendc.md, "What is supported").
#pragma once
#include <cassert>
#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>
#include <utility>

#include "aicore/frontend/call_site.hpp"
#include "aicore/frontend/runtime.hpp"

namespace AscendC {

// IsSameType<T, U>::value: true when T and U are the same type (std::is_same under its Ascend C
// names).
template <typename T, typename U>
struct IsSameType {
  static constexpr bool value = false;
};
template <typename T>
struct IsSameType<T, T> {
  static constexpr bool value = true;
};
namespace Std {
template <typename Tp, typename Up>
struct is_same : IsSameType<Tp, Up> {};
}  // namespace Std

// The block sizes of the Cube data layout, with the types and values of the library's kernel-side
// constants (Huawei's public asc-devkit headers): a data block (the 32-byte unit of DataCopy and
// of a fractal row), a repeat of 8 blocks, the 16 rows / columns of a half fractal, and the 256
// cells of a 16 x 16 fractal.
constexpr uint16_t ONE_BLK_SIZE = 32;
constexpr int32_t ONE_REPEAT_BYTE_SIZE = 256;
constexpr int32_t BLOCK_CUBE = 16;
constexpr int32_t CUBE_MAX_SIZE = 256;

namespace detail {
// What a printf argument becomes on its way through the C variadic call: half and bfloat16_t
// (soft floats here) as float, as %f expects; everything else unchanged.
template <typename A>
auto printf_arg(A&& a) {
  using D = std::decay_t<A>;
  if constexpr (std::is_arithmetic_v<D> || std::is_pointer_v<D> || std::is_enum_v<D> ||
                std::is_null_pointer_v<D>)
    return a;
  else
    return static_cast<double>(static_cast<float>(a));
}
void kernel_print(const std::string& text);
[[noreturn]] void assert_fail(aicore::frontend::CallSite site, const char* expr, const std::string& message);

template <typename... Args>
std::string format(const char* fmt, Args&&... args);
template <typename... Args>
void print(const char* fmt, Args&&... args) {
  kernel_print(format(fmt, std::forward<Args>(args)...));
}
template <typename... Args>
std::string format(const char* fmt, Args&&... args) {
  if constexpr (sizeof...(Args) == 0) {
    return fmt;
  } else {
    const int n = std::snprintf(nullptr, 0, fmt, printf_arg(std::forward<Args>(args))...);
    std::string text(n > 0 ? static_cast<size_t>(n) + 1 : 1, '\0');
    if (n > 0) std::snprintf(text.data(), text.size(), fmt, printf_arg(std::forward<Args>(args))...);
    text.resize(n > 0 ? static_cast<size_t>(n) : 0);
    return text;
  }
}
[[noreturn]] inline void assert_failed(aicore::frontend::CallSite site, const char* expr) {
  assert_fail(site, expr, "");
}
template <typename... Args>
[[noreturn]] void assert_failed(aicore::frontend::CallSite site, const char* expr, const char* fmt,
                                Args&&... args) {
  assert_fail(site, expr, format(fmt, std::forward<Args>(args)...));
}
}  // namespace detail

// printf / PRINTF from a kernel: formatted as C printf does, written to stdout at once, each call
// prefixed with the block that made it ("[block 3] ..."). -DASCENDC_DUMP=0 turns PRINTF off (and,
// as the documentation says of CPU debug, not printf).
template <typename... Args>
void printf(const char* fmt, Args&&... args) {
  detail::print(fmt, std::forward<Args>(args)...);
}
template <typename... Args>
void PRINTF(const char* fmt, Args&&... args) {
#if defined(ASCENDC_DUMP) && ASCENDC_DUMP == 0
  (void)fmt;
  ((void)args, ...);
#else
  detail::print(fmt, std::forward<Args>(args)...);
#endif
}

}  // namespace AscendC

// assert in a kernel, as the Ascend C assert (and ascendc_assert) is: assert(expr) and
// assert(expr, fmt, args...); a failed assertion is an error at the assert's file:line, with the
// formatted message, that stops the launch (exit status 3), not an abort of the process. It is
// the API's switch -DASCENDC_DUMP=0 that turns it off, not NDEBUG (a Release build keeps it).
// A kernel that includes <cassert> again after kernel_operator.h gets the C assert back.
#undef assert
#if defined(ASCENDC_DUMP) && ASCENDC_DUMP == 0
#define assert(expr, ...) ((void)0)
#define ascendc_assert(expr, ...) ((void)0)
#else
#define assert(expr, ...)                                                                                \
  (static_cast<bool>(expr)                                                                               \
       ? (void)0                                                                                         \
       : ::AscendC::detail::assert_failed(::aicore::frontend::CallSite::here(__FILE__, __LINE__), #expr, \
                                          ##__VA_ARGS__))
#define ascendc_assert(expr, ...) assert(expr, ##__VA_ARGS__)
#endif
