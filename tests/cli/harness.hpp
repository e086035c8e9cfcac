// Runs the aicore-sim binary and captures its exit status, stdout and stderr.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace harness {

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
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }
  // Writes `text` to name and returns its path.
  std::string write(const std::string& name, const std::string& text) const;

 private:
  std::string path_;
};

// `args` are shell-quoted by the caller where needed. A `run` without --config gets
// --config tests/published.yaml (the published figures, calibration keys off).
Result run(const std::string& args);
// Simulate `trace_text` (written to dir/t.trace), outputs in dir/out.
Result run_trace(const TempDir& dir, const std::string& trace_text, const std::string& extra = "");
nlohmann::json stats(const TempDir& dir);

// instr.csv rows as column-name -> value maps.
std::vector<std::vector<std::string>> csv_rows(const std::string& path, std::vector<std::string>* header);
uint64_t csv_u64(const std::vector<std::string>& header, const std::vector<std::string>& row,
                 const std::string& col);

}  // namespace harness
