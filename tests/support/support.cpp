#include "support.hpp"

#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace test_support {

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

Result run_shell(const std::string& command) {
  TempDir io("aicore-test");
  const std::string full = command + " >" + io.file("stdout") + " 2>" + io.file("stderr") + " </dev/null";
  const int raw = std::system(full.c_str());
  Result r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  r.out = slurp(io.file("stdout"));
  r.err = slurp(io.file("stderr"));
  return r;
}

Result run_sim(const std::string& args) {
  return run_shell(std::string(AICORE_SIM_BIN) + " " + args);
}

}  // namespace test_support
