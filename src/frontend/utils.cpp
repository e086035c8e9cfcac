// The kernel-side printf and assert of include/ascendc/detail/utils.hpp.
#include <cstdio>
#include <string>

#include "aicore/frontend/runtime.hpp"
#include "ascendc/detail/utils.hpp"

namespace AscendC::detail {

void kernel_print(const std::string& text) {
  // One write per call, so that lines of different blocks never interleave mid-line.
  // Inside a kernel each call names its block; host code that calls printf with AscendC in scope
  // prints as C printf does.
  const std::string line = aicore::frontend::in_kernel()
                               ? "[block " + std::to_string(aicore::frontend::block_idx()) + "] " + text
                               : text;
  std::fwrite(line.data(), 1, line.size(), stdout);
  std::fflush(stdout);
}

void assert_fail(aicore::frontend::CallSite site, const char* expr, const std::string& message) {
  std::string m = std::string("assertion `") + expr + "` failed";
  if (!message.empty()) m += ": " + message;
  while (!m.empty() && m.back() == '\n') m.pop_back();
  aicore::frontend::fail(site, "assert", m);
}

}  // namespace AscendC::detail
