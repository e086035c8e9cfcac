// Runs kernel programs and aicore-sim for the front-end tests: exit status, stdout, stderr, and
// the helpers that read traces and find the lines the misuse kernels mark.
#pragma once
#include <string>
#include <vector>

namespace frontend_test {

struct Result {
  int status = -1;
  std::string out, err;
};

// A fresh directory under $TMPDIR, removed at scope exit.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string file(const std::string& name) const { return path_ + "/" + name; }
  std::string write(const std::string& name, const std::string& text) const;

 private:
  std::string path_;
};

// KERNELS_DIR/program with `args`, $AICORE_SIM_ARGS = one line per launch option.
Result run_kernel(const std::string& program, const std::string& args,
                  const std::vector<std::string>& options);
// aicore-sim with `args` (shell words).
Result run_sim(const std::string& args);

std::string slurp(const std::string& path);
// The statements of a trace: comments, blank lines and directives left out.
std::vector<std::string> statements(const std::string& trace_path);
// "FILE:LINE" of each statement of a recorded trace (its trailing comment).
std::vector<std::string> statement_sources(const std::string& trace_path);
// Line number of the line ending with `marker` in a source file (0 if none).
int line_of(const std::string& source, const std::string& marker);

}  // namespace frontend_test
