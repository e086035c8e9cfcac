#include "kernel_build.hpp"

#include <cstring>
#include <iterator>

#include "aicore/common/install.hpp"

namespace aicore::cli {

namespace {
#include "kernel_build_config.inc"

// The installed lines name the prefix "@PREFIX@" (src/cli/CMakeLists.txt): this process's prefix.
template <size_t B, size_t I>
std::vector<std::string> pick(const char* const (&build)[B], const char* const (&installed)[I]) {
  if (!runs_installed()) return {std::begin(build), std::end(build)};
  const std::string prefix = install_prefix();
  std::vector<std::string> out;
  for (std::string s : installed) {
    for (size_t at = s.find("@PREFIX@"); at != std::string::npos; at = s.find("@PREFIX@", at + prefix.size()))
      s.replace(at, std::strlen("@PREFIX@"), prefix);
    out.push_back(s);
  }
  return out;
}
}  // namespace

std::string kernel_compiler() {
  return kKernelCompiler;
}
std::vector<std::string> kernel_compile_flags() {
  return pick(kKernelFlags, kKernelFlagsInstalled);
}
std::vector<std::string> kernel_link_flags() {
  return pick(kKernelLink, kKernelLinkInstalled);
}

std::vector<std::string> kernel_compile_command(const std::string& source, const std::string& output,
                                                const std::vector<std::string>& user_flags) {
  std::vector<std::string> argv{kKernelCompiler, "-O2"};
  const std::vector<std::string> flags = pick(kKernelFlags, kKernelFlagsInstalled);
  argv.insert(argv.end(), flags.begin(), flags.end());
  argv.insert(argv.end(), user_flags.begin(), user_flags.end());
  argv.push_back(source);
  argv.push_back("-o");
  argv.push_back(output);
  const std::vector<std::string> link = pick(kKernelLink, kKernelLinkInstalled);
  argv.insert(argv.end(), link.begin(), link.end());
  return argv;
}

}  // namespace aicore::cli
