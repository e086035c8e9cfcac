// bench_outputs: what the inspection outputs (instr.csv, timeline.json, waves.vcd) cost.
//   1. `aicore-sim gen` writes the same ~104k-instruction 4:2 sparse GEMM trace as bench_sim;
//   2. `aicore-sim run T -q --out D` runs in 7 configurations: --timing-only with no outputs,
//      with each output alone and with all three; full (data) mode with none and with all;
//      5 rounds, each round running every configuration once (so a burst of load on the host
//      hits all configurations alike), best of 5 per configuration;
//   3. prints wall and user+sys CPU time, peak RSS, output file sizes, and the ratio
//      all_outputs / no_outputs for timing-only and for full mode against the target
//      "writing all outputs for a ~100k-instruction trace adds no more than 2x to the run time".
// Exit status is nonzero only when a subprocess fails, never for a missed target.
// Usage: bench_outputs [WORKDIR]  (default: a fresh /tmp dir, removed after; a given WORKDIR
// keeps the trace and every configuration's outputs under WORKDIR/out-*).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "subprocess.hpp"

namespace {

namespace fs = std::filesystem;

constexpr int kRounds = 5;
constexpr double kTarget = 2.0;
constexpr const char* kOutputFiles[] = {"instr.csv", "timeline.json", "waves.vcd"};

struct Config {
  const char* name;  // also the output directory's suffix
  bool timing_only;
  std::vector<std::string> outputs;  // flags
  bench::Result best;
  double mb[3] = {0, 0, 0};  // sizes of kOutputFiles, 10^6 bytes
};

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& a : v) s += (s.empty() ? "" : " ") + a;
  return s.empty() ? "none" : s;
}

double size_mb(const fs::path& p) {
  std::error_code ec;
  const auto n = fs::file_size(p, ec);
  return ec ? 0.0 : double(n) / 1e6;
}

void print_ratio(const char* mode, const Config& none, const Config& all) {
  const double wall = all.best.wall / none.best.wall, cpu = all.best.cpu / none.best.cpu;
  std::printf("ratio %s all_outputs/no_outputs = %.2f wall (%.3f s / %.3f s), %.2f cpu (%.3f s / %.3f s)\n",
              mode, wall, all.best.wall, none.best.wall, cpu, all.best.cpu, none.best.cpu);
  std::printf("  %s: wall ratio %.2f %s %.1f -> %s (cpu ratio %.2f %s %.1f)\n", mode, wall,
              wall <= kTarget ? "<=" : ">", kTarget,
              wall <= kTarget ? "meets the target" : "MISSES the target", cpu, cpu <= kTarget ? "<=" : ">",
              kTarget);
}

}  // namespace

int main(int argc, char** argv) try {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "DISABLE", 1);
  const bench::WorkDir work(argc, argv, "bench_outputs");
  const std::string sim = AICORE_SIM_EXE;
  const std::vector<std::string> all = {"--instr-log", "--timeline", "--vcd"};

  std::printf("aicore-sim: %s\n", sim.c_str());
  const bench::SparseTrace t = bench::gen_sparse_trace(sim, work.path() / "sparse");

  std::vector<Config> configs = {
      {"timing-none", true, {}, {}},
      {"timing-instr-log", true, {"--instr-log"}, {}},
      {"timing-timeline", true, {"--timeline"}, {}},
      {"timing-vcd", true, {"--vcd"}, {}},
      {"timing-all", true, all, {}},
      {"full-none", false, {}, {}},
      {"full-all", false, all, {}},
  };
  for (int round = 0; round < kRounds; ++round) {
    for (Config& c : configs) {
      const fs::path out = work.path() / (std::string("out-") + c.name);
      fs::remove_all(out);  // sizes below must be this run's files only
      std::vector<std::string> args = {sim, "run", t.trace.string(), "-q", "--out", out.string()};
      if (c.timing_only) args.push_back("--timing-only");
      args.insert(args.end(), c.outputs.begin(), c.outputs.end());
      bench::keep_best(c.best, bench::run(args), round == 0);
      if (round == 0) {
        for (int f = 0; f < 3; ++f) c.mb[f] = size_mb(out / kOutputFiles[f]);
        const uint64_t n = bench::stats_instructions(out);
        if (n < bench::kMinInstructions)
          throw std::runtime_error("trace has only " + std::to_string(n) + " instructions");
      }
    }
  }
  const uint64_t instructions = bench::stats_instructions(work.path() / "out-timing-none");

  std::printf("trace: %s, %llu instructions (gen %.1f s)\n", t.description().c_str(),
              static_cast<unsigned long long>(instructions), t.gen.wall);
  std::printf("aicore-sim run T -q --out D [--timing-only] [outputs]: best of %d rounds per configuration\n",
              kRounds);
  std::printf(
      "(wall and cpu = user+sys minima taken separately; sizes in MB = 10^6 bytes; x_none = wall / same mode "
      "without outputs)\n");
  std::printf("%-12s %-28s %8s %8s %7s %8s %10s %13s %9s %9s\n", "mode", "outputs", "wall_s", "cpu_s",
              "x_none", "rss_MiB", "instr.csv", "timeline.json", "waves.vcd", "total_MB");
  for (const Config& c : configs) {
    const Config& none = c.timing_only ? configs[0] : configs[5];
    std::printf("%-12s %-28s %8.3f %8.3f %7.2f %8.1f %10.1f %13.1f %9.1f %9.1f\n",
                c.timing_only ? "timing-only" : "full", join(c.outputs).c_str(), c.best.wall, c.best.cpu,
                c.best.wall / none.best.wall, double(c.best.max_rss_kib) / 1024.0, c.mb[0], c.mb[1], c.mb[2],
                c.mb[0] + c.mb[1] + c.mb[2]);
  }
  print_ratio("timing-only", configs[0], configs[4]);
  print_ratio("full", configs[5], configs[6]);
  std::printf(
      "target (issue): all outputs on a ~100k-instruction trace add no more than %.1fx to the run time\n",
      kTarget);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "bench_outputs: %s\n", e.what());
  return 1;
}
