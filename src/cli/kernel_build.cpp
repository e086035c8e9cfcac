#include "kernel_build.hpp"

namespace aicore::cli {

namespace {
#include "kernel_build_config.inc"
}  // namespace

std::vector<std::string> kernel_compile_command(const std::string& source, const std::string& output,
                                                const std::vector<std::string>& user_flags) {
  std::vector<std::string> argv{kKernelCompiler, "-O2"};
  argv.insert(argv.end(), std::begin(kKernelFlags), std::end(kKernelFlags));
  argv.insert(argv.end(), user_flags.begin(), user_flags.end());
  argv.push_back(source);
  argv.push_back("-o");
  argv.push_back(output);
  argv.insert(argv.end(), std::begin(kKernelLink), std::end(kKernelLink));
  return argv;
}

}  // namespace aicore::cli
