#include "subprocess.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>

extern char** environ;

namespace bench {

namespace {

// The last `limit` bytes of an unnamed temporary file (the child's stderr).
std::string tail_of(std::FILE* f, long limit) {
  std::fflush(f);
  std::fseek(f, 0, SEEK_END);
  const long size = std::ftell(f);
  const long from = std::max(0L, size - limit);
  std::fseek(f, from, SEEK_SET);
  std::string s(static_cast<size_t>(size - from), '\0');
  s.resize(std::fread(s.data(), 1, s.size(), f));
  return (from > 0 ? "..." : "") + s;
}

}  // namespace

Result run(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> err_file(std::tmpfile(), &std::fclose);
  if (!err_file) throw std::runtime_error("tmpfile failed");
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, fileno(err_file.get()), STDERR_FILENO);
  const auto t0 = std::chrono::steady_clock::now();
  pid_t pid = 0;
  const int err = posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (err != 0) throw std::runtime_error("cannot start " + args[0]);
  int status = 0;
  rusage ru{};
  if (wait4(pid, &status, 0, &ru) != pid) throw std::runtime_error("wait4 failed for " + args[0]);
  Result r;
  r.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.cpu = double(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
          1e-6 * double(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
  r.max_rss_kib = ru.ru_maxrss;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::string cmd;
    for (const auto& a : args) cmd += a + " ";
    throw std::runtime_error("failed (status " + std::to_string(status) + "): " + cmd + "\nits stderr:\n" +
                             tail_of(err_file.get(), 4000));
  }
  return r;
}

void keep_best(Result& best, const Result& r, bool first) {
  if (first) {
    best = r;
    return;
  }
  best.wall = std::min(best.wall, r.wall);
  best.cpu = std::min(best.cpu, r.cpu);
  best.max_rss_kib = std::max(best.max_rss_kib, r.max_rss_kib);
}

Result best_of(int n, const std::vector<std::string>& args) {
  Result best;
  for (int i = 0; i < n; ++i) keep_best(best, run(args), i == 0);
  return best;
}

WorkDir::WorkDir(int argc, char** argv, const char* prefix) {
  if (argc >= 2) {
    path_ = argv[1];
    fs::create_directories(path_);
    return;
  }
  std::string tmpl = "/tmp/" + std::string(prefix) + ".XXXXXX";
  if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
  path_ = tmpl;
  owned_ = true;
}

WorkDir::~WorkDir() {
  std::error_code ec;
  if (owned_) fs::remove_all(path_, ec);
}

std::string SparseTrace::description() const {
  return std::string(kSparseM) + "x" + kSparseK + "x" + kSparseN + " sparse 4:2, default tiles";
}

SparseTrace gen_sparse_trace(const std::string& sim, const fs::path& dir) {
  SparseTrace t;
  t.gen = run({sim, "gen", "--m", kSparseM, "--k", kSparseK, "--n", kSparseN, "--sparse", "--out",
               dir.string(), "--name", "sparse", "--no-originals"});
  t.trace = dir / "sparse.trace";
  return t;
}

uint64_t stats_instructions(const fs::path& out_dir) {
  std::ifstream stats(out_dir / "stats.json");
  if (!stats) throw std::runtime_error("cannot read " + (out_dir / "stats.json").string());
  return nlohmann::json::parse(stats).at("instructions").get<uint64_t>();
}

}  // namespace bench
