// bench_sim: aicore-sim's speed as a ratio to a bare SystemC event handoff on the same host in
// the same run, so the number means something across machines and build types.
//   1. `aicore-sim gen` writes a tiled 4:2 sparse GEMM trace of >= 100k instructions;
//   2. `aicore-sim run T --timing-only -q` runs 3 times as a subprocess -> instructions/s
//      (instructions from stats.json), best of 3, plus the simulator's peak RSS;
//   3. `bench_handoff N` runs 3 times -> handoffs/s, best of 3.
// Both are timed from outside as whole processes (start-up, trace parsing and stats included:
// that is what a user waits for). Usage: bench_sim [WORKDIR]  (default: a fresh /tmp dir, removed after).
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

extern char** environ;

namespace {

namespace fs = std::filesystem;

// 16 x 18 output tiles x 17 k-chunks of the generator's default 128x256x128 tiling = 4896
// double-buffered steps of ~21 instructions: just over 100k instructions.
constexpr const char* kM = "2048";
constexpr const char* kK = "4352";
constexpr const char* kN = "2304";
constexpr uint64_t kMinInstructions = 100000;
constexpr const char* kHandoffs = "4000000";

struct Result {
  double wall = 0, cpu = 0;  // seconds
  long max_rss_kib = 0;
};

// Runs argv to completion with stdout discarded. wait4 gives this child's own rusage; the
// brief's getrusage(RUSAGE_CHILDREN) would report the max over *all* children, gen included.
Result run(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
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
  r.cpu = double(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + 1e-6 * double(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
  r.max_rss_kib = ru.ru_maxrss;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::string cmd;
    for (const auto& a : args) cmd += a + " ";
    throw std::runtime_error("failed (status " + std::to_string(status) + "): " + cmd);
  }
  return r;
}

// Best of 3 by wall time; the RSS kept is the largest seen.
Result best_of_3(const std::vector<std::string>& args) {
  Result best;
  for (int i = 0; i < 3; ++i) {
    const Result r = run(args);
    if (i == 0 || r.wall < best.wall) best = Result{r.wall, r.cpu, std::max(best.max_rss_kib, r.max_rss_kib)};
    best.max_rss_kib = std::max(best.max_rss_kib, r.max_rss_kib);
  }
  return best;
}

// Removes the work directory bench_sim created itself, also when a step fails.
struct TempDir {
  fs::path path;
  ~TempDir() {
    std::error_code ec;
    if (!path.empty()) fs::remove_all(path, ec);
  }
};

}  // namespace

int main(int argc, char** argv) try {
  // The SystemC banner would otherwise go to every child's stdout (discarded anyway).
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "DISABLE", 1);
  const bool own_dir = argc < 2;
  fs::path work;
  TempDir cleanup;
  if (own_dir) {
    char tmpl[] = "/tmp/bench_sim.XXXXXX";
    if (!mkdtemp(tmpl)) throw std::runtime_error("mkdtemp failed");
    work = cleanup.path = tmpl;
  } else {
    work = argv[1];
    fs::create_directories(work);
  }
  const std::string sim = AICORE_SIM_EXE, handoff = BENCH_HANDOFF_EXE;
  const fs::path case_dir = work / "sparse", out_dir = work / "out";
  const fs::path trace = case_dir / "sparse.trace";

  std::printf("aicore-sim: %s\n", sim.c_str());
  const Result gen = run({sim, "gen", "--m", kM, "--k", kK, "--n", kN, "--sparse", "--out", case_dir.string(),
                          "--name", "sparse", "--no-originals"});
  std::printf("trace: %sx%sx%s sparse 4:2, default tiles, %s (gen %.1f s)\n", kM, kK, kN, trace.c_str(), gen.wall);

  const Result s = best_of_3({sim, "run", trace.string(), "--timing-only", "--out", out_dir.string(), "-q"});
  std::ifstream stats(out_dir / "stats.json");
  const uint64_t instructions = nlohmann::json::parse(stats).at("instructions").get<uint64_t>();
  if (instructions < kMinInstructions)
    throw std::runtime_error("trace has only " + std::to_string(instructions) + " instructions");

  const uint64_t handoffs = std::stoull(kHandoffs);
  const Result h = best_of_3({handoff, kHandoffs});

  const double ips = double(instructions) / s.wall, hps = double(handoffs) / h.wall;
  std::printf("sim run --timing-only, best of 3: %llu instructions in %.3f s wall (%.3f s cpu) = %.0f instructions/s\n",
              static_cast<unsigned long long>(instructions), s.wall, s.cpu, ips);
  std::printf("sim peak RSS: %.1f MiB\n", double(s.max_rss_kib) / 1024.0);
  std::printf("bench_handoff, best of 3: %llu handoffs in %.3f s wall (%.3f s cpu) = %.0f handoffs/s\n",
              static_cast<unsigned long long>(handoffs), h.wall, h.cpu, hps);
  std::printf("ratio sim_instructions_per_s / handoff_iterations_per_s = %.3f (target >= 0.25)\n", ips / hps);
  std::printf("  same ratio on cpu time = %.3f\n", (double(instructions) / s.cpu) / (double(handoffs) / h.cpu));
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "bench_sim: %s\n", e.what());
  return 1;
}
