#include "aicore/sweep/plot.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "aicore/common/install.hpp"
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

// As for the presets (config::default_configs_dir): an installed tree's own tools, else the
// source tree's.
std::string tools_dir() {
  if (const char* env = std::getenv("AICORE_TOOLS_DIR"); env && *env) return env;
#ifdef AICORE_TOOLS_DIR
  if (!runs_installed()) return AICORE_TOOLS_DIR;
#endif
  return installed_data_dir("tools");
}

bool run_tool_script(const std::string& script_name, const std::vector<std::string>& args,
                     const std::string& who, std::ostream& err) {
  const std::string script = (fs::path(tools_dir()) / script_name).string();
  std::error_code ec;
  if (!fs::is_regular_file(script, ec)) {
    err << "aicore-sim " << who << ": error: --plot: " << script
        << " not found (set AICORE_TOOLS_DIR to a tools/ folder of aicore-sim)\n";
    return false;
  }
  std::cout.flush();  // the script's "wrote ..." line comes after our summary
  std::vector<std::string> argv = {python(), script};
  argv.insert(argv.end(), args.begin(), args.end());
  const int st = detail::run_inherit(argv);
  if (st == 0) return true;
  err << "aicore-sim " << who << ": error: --plot: "
      << (st < 0 ? "cannot run " + argv[0] : script_name + " failed (exit " + std::to_string(st) + ")")
      << "; the results are written\n";
  return false;
}

bool plot_results(const std::string& out_dir, std::ostream& err) {
  return run_tool_script("plot_sweep.py", {(fs::path(out_dir) / "results.csv").string(), "-o", out_dir},
                         "sweep", err);
}

}  // namespace aicore::sweep
