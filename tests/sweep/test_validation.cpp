// A study is validated whole before anything runs: every error exits 2, names the study file's
// line:column (of the key, or of the value), says what is wrong and the nearest valid word, and
// leaves no output behind.
#include <catch2/catch.hpp>
#include <filesystem>

#include "sweep_harness.hpp"

using Catch::Contains;
using sweep_test::StudyDir;

namespace {

// Runs the study; expects exit 2, nothing run, and every fragment on stderr.
void expect_invalid(const StudyDir& d, const std::string& text, const std::vector<std::string>& fragments) {
  d.write("s.yaml", text);
  const auto r = d.sweep("s.yaml");
  INFO(text << "\n--- stderr:\n" << r.err);
  CHECK(r.status == 2);
  for (const auto& f : fragments) CHECK_THAT(r.err, Contains(f));
  CHECK_FALSE(std::filesystem::exists(d.file("out")));
}

}  // namespace

TEST_CASE("unknown study keys name line:column and the nearest key", "[sweep][validation]") {
  StudyDir d;
  expect_invalid(d, "traces: [seed_sparse_16x64x16.trace]\ntiming_onyl: true\n",
                 {"s.yaml:2:1: error: unknown study key 'timing_onyl'; did you mean 'timing_only'?"});
  expect_invalid(d, "traces: [seed_sparse_16x64x16.trace]\ngm.read.bytes_per_cycle: [64, 128]\n",
                 {"s.yaml:2:1: error: 'gm.read.bytes_per_cycle' is a config key: put it under set:"});
  expect_invalid(d, "traces: [seed_sparse_16x64x16.trace]\ntraces: [x.trace]\n",
                 {"s.yaml:2:1: error: duplicate key 'traces'"});
}

TEST_CASE("unknown config keys point into the key and suggest the nearest", "[sweep][validation]") {
  StudyDir d;
  expect_invalid(
      d,
      "traces: [seed_sparse_16x64x16.trace]\n"
      "grid:\n"
      "  gm.read.bytes_per_cycl: [64, 128]\n"
      "set:\n"
      "  cube.head_cycle: 2\n",
      {"s.yaml:3:11: error: unknown config key 'gm.read.bytes_per_cycl'; did you mean "
       "'gm.read.bytes_per_cycle'?",
       "s.yaml:5:8: error: unknown config key 'cube.head_cycle'; did you mean 'cube.head_cycles'?"});
  expect_invalid(d, "traces: [seed_sparse_16x64x16.trace]\ngrid:\n  mte1: [1, 2]\n",
                 {"s.yaml:3:3: error: 'mte1' is a group of keys, not a value"});
}

TEST_CASE("out-of-range and malformed values name the value's line:column", "[sweep][validation]") {
  StudyDir d;
  expect_invalid(d,
                 "traces: [seed_sparse_16x64x16.trace]\n"
                 "grid:\n"
                 "  gm.read.bytes_per_cycle: [64, 0, abc]\n"
                 "  clock_mhz: [1000, 1e9]\n",
                 {"s.yaml:3:33: error: value 0 of 'gm.read.bytes_per_cycle' is out of range",
                  "s.yaml:3:36: error: key 'gm.read.bytes_per_cycle' expects a number", "got 'abc'",
                  "s.yaml:4:21: error: value 1e9 of 'clock_mhz' is out of range: must be <= 100000"});
}

TEST_CASE("a combination the config refuses names the value and the point", "[sweep][validation]") {
  StudyDir d;
  // L0B of 128 KiB needs a sparse index buffer of at least 32 KiB; the preset has 16 KiB.
  expect_invalid(
      d,
      "traces: [seed_sparse_16x64x16.trace]\n"
      "grid:\n"
      "  buffers.l0b_bytes: [65536, 131072]\n"
      "  cube.head_cycles: [0, 4]\n",
      {"s.yaml:3:30: error: buffers.sparse_index_bytes (16384) must be at least buffers.l0b_bytes / 4",
       "(in the point buffers.l0b_bytes=131072, cube.head_cycles=0)"});
}

TEST_CASE("zip lists of unequal length, repeated values and a key fixed and swept", "[sweep][validation]") {
  StudyDir d;
  expect_invalid(d,
                 "traces: [seed_sparse_16x64x16.trace]\n"
                 "zip:\n"
                 "  mte1.to_l0a.bytes_per_cycle: [64, 128, 256]\n"
                 "  mte1.to_l0b.bytes_per_cycle: [64, 128]\n",
                 {"s.yaml:4:32: error: zip: 'mte1.to_l0b.bytes_per_cycle' has 2 values but "
                  "'mte1.to_l0a.bytes_per_cycle' has 3"});
  expect_invalid(d,
                 "traces: [seed_sparse_16x64x16.trace]\n"
                 "set: {cube.head_cycles: 4}\n"
                 "grid:\n"
                 "  cube.head_cycles: [1, 2]\n"
                 "  clock_mhz: [1000, 1000]\n",
                 {"s.yaml:4:3: error: config key 'cube.head_cycles' is already fixed at ",
                  "s.yaml:2:7; a key is", "s.yaml:5:21: error: grid: 'clock_mhz': '1000' is listed twice"});
  expect_invalid(
      d, "traces: [seed_sparse_16x64x16.trace]\ngrid:\n  clock_mhz: 1000\n",
      {"s.yaml:3:14: error: grid: 'clock_mhz' has a single value; give a list to sweep, or move it to set:"});
}

