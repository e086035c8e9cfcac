#include "aicore/sweep/plot.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "command.hpp"

namespace aicore::sweep {

namespace fs = std::filesystem;

namespace {
// Debian's interpreter, where python3-matplotlib is installed, unless told otherwise.
std::string python() {
  if (const char* env = std::getenv("AICORE_PYTHON"); env && *env) return env;
  return access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
}
}  // namespace

std::string tools_dir() {
  if (const char* env = std::getenv("AICORE_TOOLS_DIR"); env && *env) return env;
#ifdef AICORE_TOOLS_DIR
  return AICORE_TOOLS_DIR;
#else
  return "tools";
#endif
}

bool plot_results(const std::string& out_dir, std::ostream& err) {
  const std::string script = (fs::path(tools_dir()) / "plot_sweep.py").string();
  std::error_code ec;
  if (!fs::is_regular_file(script, ec)) {
    err << "aicore-sim sweep: error: --plot: " << script
        << " not found (set AICORE_TOOLS_DIR to the repository's tools/ folder)\n";
    return false;
  }
  std::cout.flush();  // the script's "wrote ..." line comes after our summary
  const std::vector<std::string> argv = {python(), script, (fs::path(out_dir) / "results.csv").string(), "-o",
                                         out_dir};
  const int st = detail::run_inherit(argv);
  if (st == 0) return true;
  err << "aicore-sim sweep: error: --plot: "
      << (st < 0 ? "cannot run " + argv[0] : "plot_sweep.py failed (exit " + std::to_string(st) + ")")
      << "; the results are written\n";
  return false;
}

}  // namespace aicore::sweep
