// The fast model against the lock-step reference (reference.hpp) on random kernels and random
// configs: every instruction's issue, start, busy-end and end cycle must be equal. Each case runs
// the real aicore-sim (one SystemC kernel per process) on a generated trace or two-core manifest.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include "aicore/config/loader.hpp"
#include "aicore/trace/reader.hpp"
#include "harness.hpp"
#include "random_kernel.hpp"
#include "reference.hpp"

using harness::TempDir;
namespace isa = aicore::isa;

namespace {

std::vector<isa::Instruction> program_of(const std::string& path) {
  aicore::trace::Reader r(path);
  aicore::trace::Statement st;
  std::vector<isa::Instruction> out;
  while (r.next(st))
    if (st.kind == aicore::trace::Statement::Kind::Instr) out.push_back(st.instr);
  return out;
}

// instr.csv as (core, index) -> timing.
std::map<std::pair<uint64_t, uint64_t>, ref::Timing> model_timing(const std::string& csv) {
  std::vector<std::string> h;
  std::map<std::pair<uint64_t, uint64_t>, ref::Timing> out;
  for (const auto& row : harness::csv_rows(csv, &h)) {
    ref::Timing t;
    t.issue = harness::csv_u64(h, row, "issue_cycle");
    t.start = harness::csv_u64(h, row, "start_cycle");
    t.busy_end = harness::csv_u64(h, row, "busy_end_cycle");
    t.end = harness::csv_u64(h, row, "end_cycle");
    out[{harness::csv_u64(h, row, "core"), harness::csv_u64(h, row, "index")}] = t;
  }
  return out;
}

void check_case(uint64_t seed, int cores, const randk::Extras& extras = {}) {
  std::mt19937_64 rng(seed);
  TempDir d;
  std::vector<std::string> traces;
  std::string manifest = "cores:\n";
  for (int c = 0; c < cores; ++c) {
    traces.push_back(d.write("core" + std::to_string(c) + ".trace",
                             randk::kernel(rng, 60 + static_cast<int>(rng() % 60), extras)));
    manifest += "  - core" + std::to_string(c) + ".trace\n";
  }
  const std::vector<std::string> sets = randk::config_sets(rng, cores);
  std::string args = "run " + (cores == 1 ? traces[0] : d.write("kernel.yaml", manifest)) + " --out " +
                     d.file("out") + " --timing-only --instr-log -q --check none --config atlas-a2";
  for (const std::string& s : sets) args += " --set " + s;
  const auto r = harness::run(args);
  if (const char* keep = std::getenv("AICORE_DIFF_KEEP"))  // debugging: keep the case's files
    std::system(("mkdir -p " + std::string(keep) + " && cp -r " + d.path() + "/. " + keep + " && echo '" +
                 args + "' > " + keep + "/args")
                    .c_str());
  INFO("seed " << seed << ", " << cores << " core(s)\n" << r.err);
  REQUIRE(r.status == 0);

  const auto cfg = aicore::config::load("atlas-a2", sets, aicore::config::default_configs_dir());
  std::vector<std::vector<isa::Instruction>> progs;
  for (const std::string& t : traces) progs.push_back(program_of(t));
  const auto want = ref::schedule(cfg, progs, {1048576, 1048576});  // tensors a and c (random_kernel.cpp)
  const auto got = model_timing(d.file("out/instr.csv"));
  if (std::getenv("AICORE_DIFF_KEEP"))
    for (size_t c = 0; c < progs.size(); ++c)
      for (size_t i = 0; i < progs[c].size(); ++i) {
        const auto it = got.find({c, i});
        const ref::Timing g = it == got.end() ? ref::Timing{} : it->second;
        std::printf("%zu #%zu %-18s ref %llu %llu %llu %llu  model %llu %llu %llu %llu%s\n", c, i,
                    isa::mnemonic(progs[c][i].op), (unsigned long long)want[c][i].issue,
                    (unsigned long long)want[c][i].start, (unsigned long long)want[c][i].busy_end,
                    (unsigned long long)want[c][i].end, (unsigned long long)g.issue,
                    (unsigned long long)g.start, (unsigned long long)g.busy_end, (unsigned long long)g.end,
                    g.start == want[c][i].start && g.end == want[c][i].end && g.issue == want[c][i].issue
                        ? ""
                        : "  <<<");
      }
  size_t rows = 0;
  for (size_t c = 0; c < progs.size(); ++c)
    for (size_t i = 0; i < progs[c].size(); ++i) {
      const auto it = got.find({c, i});
      INFO("core " << c << " instruction #" << i << " line " << progs[c][i].line << " "
                   << isa::mnemonic(progs[c][i].op));
      REQUIRE(it != got.end());
      ++rows;
      CHECK(it->second.issue == want[c][i].issue);
      CHECK(it->second.start == want[c][i].start);
      CHECK(it->second.busy_end == want[c][i].busy_end);
      CHECK(it->second.end == want[c][i].end);
    }
  CHECK(rows == got.size());
}

}  // namespace

TEST_CASE("differential: one core, random kernels and configs, equal to the lock-step reference",
          "[model][differential]") {
  const char* only = std::getenv("AICORE_DIFF_SEED");
  if (only) return check_case(std::stoull(only), 1);
  for (uint64_t seed = 1; seed <= 120; ++seed) check_case(seed, 1);
}

TEST_CASE("differential: two and three cores sharing GM, equal to the lock-step reference",
          "[model][differential][chip]") {
  const char* only = std::getenv("AICORE_DIFF_SEED");
  if (only) return check_case(std::stoull(only), 2 + static_cast<int>(std::stoull(only) % 2));
  for (uint64_t seed = 1000; seed <= 1040; ++seed) check_case(seed, 2 + static_cast<int>(seed % 2));
}

TEST_CASE("differential: SyncAll and atomic Fixpipes on one to three cores, equal to the lock-step reference",
          "[model][differential][chip][syncall][atomic]") {
  const char* only = std::getenv("AICORE_DIFF_SEED");
  const auto extras = [](uint64_t seed) { return randk::Extras{1 + static_cast<int>(seed % 4), true}; };
  if (only)
    return check_case(std::stoull(only), 1 + static_cast<int>(std::stoull(only) % 3),
                      extras(std::stoull(only)));
  for (uint64_t seed = 2000; seed <= 2030; ++seed)
    check_case(seed, 1 + static_cast<int>(seed % 3), extras(seed));
}
