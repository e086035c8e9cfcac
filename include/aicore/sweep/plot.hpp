// `sweep --plot`: tools/plot_sweep.py (python3 + matplotlib) on a study's results.csv.
#pragma once
#include <iosfwd>
#include <string>

namespace aicore::sweep {

// Where plot_sweep.py is: $AICORE_TOOLS_DIR when set, else the source tree's tools/ folder.
std::string tools_dir();

// Runs the plot script on OUT/results.csv, writing OUT/sweep.png; the script reports its own
// errors (e.g. matplotlib missing) on stderr. False, with a message on err, when it fails.
bool plot_results(const std::string& out_dir, std::ostream& err);

}  // namespace aicore::sweep
