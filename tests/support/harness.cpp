#include "harness.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace harness {

namespace {
// `run` without a --config runs on the published figures (tests/published.yaml), not on the
// calibrated presets: these tests check the model's rules and formulas, which must not move when
// the presets are refitted.
std::string with_test_config(const std::string& args) {
  if (args.rfind("run ", 0) == 0 && args.find("--config") == std::string::npos)
    return args + " --config " + AICORE_TEST_CONFIG;
  return args;
}
}  // namespace

Result run(const std::string& args) {
  return test_support::run_sim(with_test_config(args));
}

Result run_trace(const TempDir& dir, const std::string& trace_text, const std::string& extra) {
  const std::string trace = dir.write("t.trace", trace_text);
  return run("run " + trace + " --out " + dir.file("out") + " " + extra);
}

nlohmann::json stats(const TempDir& dir) {
  return nlohmann::json::parse(test_support::slurp(dir.file("out/stats.json")));
}

std::vector<std::vector<std::string>> csv_rows(const std::string& path, std::vector<std::string>* header) {
  std::ifstream f(path);
  std::string line;
  std::vector<std::vector<std::string>> rows;
  bool first = true;
  while (std::getline(f, line)) {
    std::vector<std::string> cells;
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, ',')) cells.push_back(cell);
    if (line.back() == ',') cells.emplace_back();
    if (first && header) *header = cells;
    if (!first) rows.push_back(cells);
    first = false;
  }
  return rows;
}

uint64_t csv_u64(const std::vector<std::string>& header, const std::vector<std::string>& row,
                 const std::string& col) {
  for (size_t i = 0; i < header.size(); ++i)
    if (header[i] == col) return std::stoull(row.at(i));
  throw std::runtime_error("no column " + col);
}

}  // namespace harness
