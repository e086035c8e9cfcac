#include "runner.hpp"

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace frontend_test {

namespace fs = std::filesystem;

TempDir::TempDir() {
  std::string tmpl = (fs::temp_directory_path() / "aicore-frontend-XXXXXX").string();
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

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

namespace {

Result run_command(const std::string& cmd) {
  TempDir io;
  const std::string full = cmd + " >" + io.file("stdout") + " 2>" + io.file("stderr") + " </dev/null";
  const int raw = std::system(full.c_str());
  Result r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  r.out = slurp(io.file("stdout"));
  r.err = slurp(io.file("stderr"));
  return r;
}

}  // namespace

Result run_kernel(const std::string& program, const std::string& args,
                  const std::vector<std::string>& options) {
  std::string text;
  for (const std::string& o : options) text += o + "\n";
  setenv("AICORE_SIM_ARGS", text.c_str(), 1);
  Result r = run_command(std::string(KERNELS_DIR) + "/" + program + " " + args);
  unsetenv("AICORE_SIM_ARGS");
  return r;
}

Result run_sim(const std::string& args) {
  return run_command(std::string(AICORE_SIM_BIN) + " " + args);
}

std::vector<std::string> statements(const std::string& trace_path) {
  std::vector<std::string> out;
  std::istringstream in(slurp(trace_path));
  for (std::string line; std::getline(in, line);) {
    line = line.substr(0, line.find('#'));
    while (!line.empty() && line.back() == ' ') line.pop_back();
    if (!line.empty() && line[0] != '.') out.push_back(line);
  }
  return out;
}

std::vector<std::string> statement_sources(const std::string& trace_path) {
  std::vector<std::string> out;
  std::istringstream in(slurp(trace_path));
  for (std::string line; std::getline(in, line);) {
    const size_t hash = line.find("  # ");
    if (line.empty() || line[0] == '#' || line[0] == '.' || hash == std::string::npos) continue;
    out.push_back(line.substr(hash + 4));
  }
  return out;
}

int line_of(const std::string& source, const std::string& marker) {
  std::istringstream in(slurp(source));
  int n = 0;
  for (std::string line; std::getline(in, line);) {
    ++n;
    if (line.size() >= marker.size() && line.compare(line.size() - marker.size(), marker.size(), marker) == 0)
      return n;
  }
  return 0;
}

}  // namespace frontend_test
