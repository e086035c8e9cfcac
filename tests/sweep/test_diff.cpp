// `aicore-sim diff RUN_A RUN_B`: metric by metric with absolute and relative change, the bound pipe
// before and after, the changed config keys; --csv for scripts; exit 0 whatever changed.
#include <catch2/catch.hpp>

#include "sweep_harness.hpp"

using Catch::Contains;
using sweep_test::read_csv;
using sweep_test::read_json;
using sweep_test::StudyDir;

namespace {

// Two runs of the tiled trace: GM-read bound, then with fast GM reads and sparse loads (Cube bound).
void two_runs(const StudyDir& d) {
  const std::string t = d.file("tiled/tiled_sparse_512x1024x512.trace");
  REQUIRE(harness::run("run " + t + " --timing-only -q --out " + d.file("a") +
                       " --set gm.read.bytes_per_cycle=48")
              .status == 0);
  REQUIRE(harness::run("run " + t + " --timing-only -q --out " + d.file("b") +
                       " --set gm.read.bytes_per_cycle=256 --set mte1.sparse.bytes_per_cycle=256")
              .status == 0);
}

}  // namespace

TEST_CASE("diff text: bound pipe, changed config keys, changed metrics", "[sweep][diff]") {
  StudyDir d;
  two_runs(d);
  const auto a = read_json(d.file("a/stats.json")), b = read_json(d.file("b/stats.json"));
  const auto r = harness::run("diff " + d.file("a") + " " + d.file("b"));
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK_THAT(r.out, Contains("bound pipe: " + a["summary"]["bound_pipe"].get<std::string>() + " -> " +
                             b["summary"]["bound_pipe"].get<std::string>()));
  CHECK_THAT(r.out, Contains("config gm.read.bytes_per_cycle: 48 -> 256") &&
                        Contains("config mte1.sparse.bytes_per_cycle: 128 -> 256"));
  const uint64_t ca = a["cycles"], cb = b["cycles"];
  CHECK_THAT(r.out, Contains("cycles ") && Contains(std::to_string(ca)) && Contains(std::to_string(cb)) &&
                        Contains("-" + std::to_string(ca - cb)));
  CHECK_THAT(r.out, Contains("pipes.MTE2.busy_cycles"));
  CHECK(r.out.find("pipes.MTE2.instructions") == std::string::npos);  // unchanged: listed with --all only
  const std::string all = harness::run("diff " + d.file("a") + " " + d.file("b") + " --all").out;
  CHECK_THAT(all, Contains("pipes.MTE2.instructions"));
  // One core each: cores[0] is the top level again, so it is not listed a second time.
  REQUIRE(a["cores"].size() == 1);
  CHECK_THAT(r.out, !Contains("cores[0]"));
  CHECK_THAT(all, !Contains("cores[0]"));
  CHECK_THAT(harness::run("diff " + d.file("a") + " " + d.file("b") + " --csv").out, !Contains("cores[0]"));
}

TEST_CASE("diff of two-core runs lists each core's figures", "[sweep][diff]") {
  StudyDir d;
  const std::string k = std::string(AICORE_TRACES_DIR) + "/multicore_tiled_sparse/kernel.yaml";
  REQUIRE(harness::run("run " + k + " --timing-only -q --out " + d.file("a")).status == 0);
  REQUIRE(harness::run("run " + k + " --timing-only -q --out " + d.file("b") +
                       " --set chip.hbm.bytes_per_cycle=32")
              .status == 0);
  const auto r = harness::run("diff " + d.file("a") + " " + d.file("b"));
  CHECK(r.status == 0);
  CHECK_THAT(r.out, Contains("cores[0].cycles") && Contains("cores[1].cycles"));
}

TEST_CASE("diff --csv: every field with absolute and relative change", "[sweep][diff]") {
  StudyDir d;
  two_runs(d);
  const auto r = harness::run("diff " + d.file("a/stats.json") + " " + d.file("b/stats.json") + " --csv");
  CHECK(r.status == 0);
  d.write("d.csv", r.out);
  std::vector<std::string> header;
  const auto rows = read_csv(d.file("d.csv"), &header);
  CHECK(header ==
        std::vector<std::string>{"section", "name", "a", "b", "abs_change", "rel_change", "changed"});
  const auto a = read_json(d.file("a/stats.json")), b = read_json(d.file("b/stats.json"));
  bool cycles = false, instructions = false, config = false;
  for (const auto& row : rows) {
    if (row.at("section") == "metric" && row.at("name") == "cycles") {
      cycles = true;
      const double ca = a["cycles"], cb = b["cycles"];
      CHECK(std::stod(row.at("abs_change")) == cb - ca);
      CHECK(std::stod(row.at("rel_change")) == Approx(100 * (cb - ca) / ca).margin(0.05));
      CHECK(row.at("changed") == "1");
    }
    if (row.at("name") == "instructions") {
      instructions = true;
      CHECK(row.at("changed") == "0");
      CHECK(row.at("abs_change") == "+0");
    }
    if (row.at("section") == "config" && row.at("name") == "gm.read.bytes_per_cycle") {
      config = true;
      CHECK(row.at("a") == "48");
      CHECK(row.at("b") == "256");
    }
  }
  CHECK(cycles);
  CHECK(instructions);
  CHECK(config);
}

TEST_CASE("diff of a run with itself changes nothing; a sweep's points diff too", "[sweep][diff]") {
  StudyDir d;
  d.write("s.yaml", "traces: [seed_sparse_16x64x16.trace]\ngrid:\n  cube.head_cycles: [0, 40]\n");
  REQUIRE(d.sweep("s.yaml").status == 0);
  const auto rows = read_csv(d.file("out/results.csv"));
  const std::string p0 = d.file("out/points/" + rows[0].at("id")),
                    p1 = d.file("out/points/" + rows[1].at("id"));
  auto r = harness::run("diff " + p0 + " " + p0);
  CHECK(r.status == 0);
  CHECK_THAT(r.out, Contains("(unchanged)") && Contains("0 metric(s) changed"));
  r = harness::run("diff " + p0 + " " + p1);
  CHECK(r.status == 0);  // a difference is a result, not a failure
  CHECK_THAT(r.out, Contains("config cube.head_cycles: 0 -> 40"));
}

TEST_CASE("diff errors exit 2", "[sweep][diff]") {
  StudyDir d;
  two_runs(d);
  auto r = harness::run("diff " + d.file("a"));
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Contains("expected two runs"));
  r = harness::run("diff " + d.file("a") + " " + d.file("nope"));
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Contains("nope: error: no such file"));
  d.write("x.json", "{\"a\": 1}");
  r = harness::run("diff " + d.file("a") + " " + d.file("x.json"));
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Contains("x.json: error: not a stats.json"));
  d.write("y.json", "{\"a\": ");
  r = harness::run("diff " + d.file("y.json") + " " + d.file("a"));
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Contains("y.json: error: not valid JSON"));
}
