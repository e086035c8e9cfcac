// The pacing rules of the calibrated model (model/engine.hpp, docs/decisions.md "Pacing"), each on
// the published figures with only its own key set, at cycles worked out by hand: the minimum issue
// interval with fractions carried over a run, the Cube head on a cold start only, GM bytes in
// flight, the cost of non-contiguous GM rows, and the scalar set-up per instruction kind.
#include <catch2/catch.hpp>

#include <map>

#include "harness.hpp"

using harness::TempDir;

namespace {

struct Row {
  uint64_t issue, start, busy_end, end;
};

std::map<uint64_t, Row> rows_of(const std::string& trace, const std::string& sets) {
  TempDir d;
  const auto r = harness::run_trace(
      d, trace, "--instr-log --timing-only --check none " + sets);  // back-to-back runs onto one buffer
  INFO(r.err);
  REQUIRE(r.status == 0);
  std::vector<std::string> h;
  std::map<uint64_t, Row> out;
  for (const auto& row : harness::csv_rows(d.file("out/instr.csv"), &h))
    out[harness::csv_u64(h, row, "index")] = {
        harness::csv_u64(h, row, "issue_cycle"), harness::csv_u64(h, row, "start_cycle"),
        harness::csv_u64(h, row, "busy_end_cycle"), harness::csv_u64(h, row, "end_cycle")};
  return out;
}

std::string times(int n, const std::string& line) {
  std::string s;
  for (int i = 0; i < n; ++i) s += line + "\n";
  return s;
}

}  // namespace

TEST_CASE("minimum interval: starts at ceil(k x interval) over a back-to-back run", "[cli][timing][pacing]") {
  // One-fractal loads occupy MTE1 for 2 cycles; 4.5 apart on average: 0, 4.5, 9, 13.5, 18.
  const auto r =
      rows_of(times(5, "LoadData dst=L0A:0 src=L1:0 repeatTimes=1"), "--set issue.min_interval_mte1=4.5");
  const uint64_t want[] = {0, 5, 9, 14, 18};
  for (uint64_t i = 0; i < 5; ++i) {
    CHECK(r.at(i).start == want[i]);
    CHECK(r.at(i).busy_end == want[i] + 2);  // the interval paces starts, it is not busy time
  }
  // Without the key the loads follow each other at their occupancy.
  CHECK(rows_of(times(2, "LoadData dst=L0A:0 src=L1:0 repeatTimes=1"), "").at(1).start == 2);
}

TEST_CASE("Cube head: paid on a cold start, hidden back to back, in part after a short gap",
          "[cli][timing][pacing]") {
  const std::string mm = "Mmad dst=L0C:0 fm=L0A:0 filter=L0B:0 m=16 n=16 k=32";  // one fractal-cycle
  const auto r = rows_of(mm + "\n" + mm + "\nPipeBarrier pipe=PIPE_M\n" + mm + "\n",
                         "--set cube.head_cycles=10 --set issue.sync_cycles=3");
  CHECK(r.at(0).busy_end - r.at(0).start == 1 + 10);  // cold: the whole head
  CHECK(r.at(1).start == r.at(0).busy_end);
  CHECK(r.at(1).busy_end - r.at(1).start == 1);  // it was waiting: no head
  // The barrier (3 cycles) leaves the Cube idle 3 cycles: 3 of the 10 head cycles.
  CHECK(r.at(3).start == r.at(1).busy_end + 3);
  CHECK(r.at(3).busy_end - r.at(3).start == 1 + 3);
  // A fractional fixed cost adds up over a run: 4 Mmads of 1 + 0.5 cycles take 6.
  const auto f = rows_of(times(4, mm), "--set cube.head_cycles=0 --set cube.fixed_cycles=0.5");
  CHECK(f.at(3).busy_end == 6);
}

TEST_CASE("GM window: a copy starts only when its bytes fit beside those in flight",
          "[cli][timing][pacing]") {
  // 1 KiB copies at 150 B/cycle: 7 cycles each, usable 100 cycles later. 2 KiB of window: two
  // copies in flight; the third waits until the first one's data is usable (7 + 100).
  const auto r = rows_of(".gm a size=1024\n" + times(3, "DataCopy dst=L1:0 src=a blockLen=32"),
                         "--set gm.read.latency_cycles=100 --set gm.read.window_bytes=2048");
  CHECK(r.at(0).start == 0);
  CHECK(r.at(0).end == 107);
  CHECK(r.at(1).start == 7);
  CHECK(r.at(2).start == 107);
  // A copy larger than the window runs once nothing else is in flight.
  const auto big = rows_of(".gm a size=4096\n" + times(2, "DataCopy dst=L1:0 src=a blockLen=128"),
                           "--set gm.read.latency_cycles=100 --set gm.read.window_bytes=2048");
  CHECK(big.at(1).start == big.at(0).end);
}

TEST_CASE("GM rows: non-contiguous ND rows cost row_cycles each after the first", "[cli][timing][pacing]") {
  // 4 rows of 64 B, 1 KiB apart: 256 B at 150 B/cycle (1.7) + 3 x 10 cycles = 31.7 -> 32.
  const std::string nd =
      ".gm a size=8192\nDataCopyNd2Nz dst=L1:0 src=a nValue=4 dValue=64 srcDValue=1024 dstNzC0Stride=16\n";
  const auto r = rows_of(nd, "--set gm.read.row_cycles=10");
  CHECK(r.at(0).busy_end == 32);
  // Contiguous rows (srcDValue = dValue) are one run: no row cost.
  const auto c = rows_of(
      ".gm a size=8192\nDataCopyNd2Nz dst=L1:0 src=a nValue=4 dValue=64 srcDValue=64 dstNzC0Stride=16\n",
      "--set gm.read.row_cycles=10");
  CHECK(c.at(0).busy_end == 2);
}

