// `run --check`: on by default, errors exit 3 once every output is written, warn keeps the exit
// status, none turns it off, a bad value is a command-line error, and the checker never changes
// the simulated timing.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "harness.hpp"

using Catch::Contains;
using harness::TempDir;

namespace {

// A race (the LoadData reads L1 the DataCopy may still be writing) and a .out file.
const char* kRacy =
    ".gm a size=1024\n"
    ".gm c size=1024\n"
    ".out a file=a_out.bin\n"
    "DataCopy dst=L1:0 src=a blockLen=16\n"
    "LoadData dst=L0A:0 src=L1:0 repeatTimes=1\n";

nlohmann::json checks(const TempDir& d) {
  std::ifstream f(d.file("out/checks.json"));
  return nlohmann::json::parse(f);
}

}  // namespace

TEST_CASE("check errors exit 3 after every output is written, the report first on stderr", "[cli][check]") {
  TempDir d;
  const auto r = harness::run_trace(d, kRacy, "--instr-log");
  CHECK(r.status == 3);
  // The first line is the report, "FILE:LINE: error: ...", so editors jump to it.
  CHECK(r.err.rfind(d.file("t.trace") + ":5: error: data race (RAW) on L1 [0x0, 0x200): LoadData (MTE1)",
                    0) == 0);
  CHECK_THAT(r.err, Contains("  fix: SetFlag<MTE2_MTE1> after line 4 and WaitFlag<MTE2_MTE1> before line 5"));
  CHECK_THAT(r.err, Contains("check: 1 error(s), 0 warning(s)"));
  CHECK_THAT(r.err, Contains("check: every report is in " + d.file("out/checks.json")));
  // Every output is still written.
  CHECK(std::filesystem::exists(d.file("out/a_out.bin")));
  CHECK(std::filesystem::exists(d.file("out/instr.csv")));
  // stats.json says why the run failed: the checker, not the simulation.
  CHECK(harness::stats(d)["status"] == "check_error");
  CHECK(harness::stats(d)["completed"] == false);
  const auto j = checks(d);
  CHECK(j["mode"] == "error");
  CHECK(j["errors"] == 1);
  REQUIRE(j["reports"].size() == 1);
  CHECK(j["reports"][0]["kind"] == "race");
  CHECK(j["reports"][0]["hazard"] == "RAW");
  CHECK(j["reports"][0]["buffer"] == "L1");
  CHECK(j["reports"][0]["first"]["line"] == 4);
  CHECK(j["reports"][0]["second"]["line"] == 5);
  CHECK(j["reports"][0]["fix"]["event"] == "MTE2_MTE1");
  CHECK(j["reports"][0]["timing"].contains("observed"));
}

TEST_CASE("check mode warn reports without failing, none checks nothing", "[cli][check]") {
  TempDir w;
  const auto warn = harness::run_trace(w, kRacy, "--check warn");
  CHECK(warn.status == 0);
  CHECK_THAT(warn.err, Contains("error: data race (RAW)"));
  CHECK(checks(w)["mode"] == "warn");
  CHECK(harness::stats(w)["status"] == "completed");  // warn: reported, not a failure
  TempDir n;
  const auto none = harness::run_trace(n, kRacy, "--check none");
  CHECK(none.status == 0);
  CHECK(none.err.empty());
  CHECK(checks(n)["mode"] == "none");
  CHECK(checks(n)["reports"].empty());
  // A clean run prints nothing about the check, and still writes checks.json.
  TempDir c;
  const auto clean = harness::run_trace(c, ".gm a size=1024\nDataCopy dst=L1:0 src=a blockLen=16\n", "-q");
  CHECK(clean.status == 0);
  CHECK(clean.err.empty());
  CHECK(checks(c)["reports"].empty());
}

