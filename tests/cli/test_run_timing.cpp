// Timing seen through the CLI: a lone instruction's start/end in instr.csv at each published
// figure, and config changes moving results by exactly the expected cycles.
#include <catch2/catch.hpp>

#include "harness.hpp"

using harness::TempDir;

namespace {

struct Row {
  uint64_t issue, start, busy_end, end, wait;
};

// These traces time lone instructions on purpose (a Mmad of L0A nothing loaded, two loads into
// one buffer with no barrier): the race checker, which would rightly flag them, is off.
const std::string kNoCheck = " --check none";

// Runs `trace` and returns the instr.csv row of the instruction with 0-based `index`.
Row row_of(const std::string& trace, uint64_t index, const std::string& extra = "") {
  TempDir d;
  const auto r = harness::run_trace(d, trace, "--instr-log " + extra + kNoCheck);
  INFO(r.err);
  REQUIRE(r.status == 0);
  std::vector<std::string> h;
  for (const auto& row : harness::csv_rows(d.file("out/instr.csv"), &h))
    if (harness::csv_u64(h, row, "index") == index)
      return Row{harness::csv_u64(h, row, "issue_cycle"), harness::csv_u64(h, row, "start_cycle"),
                 harness::csv_u64(h, row, "busy_end_cycle"), harness::csv_u64(h, row, "end_cycle"),
                 harness::csv_u64(h, row, "wait_cycles")};
  FAIL("no row for instruction " << index);
  return {};
}

const char* kLoadL0A = "LoadData dst=L0A:0 src=L1:0 repeatTimes=3\n";  // 1536 B
const char* kSparse = "MmadWithSparse dst=L0C:0 fm=L0A:0 filter=L0B:0 m=32 n=48 k=128\n";

}  // namespace

TEST_CASE("lone LoadData to L0A: 256 B/cycle, +28 latency, latency and bandwidth are config",
          "[cli][timing]") {
  const Row r = row_of(kLoadL0A, 0);
  CHECK(r.start == 0);
  CHECK(r.busy_end == 6);
  CHECK(r.end == 6 + 28);
  CHECK(row_of(kLoadL0A, 0, "--set mte1.to_l0a.latency_cycles=29").end == 6 + 29);
  CHECK(row_of(kLoadL0A, 0, "--set mte1.to_l0a.bytes_per_cycle=512").busy_end == 3);
}

TEST_CASE("lone LoadData to L0B (128 B/cycle + 28) and LoadDataWithSparse (128 + 30)", "[cli][timing]") {
  const Row b = row_of("LoadData dst=L0B:0 src=L1:0 repeatTimes=2\n", 0);
  CHECK(b.busy_end - b.start == 8);
  CHECK(b.end - b.busy_end == 28);
  const Row s = row_of("LoadDataWithSparse dst=L0B:0 src=L1:0 idx=L1:0x8000 repeatTimes=2\n", 0);
  CHECK(s.busy_end - s.start == 8);
  CHECK(s.end - s.busy_end == 30);
}

TEST_CASE("lone MmadWithSparse takes M1*N1*ceil(K/64) cycles plus the configured head", "[cli][timing]") {
  // 2 * 3 * 2 = 12 fractal-cycles.
  const Row h0 = row_of(kSparse, 0, "--set cube.head_cycles=0");
  CHECK(h0.busy_end - h0.start == 12);
  const Row h7 = row_of(kSparse, 0, "--set cube.head_cycles=7");
  CHECK(h7.busy_end - h7.start == 19);
  // Dense int8 of the same shape: ceil(K/32) -> twice the Cube time.
  const Row d =
      row_of("Mmad dst=L0C:0 fm=L0A:0 filter=L0B:0 m=32 n=48 k=128\n", 0, "--set cube.head_cycles=0");
  CHECK(d.busy_end - d.start == 24);
  const Row hf = row_of("Mmad dst=L0C:0 fm=L0A:0 filter=L0B:0 m=32 n=48 k=128 dtype=half\n", 0,
                        "--set cube.head_cycles=0");
  CHECK(hf.busy_end - hf.start == 48);
}

TEST_CASE("consecutive instructions on one pipe overlap their latency", "[cli][timing]") {
  const std::string t = std::string(kLoadL0A) + kLoadL0A;
  const Row second = row_of(t, 1);
  CHECK(second.start == 6);  // starts when the first one's occupancy ends, not its latency
}

TEST_CASE("SetFlag fires after earlier instructions complete, WaitFlag holds its pipe",
          "[cli][timing][sync]") {
  const std::string t = std::string(kLoadL0A) +
                        "SetFlag event=MTE1_M id=0\n"
                        "WaitFlag event=MTE1_M id=0\n" +
                        kSparse;
  const Row set = row_of(t, 1);
  CHECK(set.end == 34);  // the LoadData's data is visible at 6 + 28
  const Row mm = row_of(t, 3, "--set issue.sync_cycles=0");
  CHECK(mm.start == 34);
  const Row mm1 = row_of(t, 3, "--set issue.sync_cycles=1");
  CHECK(mm1.start == 35);  // WaitFlag released at 34, then one sync cycle on M
}