TEST_CASE("Fixpipe: per byte, rows off gm.write.align_bytes at unaligned_cost", "[cli][timing][pacing]") {
  // 16 rows of 16 int32 into rows 32 elements (128 B) apart: 1 KiB at 128 B/cycle after the head;
  // with 512-byte alignment 12 of the 16 rows start off it and count double (or 3.5 times).
  const std::string t =
      ".gm c size=4096\nFixpipe dst=c src=L0C:0 nSize=16 mSize=16 srcStride=16 dstStride=32\n";
  CHECK(rows_of(t, "--set gm.write.align_bytes=128").at(0).busy_end == 20 + 8);
  CHECK(rows_of(t, "--set gm.write.align_bytes=512").at(0).busy_end == 20 + 8 + 6);
  CHECK(rows_of(t, "--set gm.write.align_bytes=512 --set gm.write.unaligned_cost=3.5").at(0).busy_end ==
        20 + 8 + 15);
}

TEST_CASE("Fixpipe tails: a partial last column block costs the columns it writes", "[cli][timing][pacing]") {
  // 16 rows of nSize int32, contiguous and 512 B-aligned only at the start (one run): nSize x 64 B
  // at 128 B/cycle after the 20-cycle head; 16 x nSize elements take 16 x nSize / 64 cycles (less).
  for (const uint32_t n : {40u, 48u, 167u, 1u}) {
    CAPTURE(n);
    const std::string t = ".gm c size=16384\nFixpipe dst=c src=L0C:0 nSize=" + std::to_string(n) +
                          " mSize=16 srcStride=16 dstStride=" + std::to_string(n) + "\n";
    const uint64_t bytes = 16ull * n * 4;
    CHECK(rows_of(t, "--set gm.write.align_bytes=1").at(0).busy_end == 20 + (bytes + 127) / 128);
  }
}

TEST_CASE("scalar set-up: an instruction issues its kind's cycles after the slot", "[cli][timing][pacing]") {
  const auto r = rows_of(times(3, "LoadData dst=L0A:0 src=L1:0 repeatTimes=1") +
                             "SetFlag event=MTE1_M id=0\n" + "WaitFlag event=MTE1_M id=0\n",
                         "--set scalar.load_data=5 --set scalar.set_flag=2");
  CHECK(r.at(0).issue == 5);
  CHECK(r.at(1).issue == 5 + 1 + 5);
  CHECK(r.at(2).issue == 11 + 1 + 5);
  CHECK(r.at(3).issue == 17 + 1 + 2);
  CHECK(r.at(4).issue == 21);  // no cost for WaitFlag
  TempDir d;
  REQUIRE(harness::run_trace(d, times(3, "LoadData dst=L0A:0 src=L1:0 repeatTimes=1"),
                             "--timing-only --check none --set scalar.load_data=5")
              .status == 0);
  CHECK(harness::stats(d)["pipes"]["S"]["busy_cycles"] == 3 + 3 * 5);  // the set-up is scalar busy time
}

TEST_CASE("scalar set-up: LoadData3DV2 issues scalar.load_data_3dv2 cycles after the slot (t-1 / t)",
          "[cli][timing][pacing]") {
  const std::string l3 =
      "LoadData3DV2 dst=L0A:0 src=L1:0 l1H=1 l1W=16 channelSize=16 kExtension=16 mExtension=16";
  for (const uint32_t t : {4u, 5u}) {
    const auto r = rows_of(times(2, l3), "--set scalar.load_data_3dv2=" + std::to_string(t));
    CHECK(r.at(0).issue == t);
    CHECK(r.at(1).issue == t + 1 + t);
  }
  CHECK(rows_of(times(1, l3), "--set scalar.load_data=7").at(0).issue == 0);  // not LoadData's key
}

TEST_CASE(
    "scalar set-up: LoadDataWithTranspose issues scalar.load_data_with_transpose cycles after the slot "
    "(t-1 / t)",
    "[cli][timing][pacing]") {
  const std::string lt = "LoadDataWithTranspose dst=L0B:0 src=L1:0 repeatTimes=2 dtype=int8";
  for (const uint32_t t : {4u, 5u}) {
    const auto r = rows_of(times(2, lt), "--set scalar.load_data_with_transpose=" + std::to_string(t));
    CHECK(r.at(0).issue == t);
    CHECK(r.at(1).issue == t + 1 + t);
  }
  CHECK(rows_of(times(1, lt), "--set scalar.load_data=7").at(0).issue == 0);  // not LoadData's key
}

TEST_CASE("active cycles: a pipe's data instructions from start to usable result", "[cli][timing][pacing]") {
  TempDir d;
  // Two loads of 2 cycles, 28 of latency, back to back: active 0..30 (the second ends at 4 + 28).
  REQUIRE(harness::run_trace(d, times(2, "LoadData dst=L0A:0 src=L1:0 repeatTimes=1"),
                             "--timing-only --check none")
              .status == 0);
  CHECK(harness::stats(d)["pipes"]["MTE1"]["active_cycles"] == 32);
  CHECK(harness::stats(d)["pipes"]["MTE1"]["busy_cycles"] == 4);
}
