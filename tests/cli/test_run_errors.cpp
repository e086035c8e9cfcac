// Every exit-1, exit-2 and exit-3 class of `aicore-sim run`, with the message shape.
#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>

#include "harness.hpp"

using Catch::Contains;
using harness::TempDir;

TEST_CASE("bad command lines exit 2 with a suggestion", "[cli][errors]") {
  auto r = harness::run("runn x.trace");
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Contains("unknown command 'runn'") && Contains("did you mean 'run'"));
  r = harness::run("run x.trace --time-only");
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Contains("unknown option") && Contains("--timing-only"));
  r = harness::run("run");
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Contains("missing TRACE"));
  r = harness::run("");
  CHECK(r.status == 2);
}

TEST_CASE("a missing trace file exits 2 naming it", "[cli][errors]") {
  TempDir d;
  const auto r = harness::run("run " + d.file("nope.trace") + " --out " + d.file("out"));
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Contains("nope.trace"));
}

TEST_CASE("trace parse errors exit 2 with file:line:column and the nearest mnemonic", "[cli][errors]") {
  TempDir d;
  const auto r = harness::run_trace(d, "# comment\nLoadDta dst=L0A:0 src=L1:0 repeatTimes=1\n");
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Contains("t.trace:2:1: error:") && Contains("LoadData"));
  CHECK(harness::stats(d)["status"] == "input_error");
}

TEST_CASE("field values the parser refuses exit 2 at the value, before anything runs", "[cli][errors]") {
  struct Case {
    const char* trace;
    const char* where;  // line:column of the value
    const char* message;
  };
  const Case cases[] = {
      {"SetFlag event=MTE2_MTE1 id=8\n", "1:28: error: ", "out of range for u8 field id (0..7)"},
      {"SetFlag event=MTE2_MTE1 id=0\nWaitFlag event=MTE2_MTE1 id=9\n",
       "2:29: error: ", "value '9' out of range for u8 field id (0..7)"},
      {".gm w size=1024\nDataCopy dst=L1:0 src=w blockLen=32\n"
       "LoadDataWithSparse dst=L0B:0 src=L1:0 idx=L1:512 repeatTimes=1 srcStride=1\n",
       "3:74: error: ", "srcStride is unused by LoadDataWithSparse and must be 0, got '1'"},
      {"LoadDataWithSparse dst=L0B:0 src=L1:0 idx=L1:512 repeatTimes=1 addrMode=2\n",
       "1:73: error: ", "addrMode is unused by LoadDataWithSparse and must be 0, got '2'"},
  };
  for (const auto& c : cases) {
    TempDir d;
    const auto r = harness::run_trace(d, c.trace);
    INFO(c.trace << "\n" << r.err);
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Catch::StartsWith(d.file("t.trace") + ":" + c.where) && Contains(c.message));
    CHECK(harness::stats(d)["status"] == "input_error");
  }
  // Zero is what the seed example writes, and runs.
  TempDir d;
  const auto r = harness::run_trace(
      d,
      "LoadDataWithSparse dst=L0B:0 src=L1:0 idx=L1:512 repeatTimes=1 srcStride=0 dstGap=0 "
      "ifTranspose=0 sid=0 addrMode=0\nSetFlag event=MTE1_M id=7\nWaitFlag event=MTE1_M id=7\n");
  CHECK(r.status == 0);
}

TEST_CASE("config errors exit 2: unknown --set key with a suggestion, unknown preset", "[cli][errors]") {
  TempDir d;
  auto r = harness::run_trace(d, "", "--set cube.head_cycle=3");
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Contains("cube.head_cycles"));
  r = harness::run_trace(d, "", "--config atlas-a4");
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Contains("atlas-a"));
}

TEST_CASE("a .gm larger than the configured limit is refused before allocation", "[cli][errors]") {
  TempDir d;
  const auto r = harness::run_trace(d, "\n.gm huge size=68719476736\n");
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Contains("t.trace:2:1: error:") && Contains("gm_max_bytes"));
}

