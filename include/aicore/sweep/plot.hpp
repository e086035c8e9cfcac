// `sweep --plot`: tools/plot_sweep.py (python3 + matplotlib) on a study's results.csv.
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

namespace aicore::sweep {

// Where plot_sweep.py is: $AICORE_TOOLS_DIR when set, else the source tree's tools/ folder.
std::string tools_dir();

// Runs the plot script on OUT/results.csv, writing OUT/sweep.png; the script reports its own
// errors (e.g. matplotlib missing) on stderr. False, with a message on err, when it fails.
bool plot_results(const std::string& out_dir, std::ostream& err);

// Runs tools_dir()/SCRIPT with Debian's python3 and ARGS, its output going to this process's
// stdout/stderr. False, with "aicore-sim WHO: error: ..." on err, when it cannot run or fails.
bool run_tool_script(const std::string& script, const std::vector<std::string>& args, const std::string& who,
                     std::ostream& err);

}  // namespace aicore::sweep
