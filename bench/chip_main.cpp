// bench_chip: the full 24-core 8192^3 best-practice kernel (Case 3: NORM, unitFlag, A loaded by
// Load3Dv2, C split 4 x 6; not block-sampled) run --timing-only on atlas-a2 as a user runs it
// (the checker on) and with --check none: wall and CPU seconds, instructions/s, peak RSS, and the
// L2 line lookups the run made (their host cost per line is bench_l2's). The target (issue: chip
// scale) is <= 10 s with the checker on this 2-core machine.
// Usage: bench_chip [WORKDIR]  (default: a fresh /tmp dir, removed after).
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "subprocess.hpp"

namespace {

constexpr int kRounds = 2;

uint64_t l2_lookups(const bench::fs::path& out) {
  std::ifstream f(out / "stats.json");
  const auto j = nlohmann::json::parse(f);
  const auto& l2 = j.at("chip").at("l2");
  return l2.at("read_hits").get<uint64_t>() + l2.at("read_misses").get<uint64_t>() +
         l2.at("write_hits").get<uint64_t>() + l2.at("write_misses").get<uint64_t>();
}

}  // namespace

int main(int argc, char** argv) try {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "DISABLE", 1);
  const bench::WorkDir work(argc, argv, "bench_chip");
  const std::string sim = AICORE_SIM_EXE;
  const auto dir = work.path() / "case3", out = work.path() / "out";
  const bench::Result g =
      bench::run({sim, "gen", "--dtype", "half", "--m", "8192", "--k", "8192", "--n", "8192", "--cores", "24",
                  "--split", "4x6", "--a-load", "load3d", "--timing-only", "--out", dir.string()});
  std::printf("kernel: 24-core 8192^3 fp16 matmul (Case 3), %s (gen %.1f s)\n", dir.c_str(), g.wall);
  const std::vector<std::string> run = {
      sim, "run", (dir / "kernel.yaml").string(), "--timing-only", "-q", "--out", out.string()};
  std::vector<std::string> bare = run;
  bare.insert(bare.end(), {"--check", "none"});
  bench::Result on, off;
  for (int round = 0; round < kRounds; ++round) {
    bench::keep_best(on, bench::run(run), round == 0);
    bench::keep_best(off, bench::run(bare), round == 0);
  }
  const uint64_t instructions = bench::stats_instructions(out), lookups = l2_lookups(out);
  const auto report = [&](const char* what, const bench::Result& r) {
    std::printf("%-26s best of %d: %.2f s wall, %.2f s cpu, %.0f instructions/s, peak RSS %.0f MiB\n", what,
                kRounds, r.wall, r.cpu, double(instructions) / r.wall, double(r.max_rss_kib) / 1024.0);
  };
  std::printf("%llu instructions, %llu L2 line lookups\n", static_cast<unsigned long long>(instructions),
              static_cast<unsigned long long>(lookups));
  report("checker on (the default)", on);
  report("--check none", off);
  std::printf("target: <= 10 s wall with the checker: %s\n", on.wall <= 10.0 ? "yes" : "NO");
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "bench_chip: %s\n", e.what());
  return 1;
}