TEST_CASE("what the text alone shows is wrong is a parse error at the field, exit 2", "[cli][errors]") {
  struct Case {
    const char* trace;
    const char* message;  // exactly, after "DIR/"
  };
  const Case cases[] = {
      {"LoadData dst=L0A:0 src=L1:0 repeatTimes=1\nLoadData dst=L0A:256 src=L1:0 repeatTimes=1\n",
       "t.trace:2:10: error: LoadData: misaligned operand: dst (L0A offset 256) must be 512-byte aligned"},
      {"\n\nSetFlag event=M_MTE3 id=0\n",
       "t.trace:3:9: error: SetFlag: illegal event pair: event M_MTE3 is not a legal pair on the Cube "
       "core"},
      {"Mmad dst=L0C:0 fm=L0A:0 filter=L0B:0 m=16 n=16 k=32 cmatrixInitVal=0 cmatrixSource=1 biasAddr=32\n",
       "t.trace:1:86: error: Mmad: misaligned operand: biasAddr (BT offset 32) must be 64-byte aligned"},
      {"MmadWithSparse dst=L0C:0 fm=L0A:0 filter=L0B:0 m=16 n=16 k=62\n",
       "t.trace:1:58: error: MmadWithSparse: invalid field: MmadWithSparse k (the original K) must be a "
       "multiple of 4 (got 62)"},
      {".gm c size=1048576\nFixpipe dst=c src=L0C:0 nSize=4096 mSize=16 srcStride=16 dstStride=4096\n",
       "t.trace:2:25: error: Fixpipe: invalid field: nSize must be in [1, 4095] (got 4096)"},
  };
  for (const auto& c : cases) {
    TempDir d;
    const auto r = harness::run_trace(d, c.trace);
    INFO(c.trace);
    CHECK(r.status == 2);
    CHECK(r.err == d.path() + "/" + c.message + "\n");
  }
}

TEST_CASE("run-time faults exit 3 naming the instruction, its line and the cycle", "[cli][faults]") {
  TempDir d;
  const auto r = harness::run_trace(d, "LoadData dst=L0A:0xFE00 src=L1:0 repeatTimes=2\n");
  INFO(r.err);
  CHECK(r.status == 3);
  CHECK_THAT(r.err, Contains("t.trace:1: LoadData") && Contains("at cycle") && Contains("out-of-bounds") &&
                        Contains("L0A"));
  CHECK(harness::stats(d)["status"] == "fault");
  CHECK(harness::stats(d)["completed"] == false);
}

TEST_CASE("after a fault, no uninitialised read of an instruction that never ran", "[cli][faults][check]") {
  // The second LoadData reads past L1 and faults; the Mmad after it reads the L0B the LoadData
  // would have written, but never runs: neither is an uninitialised read.
  TempDir d;
  const auto r = harness::run_trace(d,
                                    ".gm a size=1024\n"
                                    "DataCopy dst=L1:0 src=a blockLen=32\n"
                                    "SetFlag event=MTE2_MTE1 id=0\nWaitFlag event=MTE2_MTE1 id=0\n"
                                    "LoadData dst=L0A:0 src=L1:0 repeatTimes=1\n"
                                    "LoadData dst=L0B:0 src=L1:0x7FF00 repeatTimes=2\n"
                                    "SetFlag event=MTE1_M id=0\nWaitFlag event=MTE1_M id=0\n"
                                    "Mmad dst=L0C:0 fm=L0A:0 filter=L0B:0 m=16 n=16 k=32\n");
  INFO(r.err);
  CHECK(r.status == 3);
  CHECK_THAT(r.err, Contains("t.trace:6: LoadData") && Contains("out-of-bounds"));
  CHECK_THAT(r.err, !Contains("uninitialised read"));
  const auto checks = nlohmann::json::parse(test_support::slurp(d.file("out/checks.json")));
  CHECK(checks["complete"] == false);
  CHECK(checks["errors"] == 0);
}

TEST_CASE("an invalid sparse index (value 3) faults with its position", "[cli][faults]") {
  TempDir d;
  d.write("idx.bin", std::string(128, '\xff'));
  const std::string trace =
      ".gm idx size=128 file=idx.bin\n"
      "DataCopy dst=L1:0 src=idx blockLen=4\n"
      "SetFlag event=MTE2_MTE1 id=0\nWaitFlag event=MTE2_MTE1 id=0\n"
      "LoadDataWithSparse dst=L0B:0 src=L1:0x1000 idx=L1:0 repeatTimes=1\n"
      "SetFlag event=MTE1_M id=0\nWaitFlag event=MTE1_M id=0\n"
      "MmadWithSparse dst=L0C:0 fm=L0A:0 filter=L0B:0 m=16 n=16 k=64\n";
  const auto r = harness::run_trace(d, trace);
  CHECK(r.status == 3);
  CHECK_THAT(r.err,
             Contains("t.trace:8: MmadWithSparse") && Contains("invalid sparse index") && Contains("n=0"));
  // Timing-only runs never look at data, so the same trace completes (its Mmad reads an L0A
  // nothing loaded, which the race checker reports: --check warn keeps the exit status).
  TempDir t;
  t.write("idx.bin", std::string(128, '\xff'));
  CHECK(harness::run_trace(t, trace, "--timing-only --check warn").status == 0);
}

