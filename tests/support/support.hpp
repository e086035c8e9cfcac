// What every end-to-end test needs: run a command as a subprocess and capture its exit status,
// stdout and stderr; temporary folders (aicore::TempDir); a file's bytes.
#pragma once
#include <string>

#include "aicore/common/temp_dir.hpp"

namespace test_support {

struct Result {
  int status = -1;  // the exit status, or 128 + the signal that ended it
  std::string out, err;
};

using aicore::TempDir;

// `command` run by /bin/sh with stdin from /dev/null (the caller shell-quotes what needs it).
Result run_shell(const std::string& command);
// The aicore-sim binary of this build with `args` (shell words), as given.
Result run_sim(const std::string& args);

std::string slurp(const std::string& path);

}  // namespace test_support
