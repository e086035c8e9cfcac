// Running studies end to end: the results table against the runs' own stats.json and against an
// independent `aicore-sim run`, the summary, failing points, timeouts, gen: cases, run_args.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <regex>

#include "sweep_harness.hpp"

using Catch::Contains;
using sweep_test::read_csv;
using sweep_test::read_json;
using sweep_test::StudyDir;
namespace fs = std::filesystem;

TEST_CASE("a two-key study: one row per point, equal to the points' own runs", "[sweep][run]") {
  StudyDir d;
  d.write("s.yaml",
          "name: two_keys\n"
          "traces: [seed_sparse_16x64x16.trace]\n"
          "grid:\n"
          "  gm.read.bytes_per_cycle: [64, 256, 384]\n"
          "  cube.head_cycles: [0, 16]\n");
  const auto r = d.sweep("s.yaml");
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.out, Contains("sweep two_keys: 6 points: 6 run, 0 skipped (done before); 6 ok, 0 failed"));
  CHECK_THAT(r.out,
             Contains("best   point") && Contains("worst  point") && Contains("sensitivity of cycles"));
  CHECK_THAT(r.out,
             Contains("s.yaml:4:3: warning: gm.read.bytes_per_cycle is capped in 2 of 6 configurations: "
                      "gm.read.bytes_per_cycle = 384 is above gm.shared_bytes_per_cycle = 256"));
  CHECK_THAT(r.err, Contains("sweep: 6/6 points (100%)"));  // plain progress lines off a terminal

  std::vector<std::string> header;
  const auto rows = read_csv(d.file("out/results.csv"), &header);
  REQUIRE(rows.size() == 6);
  for (const char* col :
       {"point", "id", "trace", "config", "gm.read.bytes_per_cycle", "cube.head_cycles", "status",
        "exit_code", "cycles", "time_us", "bound_pipe", "busy_cycles.MTE2", "busy_ratio.MTE2",
        "stall_cycles.flag", "mac_utilisation", "bytes.GM->L1", "message"})
    CHECK(std::find(header.begin(), header.end(), col) != header.end());
  for (const auto& row : rows) {
    INFO("point " << row.at("point"));
    CHECK(row.at("status") == "ok");
    CHECK(row.at("exit_code") == "0");
    const auto stats = read_json(d.file("out/points/" + row.at("id") + "/stats.json"));
    CHECK(row.at("cycles") == std::to_string(stats["cycles"].get<uint64_t>()));
    CHECK(row.at("bound_pipe") == stats["summary"]["bound_pipe"].get<std::string>());
    CHECK(row.at("busy_cycles.MTE2") ==
          std::to_string(stats["pipes"]["MTE2"]["busy_cycles"].get<uint64_t>()));
    CHECK(row.at("bytes.GM->L1") == std::to_string(stats["paths"]["GM->L1"]["bytes"].get<uint64_t>()));
    CHECK(stats["config"]["gm"]["read"]["bytes_per_cycle"].get<double>() ==
          std::stod(row.at("gm.read.bytes_per_cycle")));
  }
  // Point 3 (gm.read 256, head 16) by hand, as a user would run it (on the study's config).
  const auto one =
      harness::run("run " + d.file("seed_sparse_16x64x16.trace") + " --out " + d.file("one") +
                   " -q --config atlas-a2 --set gm.read.bytes_per_cycle=256 --set cube.head_cycles=16");
  REQUIRE(one.status == 0);
  CHECK(rows[3].at("gm.read.bytes_per_cycle") == "256");
  CHECK(rows[3].at("cycles") ==
        std::to_string(read_json(d.file("one/stats.json"))["cycles"].get<uint64_t>()));
  // Past the cap nothing changes: 384 runs exactly as 256.
  CHECK(rows[2].at("cycles") == rows[4].at("cycles"));
  CHECK(rows[3].at("cycles") == rows[5].at("cycles"));

  const auto j = read_json(d.file("out/results.json"));
  CHECK(j["points"] == 6);
  CHECK(j["done"] == 6);
  CHECK(j["swept"] == nlohmann::json({"gm.read.bytes_per_cycle", "cube.head_cycles"}));
  CHECK(j["rows"].size() == 6);
  CHECK(fs::exists(d.file("out/study.yaml")));

  // The summary names the best and worst points by number and id, and the diff of the two runs.
  const std::smatch best = [&] {
    std::smatch m;
    std::regex_search(r.out, m, std::regex(R"(best   point (\d+) \(id ([0-9a-f]{16})\))"));
    return m;
  }();
  REQUIRE(best.size() == 3);
  CHECK(rows.at(std::stoul(best[1])).at("id") == best[2].str());
  std::smatch cmp;
  REQUIRE(std::regex_search(r.out, cmp, std::regex("compare them: aicore-sim (diff \\S+ \\S+)\n")));
  CHECK_THAT(cmp[1].str(), Contains("/points/" + best[2].str() + " "));
  const auto diff = harness::run(cmp[1].str());
  CHECK(diff.status == 0);
  CHECK_THAT(diff.out, Contains("cycles"));
}