TEST_CASE("a second SetFlag with no WaitFlag between them is the checker's error; the model holds it",
          "[cli][faults][sync]") {
  TempDir d;
  auto r = harness::run_trace(d,
                              "SetFlag event=MTE2_MTE1 id=3\nSetFlag event=MTE2_MTE1 id=3\n"
                              "LoadData dst=L0A:0 src=L1:0 repeatTimes=100\n"
                              "WaitFlag event=MTE2_MTE1 id=3\nWaitFlag event=MTE2_MTE1 id=3\n");
  CHECK(r.status == 3);
  CHECK_THAT(r.err, Contains("t.trace:2: error: double SetFlag: SetFlag<MTE2_MTE1>(3) sets the flag again "
                             "with no WaitFlag of it since the SetFlag at line 1"));
  // The simulation itself runs to its end: the second set waits for the first WaitFlag to clear
  // the flag (a check error, not a fault).
  CHECK(harness::stats(d)["status"] == "check_error");
  CHECK(harness::stats(d)["sync"]["held_sets"] == 1);
  CHECK(harness::stats(d)["flags_left_set"] == 0);
  TempDir e;
  r = harness::run_trace(e, "SetFlag event=M_FIX id=0\nSetFlag event=M_FIX id=0\n");
  CHECK(r.status == 3);
  CHECK_THAT(r.err, Contains("t.trace:2: error: double SetFlag: SetFlag<M_FIX>(0)"));
}

TEST_CASE("a second SetFlag with no WaitFlag between them in program order is an error under any config",
          "[cli][faults][sync]") {
  // The WaitFlag comes after both SetFlags in program order. Whether the first set is consumed
  // before the second lands depends on bandwidths; the error must not.
  const std::string trace =
      "DataCopy dst=L1:0 src=a blockLen=32\n"
      "SetFlag event=MTE2_MTE1 id=0\n"
      "LoadData dst=L0A:0 src=L1:0 repeatTimes=64\n"
      "DataCopy dst=L1:0x800 src=a blockLen=32\n"
      "SetFlag event=MTE2_MTE1 id=0\n"
      "WaitFlag event=MTE2_MTE1 id=0\n"
      "WaitFlag event=MTE2_MTE1 id=0\n";
  for (const char* set : {"", "--set mte1.to_l0a.bytes_per_cycle=64", "--set gm.read.bytes_per_cycle=1"}) {
    TempDir d;
    const auto r = harness::run_trace(d, ".gm a size=4096\n" + trace, set);
    INFO(set << "\n" << r.err);
    CHECK(r.status == 3);
    CHECK_THAT(r.err,
               Contains("t.trace:6: error: double SetFlag: SetFlag<MTE2_MTE1>(0) sets the flag again with "
                        "no WaitFlag of it since the SetFlag at line 3"));
  }
}

TEST_CASE("a SetFlag landing on a flag still set is held until the WaitFlag clears it (t-1 / t)",
          "[cli][timing][sync]") {
  // Program order is right (set, wait, set), but MTE1 reaches its WaitFlag (released at R) only
  // after two long LoadDatas, while MTE2 fires the second set at F after a short DataCopy. F = R - 1:
  // held one cycle, and the PipeBarrier<PIPE_MTE2> after it waits for it to land; F = R: not held.
  auto trace = [](int block_len) {
    return ".gm a size=65536\n"
           "SetFlag event=MTE2_MTE1 id=0\n"
           "LoadData dst=L0A:0 src=L1:0 repeatTimes=128\n"
           "LoadData dst=L0A:0 src=L1:0 repeatTimes=25\n"
           "WaitFlag event=MTE2_MTE1 id=0\n"
           "DataCopy dst=L1:0x10000 src=a blockLen=" +
           std::to_string(block_len) +
           "\n"
           "SetFlag event=MTE2_MTE1 id=0\n"
           "PipeBarrier pipe=PIPE_MTE2\n"
           "WaitFlag event=MTE2_MTE1 id=0\n";
  };
  struct Case {
    int block_len;
    uint64_t held;  // F = R - held
  };
  for (const Case c : {Case{8, 1}, Case{10, 0}}) {
    TempDir d;
    const auto r = harness::run_trace(d, trace(c.block_len), "--check none --instr-log");
    INFO("blockLen " << c.block_len << "\n" << r.err);
    REQUIRE(r.status == 0);
    std::vector<std::string> h;
    uint64_t release = 0, fire = 0, barrier = 0;
    for (const auto& row : harness::csv_rows(d.file("out/instr.csv"), &h)) {
      const uint64_t line = harness::csv_u64(h, row, "line");
      if (line == 5) release = harness::csv_u64(h, row, "start_cycle");
      if (line == 7) fire = harness::csv_u64(h, row, "end_cycle");  // its own fire
      if (line == 8) barrier = harness::csv_u64(h, row, "start_cycle");
    }
    REQUIRE(fire + c.held == release);  // the setup: the boundary is where it is meant to be
    const auto s = harness::stats(d);
    CHECK(s["sync"]["held_sets"] == (c.held ? 1 : 0));
    CHECK(s["sync"]["held_set_cycles"] == c.held);
    CHECK(s["cores"][0]["sync"]["held_set_cycles"] == c.held);
    CHECK(barrier == release);  // held: the set lands at R, not at F
  }
}

