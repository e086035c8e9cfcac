// bench_check: what the race/sync checker (on by default in every run) costs.
//   1. `aicore-sim gen` writes the same ~104k-instruction 4:2 sparse GEMM trace as bench_sim;
//   2. `aicore-sim run T -q --out D` runs in 4 configurations: --timing-only and full (data)
//      mode, each with `--check none` and with the checker on (the default); 5 rounds, each
//      running every configuration once, best of 5 per configuration;
//   3. prints wall and user+sys CPU time, peak RSS, and the ratio checker on / off per mode
//      against the target "checking on costs at most 1.2x" (judged on wall time, what
//      a user waits for: the checker runs on a second core; the CPU ratio is printed beside).
// Exit status is nonzero only when a subprocess fails (or the trace reports anything: the
// generated kernel is race-free), never for a missed target.
// Usage: bench_check [WORKDIR]  (default: a fresh /tmp dir, removed after).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "subprocess.hpp"

namespace {

namespace fs = std::filesystem;

constexpr int kRounds = 5;
constexpr double kTarget = 1.2;

struct Config {
  const char* name;  // also the output directory's suffix
  bool timing_only, check;
  bench::Result best;
};

void print_ratio(const char* mode, const Config& off, const Config& on) {
  const double wall = on.best.wall / off.best.wall, cpu = on.best.cpu / off.best.cpu;
  std::printf("ratio %s check_on/check_off = %.2f wall (%.3f s / %.3f s), %.2f cpu (%.3f s / %.3f s) -> %s\n",
              mode, wall, on.best.wall, off.best.wall, cpu, on.best.cpu, off.best.cpu,
              wall <= kTarget ? "meets the 1.2x target" : "MISSES the 1.2x target");
}

}  // namespace

int main(int argc, char** argv) try {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "DISABLE", 1);
  const bench::WorkDir work(argc, argv, "bench_check");
  const std::string sim = AICORE_SIM_EXE;
  std::printf("aicore-sim: %s\n", sim.c_str());
  const bench::SparseTrace t = bench::gen_sparse_trace(sim, work.path() / "sparse");

  std::vector<Config> configs = {
      {"timing-off", true, false, {}},
      {"timing-on", true, true, {}},
      {"full-off", false, false, {}},
      {"full-on", false, true, {}},
  };
  for (int round = 0; round < kRounds; ++round)
    for (Config& c : configs) {
      const fs::path out = work.path() / (std::string("out-") + c.name);
      std::vector<std::string> args = {sim, "run", t.trace.string(), "-q", "--out", out.string()};
      if (c.timing_only) args.push_back("--timing-only");
      if (!c.check) args.insert(args.end(), {"--check", "none"});
      bench::keep_best(c.best, bench::run(args), round == 0);
      if (round == 0 && c.check) {
        std::ifstream f(out / "checks.json");
        const auto j = nlohmann::json::parse(f);
        if (!j["reports"].empty()) throw std::runtime_error("the generated kernel has check reports");
      }
    }
  const uint64_t instructions = bench::stats_instructions(work.path() / "out-timing-off");
  if (instructions < bench::kMinInstructions)
    throw std::runtime_error("trace has only " + std::to_string(instructions) + " instructions");

  std::printf("trace: %s, %llu instructions (gen %.1f s)\n", t.description().c_str(),
              static_cast<unsigned long long>(instructions), t.gen.wall);
  std::printf("aicore-sim run T -q --out D [--timing-only] [--check none]: best of %d rounds\n", kRounds);
  std::printf("%-12s %-6s %8s %8s %8s %10s\n", "mode", "check", "wall_s", "cpu_s", "rss_MiB", "ns/instr");
  for (const Config& c : configs)
    std::printf("%-12s %-6s %8.3f %8.3f %8.1f %10.0f\n", c.timing_only ? "timing-only" : "full",
                c.check ? "on" : "off", c.best.wall, c.best.cpu, double(c.best.max_rss_kib) / 1024.0,
                c.best.cpu * 1e9 / double(instructions));
  print_ratio("timing-only", configs[0], configs[1]);
  print_ratio("full", configs[2], configs[3]);
  std::printf("checker cost per instruction: %.0f ns (timing-only), %.0f ns (full), cpu time\n",
              (configs[1].best.cpu - configs[0].best.cpu) * 1e9 / double(instructions),
              (configs[3].best.cpu - configs[2].best.cpu) * 1e9 / double(instructions));
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "bench_check: %s\n", e.what());
  return 1;
}
