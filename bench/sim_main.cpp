// bench_sim: aicore-sim's speed as a ratio to a bare SystemC event handoff on the same host in
// the same run, so the number means something across machines and build types.
//   1. `aicore-sim gen` writes a tiled 4:2 sparse GEMM trace of >= 100k instructions;
//   2. `aicore-sim run T --timing-only -q` runs as a subprocess, with `--check none` (the
//      simulator alone) and as a user runs it by default (the race checker on) -> instructions/s
//      (instructions from stats.json), plus the simulator's peak RSS;
//   3. `bench_handoff N` -> handoffs/s.
// 3 rounds, each running all three once (so load on a shared host hits them alike), best of 3
// each. Both are timed from outside as whole processes (start-up, trace parsing and stats
// included: that is what a user waits for).
// Usage: bench_sim [WORKDIR]  (default: a fresh /tmp dir, removed after).
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "subprocess.hpp"

namespace {

constexpr const char* kHandoffs = "4000000";
constexpr int kRounds = 3;

}  // namespace

int main(int argc, char** argv) try {
  // The SystemC banner would otherwise go to every child's stdout (discarded anyway).
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "DISABLE", 1);
  const bench::WorkDir work(argc, argv, "bench_sim");
  const std::string sim = AICORE_SIM_EXE, handoff = BENCH_HANDOFF_EXE;
  const auto out_dir = work.path() / "out";

  std::printf("aicore-sim: %s\n", sim.c_str());
  const bench::SparseTrace t = bench::gen_sparse_trace(sim, work.path() / "sparse");
  std::printf("trace: %s, %s (gen %.1f s)\n", t.description().c_str(), t.trace.c_str(), t.gen.wall);

  const std::vector<std::string> run = {
      sim, "run", t.trace.string(), "--timing-only", "--out", out_dir.string(), "-q"};
  std::vector<std::string> bare = run;
  bare.insert(bare.end(), {"--check", "none"});
  const std::vector<std::string> handoff_run = {handoff, kHandoffs};
  bench::Result off, on, h;
  for (int round = 0; round < kRounds; ++round) {
    bench::keep_best(off, bench::run(bare), round == 0);
    bench::keep_best(on, bench::run(run), round == 0);
    bench::keep_best(h, bench::run(handoff_run), round == 0);
  }
  const uint64_t instructions = bench::stats_instructions(out_dir);
  if (instructions < bench::kMinInstructions)
    throw std::runtime_error("trace has only " + std::to_string(instructions) + " instructions");

  const uint64_t handoffs = std::stoull(kHandoffs);
  const double hps = double(handoffs) / h.wall, hps_cpu = double(handoffs) / h.cpu;
  std::printf("bench_handoff, best of %d: %llu handoffs in %.3f s wall (%.3f s cpu) = %.0f handoffs/s\n",
              kRounds, static_cast<unsigned long long>(handoffs), h.wall, h.cpu, hps);
  const auto report = [&](const char* what, const bench::Result& s) {
    const double ips = double(instructions) / s.wall;
    std::printf(
        "sim run --timing-only %s, best of %d: %llu instructions in %.3f s wall (%.3f s cpu) = %.0f "
        "instructions/s, peak RSS %.1f MiB\n",
        what, kRounds, static_cast<unsigned long long>(instructions), s.wall, s.cpu, ips,
        double(s.max_rss_kib) / 1024.0);
    std::printf("ratio %s sim_instructions_per_s / handoff_iterations_per_s = %.3f (target >= 0.25)\n", what,
                ips / hps);
    std::printf("  same ratio on cpu time = %.3f\n", (double(instructions) / s.cpu) / hps_cpu);
  };
  report("--check none", off);
  report("checker on (the default)", on);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "bench_sim: %s\n", e.what());
  return 1;
}