TEST_CASE("SetFlag twice, PipeBarrier<PIPE_ALL>, WaitFlag twice hangs at the barrier, as documented",
          "[cli][faults][sync]") {
  TempDir d;
  const auto r = harness::run_trace(d,
                                    "SetFlag event=M_MTE1 id=0\n"
                                    "SetFlag event=M_MTE1 id=0\n"
                                    "PipeBarrier pipe=PIPE_ALL\n"
                                    "WaitFlag event=M_MTE1 id=0\n"
                                    "WaitFlag event=M_MTE1 id=0\n");
  CHECK(r.status == 3);
  CHECK_THAT(r.err, Contains("deadlock at cycle") &&
                        Contains("t.trace:3: PipeBarrier (instruction #2) waiting for every pipe to drain "
                                 "(PIPE_ALL); SetFlag<M_MTE1>(0) at ") &&
                        Contains("t.trace:2 is held: the flag set at ") &&
                        Contains("t.trace:1 is cleared only by the WaitFlag at ") &&
                        Contains("t.trace:4, after the PipeBarrier<PIPE_ALL> at ") &&
                        Contains("t.trace:2: error: double SetFlag"));
  CHECK(harness::stats(d)["status"] == "fault");
  // A barrier of the setting pipe only waits as long as the WaitFlag on MTE1 takes: no hang.
  TempDir e;
  const auto m = harness::run_trace(e,
                                    "SetFlag event=M_MTE1 id=0\n"
                                    "SetFlag event=M_MTE1 id=0\n"
                                    "PipeBarrier pipe=PIPE_M\n"
                                    "WaitFlag event=M_MTE1 id=0\n"
                                    "WaitFlag event=M_MTE1 id=0\n",
                                    "--check warn");
  CHECK(m.status == 0);
  CHECK(harness::stats(e)["status"] == "completed");
}

TEST_CASE("a deadlock's stats.json: cycles is the deadlock cycle and the flags still set are counted",
          "[cli][faults][sync]") {
  TempDir d;
  const auto r = harness::run_trace(d,
                                    "SetFlag event=MTE2_MTE1 id=5\n"
                                    "SetFlag event=M_FIX id=2\n"
                                    "LoadData dst=L0A:0 src=L1:0 repeatTimes=4\n"
                                    "WaitFlag event=MTE1_M id=2\n");
  REQUIRE(r.status == 3);
  const auto s = harness::stats(d);
  // The LoadData (8 cycles + 28 latency) is the last thing that runs, at cycle 2.
  CHECK_THAT(r.err, Contains("deadlock at cycle 38"));
  CHECK(s["cycles"] == 38);
  CHECK(s["flags_left_set"] == 2);
  CHECK(s["cores"][0]["flags_left_set"] == 2);
}

TEST_CASE("a wait that can never be satisfied is a deadlock naming each blocked pipe",
          "[cli][faults][sync]") {
  TempDir d;
  const auto r = harness::run_trace(d,
                                    "LoadData dst=L0A:0 src=L1:0 repeatTimes=1\n"
                                    "WaitFlag event=MTE2_MTE1 id=1\n"
                                    "WaitFlag event=MTE1_M id=2\n");
  CHECK(r.status == 3);
  CHECK_THAT(r.err, Contains("deadlock at cycle") && Contains("MTE1: ") && Contains("t.trace:2: WaitFlag") &&
                        Contains("flag MTE2_MTE1 id 1") && Contains("M: ") &&
                        Contains("t.trace:3: WaitFlag"));
}

TEST_CASE(".expect mismatch exits 1 with the first differing elements", "[cli][expect]") {
  TempDir d;
  std::string want(64, '\0');
  want[4] = 7;  // element 1 of the int32 tensor
  d.write("want.bin", want);
  const auto r = harness::run_trace(d, ".gm c size=64\n.expect c file=want.bin dtype=int32\n");
  CHECK(r.status == 1);
  CHECK_THAT(r.err, Contains("in 1 of 16 int32 elements;") && Contains("[1] expected 7, got 0"));
  CHECK(harness::stats(d)["status"] == "mismatch");
}

TEST_CASE(".out writes the tensor after the run", "[cli][out]") {
  TempDir d;
  d.write("a.bin", std::string(64, '\x05'));
  const auto r = harness::run_trace(d, ".gm a size=64 file=a.bin\n.out a file=a_out.bin\n");
  REQUIRE(r.status == 0);
  std::ifstream f(d.file("out/a_out.bin"), std::ios::binary);
  std::string got((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  CHECK(got == std::string(64, '\x05'));
}
