// Multi-core kernels through the CLI: the shipped two-core manifest (two independent tiled 4:2
// sparse GEMMs sharing their inputs) against one core alone, and every output per core.
#include <catch2/catch.hpp>

#include <fstream>
#include <set>
#include <sstream>

#include "harness.hpp"

using Catch::Matchers::Contains;
using harness::TempDir;

namespace {

const std::string kManifest = std::string(AICORE_TRACES_DIR) + "/multicore_tiled_sparse/kernel.yaml";
const std::string kOne =
    std::string(AICORE_TRACES_DIR) + "/tiled_sparse_512x1024x512/tiled_sparse_512x1024x512.trace";

nlohmann::json run_stats(const TempDir& d, const std::string& trace, const std::string& extra) {
  const auto r = harness::run("run " + trace + " --out " + d.file("out") + " " + extra);
  INFO(r.err);
  REQUIRE(r.status == 0);
  return harness::stats(d);
}

using test_support::slurp;

}  // namespace

TEST_CASE("multicore: both cores' results are bit-exact; reading the same inputs at once slows the second",
          "[cli][multicore]") {
  TempDir d1, d2;
  const auto r = harness::run("run " + kManifest + " --out " + d2.file("out"));
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.out,
             Contains("expect c0: match (1048576 bytes)") && Contains("expect c1: match (1048576 bytes)"));
  const auto shared = harness::stats(d2);
  const auto one = run_stats(d1, kOne, "");
  // Both cores read the same inputs at the same moments: the second reader of each line waits
  // (chip.l2.same_address_penalty); by less than the penalty itself, since copies also overlap.
  CHECK(shared["cycles"].get<uint64_t>() > one["cycles"].get<uint64_t>());
  CHECK(shared["cycles"].get<double>() < 1.15 * one["cycles"].get<double>());
  CHECK(shared["cores"][1]["l2"]["shared_reads"].get<uint64_t>() > 0);
  // Without that penalty, the chip's shared bandwidths (768 B/cycle of HBM, 2640 of L2 reads on
  // the published figures) exceed two cores' ports (2 x 256): no core slows.
  TempDir d3;
  const auto two = run_stats(d3, kManifest, "--set chip.l2.same_address_penalty=0");
  CHECK(two["cycles"] == one["cycles"]);
  REQUIRE(two["cores"].size() == 2);
  for (const auto& core : two["cores"]) {
    CHECK(core["cycles"] == one["cycles"]);
    CHECK(core["pipes"] == one["cores"][0]["pipes"]);
  }
  CHECK(two["instructions"].get<uint64_t>() == 2 * one["instructions"].get<uint64_t>());
  CHECK(two["pipes"]["MTE2"]["busy_cycles"].get<uint64_t>() ==
        2 * one["pipes"]["MTE2"]["busy_cycles"].get<uint64_t>());
  // The second core reads from L2 what the first filled: the chip misses only once.
  CHECK(two["chip"]["l2"]["hbm_read_bytes"] == one["chip"]["l2"]["hbm_read_bytes"]);
}

TEST_CASE(
    "multicore: with no L2, HBM bandwidth below twice a core's port makes the chip slower, at or above it "
    "does not",
    "[cli][multicore]") {
  // No L2: every byte of both cores comes from HBM; no same-address penalty (nothing is cached).
  const std::string base =
      "--timing-only --set chip.l2.bytes=0 --set chip.hbm.bytes_per_cycle_per_core=1000 ";
  TempDir one_dir;
  const uint64_t alone = run_stats(one_dir, kOne, base)["cycles"];
  // gm.shared_bytes_per_cycle = 256 is one core's GM port.
  for (const char* bw : {"512", "2000"}) {
    TempDir d;
    INFO("chip.hbm.bytes_per_cycle=" << bw);
    CHECK(run_stats(d, kManifest, base + "--set chip.hbm.bytes_per_cycle=" + bw)["cycles"] == alone);
  }
  for (const char* bw : {"400", "200"}) {
    TempDir d;
    INFO("chip.hbm.bytes_per_cycle=" << bw);
    const auto s = run_stats(d, kManifest, base + "--set chip.hbm.bytes_per_cycle=" + bw);
    CHECK(s["cycles"].get<uint64_t>() > alone);
    CHECK(s["pipes"]["MTE2"]["wait_cycles"]["port"].get<uint64_t>() > 0);
  }
}

TEST_CASE("multicore: atlas-a3 times a kernel exactly as atlas-a2", "[cli][multicore][preset]") {
  TempDir a2, a3;
  auto s2 = run_stats(a2, kManifest, "--timing-only --config atlas-a2");
  auto s3 = run_stats(a3, kManifest, "--timing-only --config atlas-a3");
  CHECK(s2["config"]["name"] != s3["config"]["name"]);
  for (auto* s : {&s2, &s3}) s->erase("config");
  CHECK(s2 == s3);
}

