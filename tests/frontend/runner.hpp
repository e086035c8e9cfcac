// Runs kernel programs and aicore-sim for the front-end tests (on tests/support): exit status,
// stdout, stderr, and the helpers that read traces and find the lines the misuse kernels mark.
#pragma once
#include <string>
#include <vector>

#include "support.hpp"

namespace frontend_test {

using test_support::Result;
using test_support::run_sim;  // aicore-sim with `args` (shell words)
using test_support::slurp;
using test_support::TempDir;

// KERNELS_DIR/program with `args`, $AICORE_SIM_ARGS = one line per launch option.
Result run_kernel(const std::string& program, const std::string& args,
                  const std::vector<std::string>& options);

// The statements of a trace: comments, blank lines and directives left out.
std::vector<std::string> statements(const std::string& trace_path);
// "FILE:LINE" of each statement of a recorded trace (its trailing comment).
std::vector<std::string> statement_sources(const std::string& trace_path);
// Line number of the line ending with `marker` in a source file (0 if none).
int line_of(const std::string& source, const std::string& marker);

}  // namespace frontend_test
