#include "runner.hpp"

#include <cstdlib>
#include <sstream>

namespace frontend_test {

Result run_kernel(const std::string& program, const std::string& args,
                  const std::vector<std::string>& options) {
  std::string text;
  for (const std::string& o : options) text += o + "\n";
  setenv("AICORE_SIM_ARGS", text.c_str(), 1);
  Result r = test_support::run_shell(std::string(KERNELS_DIR) + "/" + program + " " + args);
  unsetenv("AICORE_SIM_ARGS");
  return r;
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
