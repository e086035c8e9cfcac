// Internal: running an outside command (sbatch, squeue, scancel, python3) and capturing what it
// printed.
#pragma once
#include <string>
#include <vector>

namespace aicore::sweep::detail {

struct Captured {
  bool started = false;  // false: the program was not found or could not be run
  int status = -1;       // exit status; 128 + signal when killed
  std::string out, err;
};

// Runs argv (argv[0] looked up in PATH) with stdin from /dev/null; stdout and stderr are kept in
// files under scratch_dir while it runs (outputs of any size, no pipe deadlock).
Captured capture(const std::vector<std::string>& argv, const std::string& scratch_dir);

// Like capture() but stdout and stderr stay this process's own (for the plot script).
int run_inherit(const std::vector<std::string>& argv);

// The full path of `program` in PATH, or "" when it is not there.
std::string find_in_path(const std::string& program);

}  // namespace aicore::sweep::detail