TEST_CASE("PipeBarrier waits for the pipe's earlier instructions to complete", "[cli][timing][sync]") {
  const std::string t = std::string(kLoadL0A) + "PipeBarrier pipe=PIPE_MTE1\n" + kLoadL0A;
  CHECK(row_of(t, 2, "--set issue.sync_cycles=0").start == 34);
}

TEST_CASE("a full queue stalls the scalar unit", "[cli][timing][queue]") {
  // M waits on a flag MTE2 sets after a long DataCopy; 40 Mmads fill the 32-deep M queue.
  std::string t =
      ".gm a size=65536\nDataCopy dst=L1:0 src=a blockLen=2048\nSetFlag event=MTE2_M id=0\n"
      "WaitFlag event=MTE2_M id=0\n";
  for (int i = 0; i < 40; ++i) t += "Mmad dst=L0C:0 fm=L0A:0 filter=L0B:0 m=16 n=16 k=32\n";
  t += "LoadData dst=L0A:0 src=L1:0 repeatTimes=1\n";
  TempDir d;
  const auto r = harness::run_trace(d, t, "--instr-log --timing-only" + kNoCheck);
  REQUIRE(r.status == 0);
  const auto s = harness::stats(d);
  CHECK(s["pipes"]["S"]["stall_cycles"].get<uint64_t>() > 0);
  CHECK(s["pipes"]["M"]["wait_cycles"]["queue_full"].get<uint64_t>() > 0);
  // The LoadData after the Mmads is issued only once the M queue drains below 32.
  std::vector<std::string> h;
  for (const auto& row : harness::csv_rows(d.file("out/instr.csv"), &h))
    if (harness::csv_u64(h, row, "index") == 43) CHECK(harness::csv_u64(h, row, "issue_cycle") > 300);
}

TEST_CASE("MTE2 reads and FIX writes share the GM port's bandwidth, max-min fair", "[cli][timing][port]") {
  // A 16 KiB DataCopy (110 cycles alone: its lone rate is 16384 / 110 = 148.9 B/cycle) from cycle 0
  // and a 1 KiB Fixpipe (own rate 128, L0C read 4 cycles, 8 cycles alone) from cycle 1 share the
  // core's GM port. Fixpipe's 20-cycle head is set to 0 here: the sharing is what is tested.
  const std::string nohead = "--set fixpipe.overhead_cycles=0 ";
  const std::string t =
      ".gm a size=65536\n.gm c size=4096\n"
      "DataCopy dst=L1:0 src=a blockLen=512\n"
      "Fixpipe dst=c src=L0C:0 nSize=16 mSize=16 srcStride=16 dstStride=16\n";
  SECTION("256 B/cycle: each gets 128 while both run; FIX is not slowed, MTE2 loses two cycles") {
    // MTE2: 148.9 B in cycle 0, 8 x 128 B in cycles 1..8, then 15211.1 B at 148.9 (102.1 cycles)
    // -> ends at 9 + 103.
    const Row copy = row_of(t, 0, nohead), fix = row_of(t, 1, nohead);
    CHECK(fix.start == 1);
    CHECK(fix.busy_end == 9);
    CHECK(fix.wait == 0);
    CHECK(copy.busy_end == 112);
    CHECK(copy.wait == 2);  // alone it ends at ceil(16384 / 150) = 110
  }
  SECTION("16 B/cycle: 8 each; FIX takes 128 cycles instead of 8") {
    const Row copy = row_of(t, 0, nohead + "--set gm.shared_bytes_per_cycle=16");
    const Row fix = row_of(t, 1, nohead + "--set gm.shared_bytes_per_cycle=16");
    CHECK(fix.busy_end == 1 + 128);
    CHECK(fix.wait == 120);
    // 16 + 128 x 8 B by cycle 129, then 15344 B at 16 B/cycle: 959 more cycles.
    CHECK(copy.busy_end == 129 + 959);
    CHECK(copy.wait == 1088 - 110);
  }
}

TEST_CASE("timing-only gives the same cycles as a full run and reports it", "[cli][timing]") {
  const std::string t = std::string(".gm c size=1024\n") + kLoadL0A + kSparse +
                        "Fixpipe dst=c src=L0C:0 nSize=16 mSize=16 srcStride=16 dstStride=16\n";
  TempDir full, fast;
  REQUIRE(harness::run_trace(full, t, kNoCheck).status == 0);
  REQUIRE(harness::run_trace(fast, t, "--timing-only" + kNoCheck).status == 0);
  CHECK(harness::stats(full)["cycles"] == harness::stats(fast)["cycles"]);
  CHECK(harness::stats(fast)["timing_only"] == true);
  CHECK(harness::stats(full)["pipes"]["M"]["instructions"] == 1);
}