TEST_CASE("multicore: instr.csv, timeline.json and waves.vcd are per core", "[cli][multicore][inspect]") {
  TempDir d;
  run_stats(d, kManifest, "--timing-only --instr-log --timeline --vcd");
  // instr.csv: every row names its core; each core has all its instructions.
  std::vector<std::string> h;
  std::map<uint64_t, std::set<uint64_t>> by_core;
  for (const auto& row : harness::csv_rows(d.file("out/instr.csv"), &h))
    by_core[harness::csv_u64(h, row, "core")].insert(harness::csv_u64(h, row, "index"));
  REQUIRE(by_core.size() == 2);
  CHECK(by_core[0].size() == by_core[1].size());
  // timeline.json: one process per core, named, with its own pipe lanes.
  const auto tl = nlohmann::json::parse(slurp(d.file("out/timeline.json")));
  std::map<int, std::string> processes;
  std::set<std::pair<int, int>> lanes;
  for (const auto& e : tl["traceEvents"]) {
    if (e["name"] == "process_name") processes[e["pid"].get<int>()] = e["args"]["name"].get<std::string>();
    if (e["ph"] == "X") lanes.insert({e["pid"].get<int>(), e["tid"].get<int>()});
  }
  REQUIRE(processes.size() == 2);
  CHECK_THAT(processes[1], Contains("core0 of aicore-sim"));
  CHECK_THAT(processes[2], Contains("core1 of aicore-sim"));
  for (int pid : {1, 2})
    for (int tid : {2, 3, 4, 5})  // MTE2, MTE1, CUBE, FIXP
      CHECK(lanes.count({pid, tid}));
  // waves.vcd: a scope per core holding the pipes.
  const std::string vcd = slurp(d.file("out/waves.vcd"));
  CHECK_THAT(vcd, Contains("$scope module core0 $end\n$scope module SCALAR $end"));
  CHECK_THAT(vcd, Contains("$scope module core1 $end"));
}

TEST_CASE("multicore: a single trace still runs as a chip of one core", "[cli][multicore]") {
  TempDir d;
  const auto s = run_stats(d, kOne, "--timing-only --instr-log --vcd");
  REQUIRE(s["cores"].size() == 1);
  CHECK(s["cores"][0]["cycles"] == s["cycles"]);
  CHECK_THAT(slurp(d.file("out/waves.vcd")), !Contains("core0"));
}

TEST_CASE("multicore: plot_gantt.py draws a lane per core and pipe", "[cli][multicore][plot]") {
  TempDir d;
  run_stats(d, kManifest, "--timing-only --instr-log");
  const std::string cmd = std::string("/usr/bin/python3 ") + AICORE_TOOLS_DIR + "/plot_gantt.py " +
                          d.file("out/instr.csv") + " -o " + d.file("g.png") + " >/dev/null 2>&1";
  REQUIRE(std::system(cmd.c_str()) == 0);
  const std::string png = slurp(d.file("g.png"));
  CHECK(png.size() > 10000);
  CHECK(png.compare(1, 3, "PNG") == 0);
}

TEST_CASE("multicore: the checker reports the same under any timing, past its report cap too",
          "[cli][multicore][check]") {
  // Unsynchronised copy -> load pairs (a RAW race each) in blocks of ten ended by PIPE_ALL:
  // core 0 800 pairs of 512-byte copies, core 1 400 of 2 KiB, together past the checker's 1000
  // kept reports; then overlapping Fixpipe tiles of a shared C (a cross-core race). The model
  // hands the checker each core's instructions as its scalar unit issues them, and the barriers
  // keep each scalar unit in step with its core's copies: GM bandwidth and latency move the
  // cores differently, so the configurations below interleave their instructions differently
  // (with the first-come report cap this test was written against, each kept another mix of
  // the two cores' reports). What is reported, and which reports the cap keeps, must not change.
  TempDir d;
  const auto core = [](int pairs, int blocks, int slots, uint64_t c_offset) {
    std::string t = ".gm a size=1048576\n.gm c size=65536\n";
    for (int i = 0; i < pairs; ++i) {
      const std::string l1 = std::to_string(i % slots * blocks * 32);
      t += "DataCopy dst=L1:" + l1 + " src=a blockLen=" + std::to_string(blocks) +
           "\nLoadData dst=L0A:" + std::to_string(i % 128 * 512) + " src=L1:" + l1 + " repeatTimes=1\n";
      if (i % 10 == 9) t += "PipeBarrier pipe=PIPE_ALL\n";
    }
    return t + "Fixpipe dst=c+" + std::to_string(c_offset) +
           " src=L0C:0 nSize=16 mSize=16 srcStride=16 dstStride=64\n";
  };
  d.write("a.trace", core(800, 16, 800, 0));
  d.write("b.trace", core(400, 64, 200, 32));
  const std::string manifest = d.write("k.yaml", "cores:\n  - a.trace\n  - b.trace\n");
  const std::vector<std::string> configs = {
      "--timing-only",
      "--timing-only --set gm.read.latency_cycles=400 --set gm.read.bytes_per_cycle=20",
      "--timing-only --set gm.read.bytes_per_cycle=8",
  };
  std::vector<nlohmann::json> checks;
  for (size_t i = 0; i < configs.size(); ++i) {
    const std::string out = d.file("out" + std::to_string(i));
    const auto r = harness::run("run " + manifest + " --out " + out + " " + configs[i]);
    INFO(configs[i] << "\n" << r.err.substr(0, 2000));
    REQUIRE(r.status == 3);
    auto j = nlohmann::json::parse(slurp(out + "/checks.json"));
    for (auto& rep : j["reports"]) rep.erase("timing");  // the one member that depends on the schedule
    checks.push_back(j);
  }
  REQUIRE(checks[0]["reports"].size() == 1000);
  CHECK(checks[0]["unstored"].get<uint64_t>() > 0);
  for (size_t i = 1; i < checks.size(); ++i) CHECK(checks[i].dump() == checks[0].dump());
}
