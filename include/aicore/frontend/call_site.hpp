// Where in the kernel's source an Ascend C call was made. Every API of include/ascendc takes one
// as a last, defaulted parameter, so the compiler fills in the caller's file and line: the
// instructions a call records, and the errors it raises, point at the user's own line.
#pragma once
#include <cstdint>

namespace aicore::frontend {

struct CallSite {
  const char* file = "";
  uint32_t line = 0;
  static constexpr CallSite here(const char* file = __builtin_FILE(), uint32_t line = __builtin_LINE()) {
    return CallSite{file, line};
  }
};

}  // namespace aicore::frontend
