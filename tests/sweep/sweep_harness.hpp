// Helpers for the sweep end-to-end tests: study files in a temporary folder with the seed trace
// beside them, `aicore-sim sweep` runs, and results.csv read with real CSV quoting rules.
#pragma once
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness.hpp"

namespace sweep_test {

using Row = std::map<std::string, std::string>;

// A temporary folder for studies holding the shipped seed case (seed_sparse_16x64x16.trace and its
// data files) and, under tiled/, the tiled 512 x 1024 x 512 case.
class StudyDir {
 public:
  StudyDir();
  const std::string& path() const { return dir_.path(); }
  std::string file(const std::string& name) const { return dir_.file(name); }
  std::string write(const std::string& name, const std::string& text) const { return dir_.write(name, text); }
  // `aicore-sim sweep NAME --out OUT ARGS` run in this folder.
  harness::Result sweep(const std::string& study, const std::string& args = "",
                        const std::string& out = "out") const;

 private:
  harness::TempDir dir_;
};

// aicore-sim ARGS with ENV ("NAME=value ...") set for it.
harness::Result run_env(const std::string& env, const std::string& args);

// aicore-sim ARGS started in the background (stdout/stderr to the given files); returns its pid.
int spawn(const std::vector<std::string>& args, const std::string& out_file, const std::string& err_file);
// Waits for it; the exit status, or 128 + the signal that ended it.
int wait_exit(int pid);

std::vector<Row> read_csv(const std::string& path, std::vector<std::string>* header = nullptr);
nlohmann::json read_json(const std::string& path);
using test_support::slurp;
// Number of points/ID/point.json files under OUT.
size_t record_count(const std::string& out_dir);

}  // namespace sweep_test