TEST_CASE("quiet (-q) silences the progress, not the summary", "[sweep][run]") {
  StudyDir d;
  d.write("s.yaml", "traces: [seed_sparse_16x64x16.trace]\ngrid:\n  cube.head_cycles: [0, 4]\n");
  const auto r = d.sweep("s.yaml", "-q -j 1");
  CHECK(r.status == 0);
  CHECK(r.err.find("sweep:") == std::string::npos);
  CHECK_THAT(r.out, Contains("2 points: 2 run") && Contains("1 local worker"));
}

TEST_CASE("failing points are recorded with their status and message; the study goes on", "[sweep][run]") {
  StudyDir d;
  d.write("s.yaml",
          "traces: [seed_sparse_16x64x16.trace]\n"
          "timing_only: true\n"
          "grid:\n"
          "  buffers.l0a_bytes: [65536, 512]\n"
          "  buffers.gm_max_bytes: [4294967296, 1000]\n");
  const auto r = d.sweep("s.yaml");
  INFO(r.out << r.err);
  CHECK(r.status == 3);
  CHECK_THAT(r.out, Contains("1 ok, 3 failed") && Contains("failed: 3 point(s) (bad_input 2, fault 1)"));
  const auto rows = read_csv(d.file("out/results.csv"));
  REQUIRE(rows.size() == 4);
  CHECK(rows[0].at("status") == "ok");
  CHECK(rows[1].at("status") == "bad_input");
  CHECK(rows[1].at("exit_code") == "2");
  CHECK_THAT(rows[1].at("message"), Contains("seed_sparse_16x64x16.trace:") && Contains("gm_max_bytes"));
  CHECK(rows[2].at("status") == "fault");
  CHECK(rows[2].at("exit_code") == "3");
  CHECK_THAT(rows[2].at("message"), Contains("LoadData") && Contains("L0A"));
  CHECK(rows[3].at("status") == "bad_input");
}

TEST_CASE("an .expect mismatch is a mismatch point", "[sweep][run]") {
  StudyDir d;
  std::string trace = sweep_test::slurp(d.file("seed_sparse_16x64x16.trace"));
  trace.replace(trace.find("c_golden.bin"), 12, "c_wrong.bin");
  d.write("wrong.trace", trace);
  d.write("c_wrong.bin", std::string(1024, '\1'));
  d.write("s.yaml", "traces: [wrong.trace]\ngrid:\n  cube.head_cycles: [0, 4]\n");
  const auto r = d.sweep("s.yaml");
  CHECK(r.status == 3);
  const auto rows = read_csv(d.file("out/results.csv"));
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].at("status") == "mismatch");
  CHECK(rows[0].at("exit_code") == "1");
  CHECK_THAT(rows[0].at("message"),
             Contains("wrong.trace:") && Contains("tensor c differs from") && Contains("c_wrong.bin"));
}

TEST_CASE("a point whose checker reports errors is a check_error point", "[sweep][run]") {
  StudyDir d;
  d.write(
      "racy.trace",
      ".gm a size=1024\nDataCopy dst=L1:0 src=a blockLen=16\nLoadData dst=L0A:0 src=L1:0 repeatTimes=1\n");
  d.write("s.yaml", "traces: [racy.trace]\ngrid:\n  cube.head_cycles: [0, 4]\n");
  const auto r = d.sweep("s.yaml");
  INFO(r.out << r.err);
  CHECK(r.status == 3);
  CHECK_THAT(r.out, Contains("failed: 2 point(s) (check_error 2); first: point 0 (id "));
  const auto rows = read_csv(d.file("out/results.csv"));
  REQUIRE(rows.size() == 2);
  for (const auto& row : rows) {
    CHECK(row.at("status") == "check_error");
    CHECK(row.at("exit_code") == "3");
    CHECK_THAT(row.at("message"), Contains("racy.trace:3: error: data race (RAW)"));
    CHECK(read_json(d.file("out/points/" + row.at("id") + "/stats.json"))["status"] == "check_error");
  }
}

