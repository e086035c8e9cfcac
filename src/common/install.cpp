#include "aicore/common/install.hpp"

#include <filesystem>
#include <system_error>

namespace aicore {

namespace fs = std::filesystem;

namespace {

// Set once at start-up by a library's loader (the Python module's import), read by every lookup.
// No lock: a lock held by one thread when another forks a simulation (session::run_in_child)
// would stay held in the child forever.
std::string& prefix_override() {
  static std::string p;
  return p;
}

}  // namespace

std::string executable_path() {
  std::error_code ec;
  const fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : p.string();
}

std::string install_prefix() {
  if (!prefix_override().empty()) return prefix_override();
  const std::string exe = executable_path();
  if (exe.empty()) return "";
  return fs::path(exe).parent_path().parent_path().string();
}

void set_install_prefix(const std::string& prefix) {
  prefix_override() = prefix;
}

std::string installed_data_dir(const std::string& what) {
  const std::string p = install_prefix();
  if (p.empty()) return "";
  return (fs::path(p) / kInstallDataDir / what).string();
}

bool runs_installed() {
  const std::string p = install_prefix();
  std::error_code ec;
  return !p.empty() && fs::is_directory(fs::path(p) / kInstallDataDir, ec);
}

}  // namespace aicore