TEST_CASE("missing traces and configs name the entry and the nearest file or preset", "[sweep][validation]") {
  StudyDir d;
  expect_invalid(d, "traces: [seed_sparse_16x64x16.trace, seed_sparse_16x64x6.trace]\n",
                 {"s.yaml:1:38: error: trace 'seed_sparse_16x64x6.trace' not found",
                  "did you mean 'seed_sparse_16x64x16.trace'?"});
  expect_invalid(d, "traces: [seed_sparse_16x64x16.trace]\nconfig: [atlas-a2, atlas-a4, mine.yaml]\n",
                 {"s.yaml:2:20: error: config 'atlas-a4' does not load:", "did you mean 'atlas-a2'?",
                  "s.yaml:2:30: error: config 'mine.yaml' does not load:", "no such file"});
  expect_invalid(d, "config: atlas-a2\n", {"s.yaml:1:1: error: the study names nothing to run"});
}

TEST_CASE("malformed YAML, an empty study and wrong types", "[sweep][validation]") {
  StudyDir d;
  expect_invalid(d, "traces: [seed_sparse_16x64x16.trace\ngrid: {\n", {"s.yaml:", "error: malformed YAML"});
  expect_invalid(d, "", {"s.yaml:1:1: error: empty study file"});
  expect_invalid(d, "- a\n- b\n", {"s.yaml:1:1: error: a study must be a mapping"});
  expect_invalid(d, "traces: [seed_sparse_16x64x16.trace]\ntiming_only: maybe\ntimeout: -1\n",
                 {"s.yaml:2:14: error: timing_only must be true or false",
                  "s.yaml:3:10: error: timeout must be a number of seconds per point"});
  expect_invalid(d, "traces: [seed_sparse_16x64x16.trace]\nrun_args: [--out, x, --instr-log]\n",
                 {"s.yaml:2:12: error: run_args: '--out' is set by the sweep itself"});
}

TEST_CASE("ranges: bad fields and endless or huge ranges", "[sweep][validation]") {
  StudyDir d;
  expect_invalid(
      d, "traces: [seed_sparse_16x64x16.trace]\ngrid:\n  cube.head_cycles: {from: 0, to: 8, stpe: 2}\n",
      {"s.yaml:3:38: error: unknown key 'stpe' in grid: 'cube.head_cycles' range; did you mean 'step'?"});
  expect_invalid(
      d, "traces: [seed_sparse_16x64x16.trace]\ngrid:\n  cube.head_cycles: {from: 8, to: 0, step: 2}\n",
      {"s.yaml:3:21: error: grid: 'cube.head_cycles' range is empty or endless"});
  expect_invalid(d,
                 "traces: [seed_sparse_16x64x16.trace]\ngrid:\n"
                 "  cube.head_cycles: {from: 0, to: 9999, step: 1}\n"
                 "  issue.sync_cycles: {from: 0, to: 9999, step: 1}\n",
                 {"s.yaml:1:1: error: the study has 100000000 points; at most 1000000"});
}

TEST_CASE("gen blocks are checked with the generator's own planner", "[sweep][validation]") {
  StudyDir d;
  expect_invalid(d, "gen:\n  shape: [64, 64, 64]\n  knid: sparse\n",
                 {"s.yaml:3:3: error: unknown gen key 'knid'; did you mean 'kind'?"});
  expect_invalid(
      d, "gen:\n  shape: [64, 64, 64]\n  kind: [sparse, dens]\n",
      {"s.yaml:3:18: error: gen kind must be sparse (4:2) or dense, not 'dens'; did you mean 'dense'?"});
  expect_invalid(d, "gen:\n  shape: [64, 62, 64]\n",
                 {"s.yaml:2:3: error: gen: a sparse (4:2) case needs K a multiple of 4"});
  expect_invalid(d, "gen:\n  shape: [64, 0, 64]\n",
                 {"s.yaml:2:15: error: gen shape: K must be an integer in 1.."});
  expect_invalid(d, "gen:\n  kind: dense\n", {"s.yaml:2:3: error: gen needs shape: [M, K, N]"});
}

TEST_CASE("sweep command-line errors exit 2", "[sweep][validation]") {
  StudyDir d;
  d.write("s.yaml", "traces: [seed_sparse_16x64x16.trace]\n");
  auto r = harness::run("sweep");
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Contains("missing STUDY"));
  r = d.sweep("s.yaml", "-j 0");
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Contains("-j must be at least 1"));
  r = d.sweep("s.yaml", "--executor pbs");
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Contains("--executor must be local or slurm, not 'pbs'"));
  r = d.sweep("s.yaml", "--partition debug");
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Contains("need --executor slurm"));
  r = d.sweep("s.yaml", "--plto");
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Contains("unknown option '--plto'; did you mean '--plot'?"));
  r = d.sweep("nope.yaml");
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Contains("nope.yaml: error: cannot open the study: no such file"));
}

TEST_CASE("a dry run validates and lists the points without running any", "[sweep][validation]") {
  StudyDir d;
  d.write("s.yaml",
          "traces: [seed_sparse_16x64x16.trace]\ngrid:\n  gm.read.bytes_per_cycle: [64, 384]\n"
          "  cube.head_cycles: {from: 0, to: 8, step: 4}\n");
  const auto r = d.sweep("s.yaml", "--dry-run");
  CHECK(r.status == 0);
  CHECK_THAT(r.out, Contains("6 point(s) = 1 input(s) x 6 configuration(s)") &&
                        Contains("grid cube.head_cycles: 0 4 8") &&
                        Contains("s.yaml:3:3: warning: gm.read.bytes_per_cycle is capped in 3 of 6"));
  CHECK_FALSE(std::filesystem::exists(d.file("out")));
}
