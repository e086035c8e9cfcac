#include "command.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

extern char** environ;

namespace aicore::sweep::detail {

namespace fs = std::filesystem;

namespace {

std::string slurp(const std::string& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// posix_spawnp + waitpid; `out`/`err` empty = inherit.
int spawn_wait(const std::vector<std::string>& argv, const std::string& out, const std::string& err,
               bool* started) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  if (!out.empty()) posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (!err.empty()) posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  std::vector<std::string> copy = argv;
  std::vector<char*> args;
  for (auto& a : copy) args.push_back(a.data());
  args.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, args[0], &fa, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  *started = rc == 0;
  if (rc != 0) return -1;
  int st = 0;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(st)) return WEXITSTATUS(st);
  return WIFSIGNALED(st) ? 128 + WTERMSIG(st) : -1;
}

}  // namespace

Captured capture(const std::vector<std::string>& argv, const std::string& scratch_dir) {
  Captured c;
  const std::string base = (fs::path(scratch_dir) / (".cmd" + std::to_string(getpid()))).string();
  c.status = spawn_wait(argv, base + ".out", base + ".err", &c.started);
  if (c.started) {
    c.out = slurp(base + ".out");
    c.err = slurp(base + ".err");
  }
  std::error_code ec;
  fs::remove(base + ".out", ec);
  fs::remove(base + ".err", ec);
  return c;
}

int run_inherit(const std::vector<std::string>& argv) {
  bool started = false;
  const int st = spawn_wait(argv, "", "", &started);
  return started ? st : -1;
}

std::string find_in_path(const std::string& program) {
  if (program.find('/') != std::string::npos) return access(program.c_str(), X_OK) == 0 ? program : "";
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "/usr/bin:/bin");
  for (std::string d; std::getline(dirs, d, ':');) {
    const fs::path p = fs::path(d.empty() ? "." : d) / program;
    if (access(p.c_str(), X_OK) == 0) return p.string();
  }
  return "";
}

}  // namespace aicore::sweep::detail
