#include "harness.hpp"

#include <sys/wait.h>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace harness {

namespace fs = std::filesystem;

TempDir::TempDir() {
  std::string tmpl = (fs::temp_directory_path() / "aicore-test-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
  path_ = tmpl;
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

std::string TempDir::write(const std::string& name, const std::string& text) const {
  std::ofstream(file(name), std::ios::binary) << text;
  return file(name);
}

namespace {
std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}
}  // namespace

namespace {
// `run` without a --config runs on the published figures (tests/published.yaml), not on the
// calibrated presets: these tests check the model's rules and formulas, which must not move when
// the presets are refitted.
std::string with_test_config(const std::string& args) {
#ifdef AICORE_TEST_CONFIG
  if (args.rfind("run ", 0) == 0 && args.find("--config") == std::string::npos)
    return args + " --config " + AICORE_TEST_CONFIG;
#endif
  return args;
}
}  // namespace

Result run(const std::string& raw_args) {
  TempDir io;
  const std::string args = with_test_config(raw_args);
  const std::string cmd = std::string(AICORE_SIM_BIN) + " " + args + " >" + io.file("stdout") + " 2>" +
                          io.file("stderr") + " </dev/null";
  const int raw = std::system(cmd.c_str());
  Result r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  r.out = slurp(io.file("stdout"));
  r.err = slurp(io.file("stderr"));
  return r;
}

Result run_trace(const TempDir& dir, const std::string& trace_text, const std::string& extra) {
  const std::string trace = dir.write("t.trace", trace_text);
  return run("run " + trace + " --out " + dir.file("out") + " " + extra);
}

nlohmann::json stats(const TempDir& dir) {
  return nlohmann::json::parse(slurp(dir.file("out/stats.json")));
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