TEST_CASE("a point past its timeout is killed and recorded as timeout", "[sweep][run]") {
  StudyDir d;
  // The tiled trace computes 512 x 1024 x 512 in full mode: far longer than 5 ms.
  d.write(
      "s.yaml",
      "traces: [tiled/tiled_sparse_512x1024x512.trace]\ntimeout: 0.005\ngrid:\n  cube.head_cycles: [0, 4]\n");
  const auto r = d.sweep("s.yaml");
  CHECK(r.status == 3);
  const auto rows = read_csv(d.file("out/results.csv"));
  REQUIRE(rows.size() == 2);
  for (const auto& row : rows) {
    CHECK(row.at("status") == "timeout");
    CHECK_THAT(row.at("message"), Contains("no result within the 0.005 s timeout"));
  }
}

TEST_CASE("repeated points run once", "[sweep][run]") {
  StudyDir d;
  d.write("s.yaml", "traces: [seed_sparse_16x64x16.trace]\ngrid:\n  clock_mhz: [1850, 1850.0, 1000]\n");
  const auto r = d.sweep("s.yaml");
  CHECK(r.status == 0);
  CHECK_THAT(r.out, Contains("3 points: 2 run") && Contains("1 point(s) repeat another point's run"));
  const auto rows = read_csv(d.file("out/results.csv"));
  REQUIRE(rows.size() == 3);
  CHECK(rows[0].at("id") == rows[1].at("id"));
  CHECK(rows[0].at("cycles") == rows[1].at("cycles"));
}

TEST_CASE("gen: cases are generated, run bit-exact, and swept like keys", "[sweep][run]") {
  StudyDir d;
  d.write("s.yaml",
          "gen:\n  shape: [[32, 64, 32], [64, 128, 48]]\n  kind: [sparse, dense]\n"
          "grid:\n  mte1.to_l0a.bytes_per_cycle: [64, 256]\n");
  const auto r = d.sweep("s.yaml");
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.out, Contains("8 points: 8 run") && Contains("8 ok"));
  const auto rows = read_csv(d.file("out/results.csv"));
  REQUIRE(rows.size() == 8);
  CHECK(rows[0].at("gen.shape") == "32x64x32");
  CHECK(rows[0].at("gen.kind") == "sparse");
  CHECK(rows[0].at("trace") == "gen/sparse_32x64x32/sparse_32x64x32.trace");
  CHECK(rows[7].at("gen.kind") == "dense");
  CHECK(fs::exists(d.file("out/gen/dense_64x128x48/c_golden.bin")));
  // Each point checked its .expect against the golden: a mismatch would make it "mismatch".
  for (const auto& row : rows) {
    const auto stats =
        nlohmann::json::parse(sweep_test::slurp(d.file("out/points/" + row.at("id") + "/stats.json")));
    CHECK(stats["status"] == "completed");
    CHECK(stats["timing_only"] == false);
  }
  CHECK_THAT(r.out, Contains("gen.shape") && Contains("gen.kind"));  // sensitivity lines
  const auto stamp = fs::last_write_time(d.file("out/gen/sparse_32x64x32/sparse_32x64x32.trace"));
  const auto again = d.sweep("s.yaml");
  CHECK_THAT(again.out, Contains("0 run, 8 skipped"));
  CHECK(fs::last_write_time(d.file("out/gen/sparse_32x64x32/sparse_32x64x32.trace")) == stamp);
}

TEST_CASE("a list of configs is an axis; run_args reach every run", "[sweep][run]") {
  StudyDir d;
  d.write("s.yaml",
          "traces: [seed_sparse_16x64x16.trace]\nconfig: [atlas-a2, atlas-a3]\nrun_args: [--instr-log]\n");
  const auto r = d.sweep("s.yaml");
  REQUIRE(r.status == 0);
  const auto rows = read_csv(d.file("out/results.csv"));
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].at("config") == "atlas-a2");
  CHECK(rows[1].at("config") == "atlas-a3");
  CHECK_THAT(r.out, Contains("  config "));
  for (const auto& row : rows) CHECK(fs::exists(d.file("out/points/" + row.at("id") + "/instr.csv")));
}

TEST_CASE("the Slurm executor without Slurm installed exits 2 and says so", "[sweep][run]") {
  StudyDir d;
  d.write("s.yaml", "traces: [seed_sparse_16x64x16.trace]\n");
  // A PATH with nothing in it: no sbatch.
  const auto r = sweep_test::run_env(
      "PATH=" + d.path(), "sweep " + d.file("s.yaml") + " --out " + d.file("out") + " --executor slurm");
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Contains("--executor slurm: 'sbatch' is not in PATH"));
}
