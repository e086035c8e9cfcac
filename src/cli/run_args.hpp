// The parsed command line of `aicore-sim run`, shared by the pieces of the run command.
#pragma once
#include <string>
#include <vector>

namespace aicore::cli {

struct RunArgs {
  std::string trace, config = "atlas-a2", out_dir = "out";
  std::vector<std::string> sets;
  std::string window;
  bool timing_only = false, instr_log = false, timeline = false, vcd = false, quiet = false, help = false;
  int verbosity = 0;
  std::string check = "error";  // --check: error, warn or none (check_option.hpp)
};

}  // namespace aicore::cli