TEST_CASE("a bad --check value is a command-line error naming the nearest mode", "[cli][check][errors]") {
  TempDir d;
  const auto r = harness::run_trace(d, kRacy, "--check eror");
  CHECK(r.status == 2);
  CHECK(r.err ==
        "aicore-sim run: error: --check must be error, warn or none, not 'eror'; did you mean 'error'?\n");
  CHECK_FALSE(std::filesystem::exists(d.file("out/stats.json")));  // nothing ran
}

TEST_CASE("a race explains an .expect mismatch: exit 3, the report before the mismatch", "[cli][check]") {
  TempDir d;
  d.write("zero.bin", std::string(512, '\0'));
  const auto r = harness::run_trace(d,
                                    ".gm a size=512\n.gm g size=512 file=zero.bin\n.expect g file=zero.bin\n"
                                    "DataCopy dst=L1:0 src=a blockLen=16\n"
                                    "LoadData dst=L0A:0 src=L1:0 repeatTimes=1\n");
  CHECK(r.status == 3);
  CHECK(r.err.find("error: data race") < r.err.size());
  CHECK(harness::stats(d)["status"] == "check_error");
}

TEST_CASE("the checker never changes timing: the same cycles with and without it", "[cli][check][timing]") {
  for (const char* t : {"tiled_sparse_512x1024x512/tiled_sparse_512x1024x512.trace",
                        "pair_dense_256x512x256/pair_dense_256x512x256.trace"}) {
    INFO(t);
    TempDir on, off;
    const std::string trace = std::string(AICORE_TRACES_DIR) + "/" + t;
    const auto a = harness::run("run " + trace + " --timing-only --instr-log --out " + on.file("out"));
    const auto b =
        harness::run("run " + trace + " --timing-only --instr-log --check none --out " + off.file("out"));
    REQUIRE(a.status == 0);
    REQUIRE(b.status == 0);
    CHECK(harness::stats(on)["cycles"] == harness::stats(off)["cycles"]);
    std::ifstream x(on.file("out/instr.csv")), y(off.file("out/instr.csv"));
    const std::string cx((std::istreambuf_iterator<char>(x)), {}),
        cy((std::istreambuf_iterator<char>(y)), {});
    CHECK(cx == cy);
  }
}

TEST_CASE("a deadlock: the model's fault, then the check's hints", "[cli][check][sync]") {
  TempDir d;
  const auto r = harness::run_trace(d,
                                    ".gm a size=512\nDataCopy dst=L1:0 src=a blockLen=16\n"
                                    "SetFlag event=MTE2_MTE1 id=1\nWaitFlag event=MTE2_MTE1 id=0\n");
  CHECK(r.status == 3);
  CHECK(r.err.rfind("aicore-sim: fault: ", 0) == 0);
  CHECK_THAT(r.err, Contains(":4: error: deadlock: WaitFlag<MTE2_MTE1>(0) can never pass"));
  CHECK_THAT(r.err,
             Contains("hint: SetFlag<MTE2_MTE1>(1) at line 3 is set and nothing waits for it: wrong id?"));
  CHECK(checks(d)["complete"] == false);
}

TEST_CASE("checks.json that cannot be written is a clear exit-2 error, after the reports",
          "[cli][check][errors]") {
  TempDir d;
  std::filesystem::create_directories(d.file("out"));
  std::filesystem::create_symlink("/dev/full", d.file("out/checks.json"));  // every write fails
  const auto r = harness::run_trace(d, kRacy);
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Contains("error: data race (RAW)") && Contains("cannot write checks.json (disk full?)"));
  TempDir f;  // with a fault, the fault's message still comes first
  std::filesystem::create_directories(f.file("out"));
  std::filesystem::create_symlink("/dev/full", f.file("out/checks.json"));
  const auto g = harness::run_trace(f, "LoadData dst=L0A:0xFE00 src=L1:0 repeatTimes=2\n");  // past L0A
  CHECK(g.status == 2);
  CHECK(g.err.rfind("aicore-sim: fault: ", 0) == 0);
  CHECK_THAT(g.err, Contains("cannot write checks.json (disk full?)"));
}
