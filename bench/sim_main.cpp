// bench_sim: aicore-sim's speed as a ratio to a bare SystemC event handoff on the same host in
// the same run, so the number means something across machines and build types.
//   1. `aicore-sim gen` writes a tiled 4:2 sparse GEMM trace of >= 100k instructions;
//   2. `aicore-sim run T --timing-only --check none -q` runs 3 times as a subprocess -> instructions/s
//      (instructions from stats.json), best of 3, plus the simulator's peak RSS;
//   3. `bench_handoff N` runs 3 times -> handoffs/s, best of 3.
// Both are timed from outside as whole processes (start-up, trace parsing and stats included:
// that is what a user waits for). Usage: bench_sim [WORKDIR]  (default: a fresh /tmp dir, removed after).
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "subprocess.hpp"

namespace {

constexpr const char* kHandoffs = "4000000";

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

  // --check none: this measures the simulator; what the checker adds is bench_check's ratio.
  const bench::Result s = bench::best_of(
      3, {sim, "run", t.trace.string(), "--timing-only", "--check", "none", "--out", out_dir.string(), "-q"});
  const uint64_t instructions = bench::stats_instructions(out_dir);
  if (instructions < bench::kMinInstructions)
    throw std::runtime_error("trace has only " + std::to_string(instructions) + " instructions");

  const uint64_t handoffs = std::stoull(kHandoffs);
  const bench::Result h = bench::best_of(3, {handoff, kHandoffs});

  const double ips = double(instructions) / s.wall, hps = double(handoffs) / h.wall;
  std::printf(
      "sim run --timing-only, best of 3: %llu instructions in %.3f s wall (%.3f s cpu) = %.0f "
      "instructions/s\n",
      static_cast<unsigned long long>(instructions), s.wall, s.cpu, ips);
  std::printf("sim peak RSS: %.1f MiB\n", double(s.max_rss_kib) / 1024.0);
  std::printf("bench_handoff, best of 3: %llu handoffs in %.3f s wall (%.3f s cpu) = %.0f handoffs/s\n",
              static_cast<unsigned long long>(handoffs), h.wall, h.cpu, hps);
  std::printf("ratio sim_instructions_per_s / handoff_iterations_per_s = %.3f (target >= 0.25)\n", ips / hps);
  std::printf("  same ratio on cpu time = %.3f\n",
              (double(instructions) / s.cpu) / (double(handoffs) / h.cpu));
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "bench_sim: %s\n", e.what());
  return 1;
}
