// Report kinds other than plain races: uninitialised reads (and copies of undefined bytes that
// stay harmless), lints, deadlock hints, near misses, the report cap, timing facts, JSON, and
// GM races between cores.
#include <catch2/catch.hpp>
#include <random>

#include "aicore/check/background.hpp"
#include "helpers.hpp"

using namespace aicore;
using Catch::Contains;
using check::ReportKind;
using checktest::run_text;

namespace {

const std::string kT = checktest::kTensors;  // lines 1-3; a program starts at line 4
const std::string kToL1 = "SetFlag event=MTE2_MTE1 id=0\nWaitFlag event=MTE2_MTE1 id=0\n";
const std::string kToM = "SetFlag event=MTE1_M id=0\nWaitFlag event=MTE1_M id=0\n";

std::string detail(const check::Report& r, const std::string& label) {
  std::string all;
  for (const auto& d : r.details)
    if (d.label == label) all += d.text + "\n";
  return all;
}

}  // namespace

TEST_CASE("uninitialised reads: the index buffer after a plain LoadData, C before any Mmad",
          "[check][uninit]") {
  const std::string load = kT + "DataCopy dst=L1:0 src=a blockLen=48\n" + kToL1 +
                           "LoadData dst=L0A:0 src=L1:0 repeatTimes=2 srcStride=1\n"
                           "LoadData dst=L0B:0 src=L1:0x400 repeatTimes=1\n" +
                           kToM;  // lines 4-10
  const auto sparse = run_text(load + "MmadWithSparse dst=L0C:0 fm=L0A:0 filter=L0B:0 m=16 n=16 k=64\n");
  REQUIRE(sparse.reports.size() == 1);
  CHECK(sparse.headlines()[0] ==
        "t.trace:11: error: uninitialised read of index buffer [0x0, 0x80): MmadWithSparse (M) reads bytes "
        "nothing "
        "wrote before it");
  CHECK_THAT(detail(sparse.reports[0], "hint"), Contains("a plain LoadData into L0B leaves it undefined"));
  const auto acc = run_text(load + "Mmad dst=L0C:0 fm=L0A:0 filter=L0B:0 m=16 n=16 k=32 cmatrixInitVal=0\n");
  REQUIRE(acc.reports.size() == 1);
  CHECK(acc.reports[0].space == isa::Space::L0C);
  CHECK(acc.reports[0].bytes == 1024);
  CHECK_THAT(detail(acc.reports[0], "hint"), Contains("cmatrixInitVal=1"));
  CHECK(run_text(load + "Mmad dst=L0C:0 fm=L0A:0 filter=L0B:0 m=16 n=16 k=32\n").reports.empty());
  const auto fix = run_text(kT + "Fixpipe dst=c src=L0C:0x400 nSize=16 mSize=4 srcStride=16 dstStride=16\n");
  REQUIRE(fix.reports.size() == 1);
  CHECK(fix.reports[0].lo == 0x400);
  CHECK(fix.reports[0].hi == 0x500);  // 4 rows of 64 bytes: exactly what it reads
  CHECK_THAT(detail(fix.reports[0], "hint"), Contains("no Mmad wrote these L0C bytes"));
}

TEST_CASE("uninitialised bytes a load copies are an error only where the Cube uses them", "[check][uninit]") {
  // 30 rows of A in NZ: rows 30, 31 of the second fractal are padding nothing writes; LoadData
  // copies whole fractals, the Mmad reads rows < m.
  const std::string a = kT +
                        "DataCopyNd2Nz dst=L1:0 src=a nValue=30 dValue=32 srcDValue=32 dstNzC0Stride=32\n" +
                        "DataCopy dst=L1:0x4000 src=b blockLen=16\n" + kToL1 +
                        "LoadData dst=L0A:0 src=L1:0 repeatTimes=2 srcStride=1\n"
                        "LoadData dst=L0B:0 src=L1:0x4000 repeatTimes=1\n" +
                        kToM;  // lines 4-11
  CHECK(run_text(a + "Mmad dst=L0C:0 fm=L0A:0 filter=L0B:0 m=30 n=16 k=32\n").reports.empty());
  const auto r = run_text(a + "Mmad dst=L0C:0 fm=L0A:0 filter=L0B:0 m=32 n=16 k=32\n");
  REQUIRE(r.reports.size() == 1);
  CHECK(r.reports[0].space == isa::Space::L0A);
  CHECK(r.reports[0].lo == 512 + 14 * 32);  // rows 30 and 31 = rows 14, 15 of the second fractal
  CHECK(r.reports[0].hi == 1024);
  CHECK(detail(r.reports[0], "hint") ==
        "these bytes were copied by LoadData at line 8 from bytes nothing wrote\n");
}

TEST_CASE("a LoadData3DV2 carries undefined map elements to where they land", "[check][uninit]") {
  // The same 30-row A, read by one Load3Dv2 as a 1 x 32 map of 32 int8 channels: rows 30, 31 of
  // the window are the map's undefined positions w = 30, 31.
  const std::string a =
      kT + "DataCopyNd2Nz dst=L1:0 src=a nValue=30 dValue=32 srcDValue=32 dstNzC0Stride=32\n" +
      "DataCopy dst=L1:0x4000 src=b blockLen=16\n" + kToL1 +
      "LoadData3DV2 dst=L0A:0 src=L1:0 dtype=int8 l1H=1 l1W=32 channelSize=32 kExtension=32 "
      "mExtension=32\n"
      "LoadData dst=L0B:0 src=L1:0x4000 repeatTimes=1\n" +
      kToM;
  CHECK(run_text(a + "Mmad dst=L0C:0 fm=L0A:0 filter=L0B:0 m=30 n=16 k=32\n").reports.empty());
  const auto r = run_text(a + "Mmad dst=L0C:0 fm=L0A:0 filter=L0B:0 m=32 n=16 k=32\n");
  REQUIRE(r.reports.size() == 1);
  CHECK(r.reports[0].space == isa::Space::L0A);
  CHECK(r.reports[0].lo == 512 + 14 * 32);
  CHECK(r.reports[0].hi == 1024);
  CHECK(detail(r.reports[0], "hint") ==
        "these bytes were copied by LoadData3DV2 at line 8 from bytes nothing wrote\n");
  // Padding is padValue, defined: a window of the padded positions only is clean.
  const std::string padded =
      kT + "DataCopyNd2Nz dst=L1:0 src=a nValue=30 dValue=32 srcDValue=32 dstNzC0Stride=32\n" +
      "DataCopy dst=L1:0x4000 src=b blockLen=16\n" + kToL1 +
      "LoadData3DV2 dst=L0A:0 src=L1:0 dtype=int8 l1H=1 l1W=16 channelSize=32 kExtension=32 "
      "mExtension=16 padLeft=4 padRight=4 mStartPt=8\n"
      "LoadData dst=L0B:0 src=L1:0x4000 repeatTimes=1\n" +
      kToM + "Mmad dst=L0C:0 fm=L0A:0 filter=L0B:0 m=16 n=16 k=32\n";
  CHECK(run_text(padded).reports.empty());
}

TEST_CASE("a transposing LoadData moves undefined rows to undefined columns", "[check][uninit]") {
  // 10 rows of 16 halves: rows 10..15 of the fractal are padding; transposed, they become
  // columns 10..15, i.e. k >= 10 of every n-row in Zn.
  const std::string b = kT +
                        "DataCopyNd2Nz dst=L1:0 src=a dtype=half nValue=10 dValue=16 srcDValue=16 "
                        "dstNzC0Stride=16\n"
                        "DataCopy dst=L1:0x4000 src=b blockLen=16\n" +
                        kToL1 +
                        "LoadData dst=L0A:0 src=L1:0x4000 repeatTimes=1\n"
                        "LoadData dst=L0B:0 src=L1:0 dtype=half repeatTimes=1 ifTranspose=1\n" +
                        kToM;
  CHECK(run_text(b + "Mmad dst=L0C:0 fm=L0A:0 filter=L0B:0 m=16 n=16 k=10 dtype=half\n").reports.empty());
  const auto r = run_text(b + "Mmad dst=L0C:0 fm=L0A:0 filter=L0B:0 m=16 n=16 k=16 dtype=half\n");
  REQUIRE(r.reports.size() == 1);
  CHECK(r.reports[0].space == isa::Space::L0B);
  CHECK(r.reports[0].bytes == 16 * 6 * 2);  // 16 n-rows x 6 halves
  CHECK(r.reports[0].ranges == 16);
}

TEST_CASE("LoadDataWithTranspose moves undefined elements to their transposed places", "[check][uninit]") {
  // b16: as the transposing LoadData above, the same bytes.
  const std::string h = kT +
                        "DataCopyNd2Nz dst=L1:0 src=a dtype=half nValue=10 dValue=16 srcDValue=16 "
                        "dstNzC0Stride=16\n"
                        "DataCopy dst=L1:0x4000 src=b blockLen=16\n" +
                        kToL1 +
                        "LoadData dst=L0A:0 src=L1:0x4000 repeatTimes=1\n"
                        "LoadDataWithTranspose dst=L0B:0 src=L1:0 dtype=half repeatTimes=1\n" +
                        kToM;
  CHECK(run_text(h + "Mmad dst=L0C:0 fm=L0A:0 filter=L0B:0 m=16 n=16 k=10 dtype=half\n").reports.empty());
  const auto r = run_text(h + "Mmad dst=L0C:0 fm=L0A:0 filter=L0B:0 m=16 n=16 k=16 dtype=half\n");
  REQUIRE(r.reports.size() == 1);
  CHECK(r.reports[0].space == isa::Space::L0B);
  CHECK(r.reports[0].bytes == 16 * 6 * 2);
  CHECK(r.reports[0].ranges == 16);
  CHECK(detail(r.reports[0], "hint") ==
        "these bytes were copied by LoadDataWithTranspose at line 9 from bytes nothing wrote\n");
  // b8: a 32-column block of 30 K-rows; the square's rows 30, 31 are padding and land as k = 30,
  // 31 of every n-row of both Zn fractals.
  const std::string b = kT +
                        "DataCopyNd2Nz dst=L1:0 src=a nValue=30 dValue=32 srcDValue=32 dstNzC0Stride=32\n" +
                        "DataCopy dst=L1:0x4000 src=b blockLen=16\n" + kToL1 +
                        "LoadData dst=L0A:0 src=L1:0x4000 repeatTimes=1\n"
                        "LoadDataWithTranspose dst=L0B:0 src=L1:0 dtype=int8 repeatTimes=1\n" +
                        kToM;
  CHECK(run_text(b + "Mmad dst=L0C:0 fm=L0A:0 filter=L0B:0 m=16 n=32 k=30\n").reports.empty());
  const auto r8 = run_text(b + "Mmad dst=L0C:0 fm=L0A:0 filter=L0B:0 m=16 n=32 k=32\n");
  REQUIRE(r8.reports.size() == 1);
  CHECK(r8.reports[0].space == isa::Space::L0B);
  CHECK(r8.reports[0].bytes == 32 * 2);
  CHECK(r8.reports[0].ranges == 32);
}

TEST_CASE("double SetFlag: only a second set with no WaitFlag of it between them in program order",
          "[check][sync]") {
  // Set, wait, set on MTE2 while MTE1 waits late: the second set may land before the wait (held
  // on hardware), paired FIFO: no report.
  const auto held = run_text(kT +
                             "SetFlag event=MTE2_MTE1 id=0\nLoadData dst=L0A:0 src=L1:0x8000 repeatTimes=1\n"
                             "WaitFlag event=MTE2_MTE1 id=0\nSetFlag event=MTE2_MTE1 id=0\n"
                             "WaitFlag event=MTE2_MTE1 id=0\n");
  CHECK(held.count(ReportKind::DoubleSetFlag) == 0);
  const auto twice = run_text(kT +
                              "SetFlag event=MTE2_MTE1 id=0\nSetFlag event=MTE2_MTE1 id=0\n"
                              "WaitFlag event=MTE2_MTE1 id=0\nWaitFlag event=MTE2_MTE1 id=0\n");
  REQUIRE(twice.count(ReportKind::DoubleSetFlag) == 1);
  CHECK(twice.headlines()[0] ==
        "t.trace:5: error: double SetFlag: SetFlag<MTE2_MTE1>(0) sets the flag again with no WaitFlag of it "
        "since the SetFlag at line 4");
  // Another id or another event in between does not count.
  const auto other = run_text(kT +
                              "SetFlag event=MTE2_MTE1 id=0\nWaitFlag event=MTE2_MTE1 id=1\n"
                              "SetFlag event=MTE2_MTE1 id=0\nWaitFlag event=MTE2_MTE1 id=0\n"
                              "WaitFlag event=MTE2_MTE1 id=0\n");
  CHECK(other.count(ReportKind::DoubleSetFlag) == 1);
}

TEST_CASE("lints: flag left set, reserved ids, an unneeded wait, PipeBarrier<PIPE_S>", "[check][lint]") {
  const auto left = run_text(kT + "SetFlag event=MTE1_MTE2 id=1\n");
  REQUIRE(left.reports.size() == 1);
  CHECK(left.headlines()[0] ==
        "t.trace:4: warning: flag left set: SetFlag<MTE1_MTE2>(1) is never waited: the flag is still set "
        "when the "
        "kernel ends");
  CHECK(left.summary.errors == 0);
  const auto ids = run_text(kT + "SetFlag event=MTE2_MTE1 id=7\nWaitFlag event=MTE2_MTE1 id=7\n");
  CHECK(ids.count(ReportKind::ReservedEventId) == 2);
  // The same flags emitted by the library (TPipe/TQue pick their own ids): no lint.
  auto lib = checktest::parse(kT + "SetFlag event=MTE2_MTE1 id=7\nWaitFlag event=MTE2_MTE1 id=7\n");
  for (auto& in : lib) in.origin = isa::Origin::Library;
  CHECK(checktest::run(lib).reports.empty());
  // Line 8's wait brings nothing line 6's did not; line 11's orders the copy at line 9, which
  // nothing after it conflicts with: neither was needed.
  const auto twice = run_text(kT + "DataCopy dst=L1:0 src=a blockLen=16\n" + kToL1 +
                              "SetFlag event=MTE2_MTE1 id=1\nWaitFlag event=MTE2_MTE1 id=1\n"
                              "DataCopy dst=L1:0x1000 src=a blockLen=16\n"
                              "SetFlag event=MTE2_MTE1 id=2\nWaitFlag event=MTE2_MTE1 id=2\n"
                              "LoadData dst=L0A:0 src=L1:0 repeatTimes=1\n");
  CHECK(twice.count(ReportKind::DataRace) == 0);
  CHECK(twice.headlines() ==
        std::vector<std::string>{"t.trace:8: warning: unneeded synchronisation: WaitFlag<MTE2_MTE1>(1) "
                                 "ordered nothing: MTE1 already "
                                 "knew everything its SetFlag at line 7 releases",
                                 "t.trace:11: warning: unneeded synchronisation: WaitFlag<MTE2_MTE1>(2) "
                                 "ordered nothing: every later "
                                 "access it could order was already ordered without it"});
  CHECK(twice.summary.errors == 0);
  const auto s = run_text(kT + "PipeBarrier pipe=PIPE_S\n");
  CHECK(s.count(ReportKind::PipeSBarrier) == 1);
}

TEST_CASE("an unneeded-sync lint is about a line: a loop's wait needed in a later round is not one",
          "[check][lint]") {
  // Line 9's wait learns nothing (line 8's brought everything); the same wait in the next round
  // (line 13) orders the copy at line 11 before the load at line 14.
  const std::string program = kT +
                              "DataCopy dst=L1:0 src=a blockLen=16\n"              // 4
                              "SetFlag event=MTE2_MTE1 id=0\n"                     // 5
                              "DataCopy dst=L1:0x1000 src=a blockLen=16\n"         // 6
                              "SetFlag event=MTE2_MTE1 id=1\n"                     // 7
                              "WaitFlag event=MTE2_MTE1 id=1\n"                    // 8
                              "WaitFlag event=MTE2_MTE1 id=0\n"                    // 9
                              "LoadData dst=L0A:0 src=L1:0x1000 repeatTimes=1\n"   // 10
                              "DataCopy dst=L1:0x2000 src=a blockLen=16\n"         // 11
                              "SetFlag event=MTE2_MTE1 id=0\n"                     // 12
                              "WaitFlag event=MTE2_MTE1 id=0\n"                    // 13
                              "LoadData dst=L0B:0 src=L1:0x2000 repeatTimes=1\n";  // 14
  auto unrolled = checktest::parse(program);
  const auto distinct = checktest::run(unrolled);
  CHECK(distinct.headlines() == std::vector<std::string>{"t.trace:9: warning: unneeded synchronisation: "
                                                         "WaitFlag<MTE2_MTE1>(0) ordered nothing: MTE1 "
                                                         "already knew everything its SetFlag at line 5 "
                                                         "releases"});
  // The loop as a kernel records it: both rounds' waits at one line.
  REQUIRE(unrolled[9].line == 13);
  unrolled[9].line = 9;
  CHECK(checktest::run(unrolled).reports.empty());
  // Reports kept around a withdrawn one keep every word (a lint before it, one after it).
  auto around = unrolled;
  auto barrier = checktest::parse(kT + "PipeBarrier pipe=PIPE_S\n")[0];
  barrier.line = 2;
  around.insert(around.begin(), barrier);
  barrier.line = 20;
  around.push_back(barrier);
  const auto kept = checktest::run(around);
  REQUIRE(kept.reports.size() == 2);
  for (const auto& r : kept.reports) {
    CHECK(r.kind == ReportKind::PipeSBarrier);
    CHECK_THAT(r.summary, Contains("is a hardware error on real chips"));
  }
  // Remove what the second round's wait orders: the line never orders anything and stays reported.
  unrolled.pop_back();
  const auto never = checktest::run(unrolled);
  REQUIRE(never.reports.size() == 1);
  CHECK(never.headlines()[0].rfind("t.trace:9: warning: unneeded synchronisation", 0) == 0);
}

TEST_CASE("deadlock: a wait nothing satisfies, with the hints that explain it", "[check][deadlock]") {
  const auto wrong_id = run_text(kT + "SetFlag event=MTE2_MTE1 id=1\nWaitFlag event=MTE2_MTE1 id=0\n");
  REQUIRE(wrong_id.count(ReportKind::Deadlock) == 1);
  CHECK(wrong_id.headlines()[0] ==
        "t.trace:5: error: deadlock: WaitFlag<MTE2_MTE1>(0) can never pass: no SetFlag<MTE2_MTE1>(0) is left "
        "to "
        "pair with it");
  CHECK_THAT(detail(wrong_id.reports[0], "hint"),
             Contains("SetFlag<MTE2_MTE1>(1) at line 4 is set and nothing waits for it: wrong id?"));
  CHECK_FALSE(wrong_id.summary.complete);
  CHECK(wrong_id.count(ReportKind::FlagLeftSet) == 0);  // not judged: the run did not end
  const auto reverse = run_text(kT + "WaitFlag event=MTE1_MTE2 id=0\nDataCopy dst=L1:0 src=a blockLen=1\n");
  REQUIRE(reverse.count(ReportKind::Deadlock) == 1);
  CHECK_THAT(detail(reverse.reports[0], "hint"), Contains("pre-set it once with SetFlag<MTE1_MTE2>(0)"));
  const auto extra =
      run_text(kT + "SetFlag event=M_FIX id=0\nWaitFlag event=M_FIX id=0\nWaitFlag event=M_FIX id=0\n");
  CHECK_THAT(detail(extra.reports.at(0), "hint"), Contains("all 1 SetFlag<M_FIX>(0) issued were taken"));
}

TEST_CASE("deadlock: only waits that lead back to themselves are a circular wait", "[check][deadlock]") {
  // M waits for MTE1, which waits for MTE2, which never sets the flag: a chain, not a cycle.
  const auto chain = run_text(kT +
                              "WaitFlag event=MTE2_MTE1 id=0\nSetFlag event=MTE1_M id=0\n"
                              "WaitFlag event=MTE1_M id=0\n");
  REQUIRE(chain.count(ReportKind::Deadlock) == 2);
  const std::string chain_hints = detail(chain.reports.at(0), "hint") + detail(chain.reports.at(1), "hint");
  CHECK_THAT(chain_hints, Contains("its SetFlag would come from MTE1, which is itself stuck at line 4"));
  CHECK_THAT(chain_hints, !Contains("circular"));
  // M waits for MTE1 and MTE1 for M: each is stuck behind the other.
  const auto cycle = run_text(kT +
                              "WaitFlag event=M_MTE1 id=0\nSetFlag event=MTE1_M id=0\n"
                              "WaitFlag event=MTE1_M id=0\nSetFlag event=M_MTE1 id=0\n");
  REQUIRE(cycle.count(ReportKind::Deadlock) == 2);
  const std::string cycle_hints = detail(cycle.reports.at(0), "hint") + detail(cycle.reports.at(1), "hint");
  CHECK_THAT(cycle_hints,
             Contains("its SetFlag would come from MTE1, which is itself stuck at line 4 (a circular "
                      "wait: M -> MTE1 -> M)"));
  CHECK_THAT(cycle_hints,
             Contains("its SetFlag would come from M, which is itself stuck at line 6 (a circular "
                      "wait: MTE1 -> M -> MTE1)"));
}

TEST_CASE("near misses: set too early, wait too late, ping/pong ids swapped", "[check][near]") {
  const std::string copy = "DataCopy dst=L1:0 src=a blockLen=16\n";
  const std::string load = "LoadData dst=L0A:0 src=L1:0 repeatTimes=1\n";
  const auto early =
      run_text(kT + "SetFlag event=MTE2_MTE1 id=0\n" + copy + "WaitFlag event=MTE2_MTE1 id=0\n" + load);
  REQUIRE(early.count(ReportKind::DataRace) == 1);
  CHECK(detail(early.reports[0], "near miss") ==
        "set too early: SetFlag<MTE2_MTE1>(0) at line 4 comes before line 5, so WaitFlag<MTE2_MTE1>(0) at "
        "line 6 "
        "does not wait for line 5: move the SetFlag after line 5\n");
  const auto late =
      run_text(kT + copy + "SetFlag event=MTE2_MTE1 id=0\n" + load + "WaitFlag event=MTE2_MTE1 id=0\n");
  REQUIRE(late.count(ReportKind::DataRace) == 1);
  CHECK(detail(late.reports[0], "near miss") ==
        "wait too late: WaitFlag<MTE2_MTE1>(0) at line 7 waits for SetFlag<MTE2_MTE1>(0) at line 5, after "
        "line 4, "
        "but comes after line 6: move it before line 6\n");
  // Two slots; the reader of slot 1 waits for id 0 (slot 0's flag) and vice versa.
  const auto swapped = run_text(kT +
                                "SetFlag event=MTE2_MTE1 id=0\n"  // 4: slot 0 "ready" (prev round)
                                "DataCopy dst=L1:0x1000 src=a blockLen=16\n"        // 5: slot 1
                                "SetFlag event=MTE2_MTE1 id=1\n"                    // 6
                                "WaitFlag event=MTE2_MTE1 id=0\n"                   // 7: wrong id
                                "LoadData dst=L0A:0 src=L1:0x1000 repeatTimes=1\n"  // 8: reads slot 1
                                "WaitFlag event=MTE2_MTE1 id=1\n");                 // 9
  REQUIRE(swapped.count(ReportKind::DataRace) == 1);
  const std::string near = detail(swapped.reports[0], "near miss");
  CHECK_THAT(near,
             Contains("set too early") && Contains("wait too late") && Contains("ping/pong ids swapped?"));
}

TEST_CASE("report cap: past max_reports reports are counted, not kept", "[check][cap]") {
  std::string t = kT;
  for (int i = 0; i < 10; ++i)
    t += "DataCopy dst=L1:" + std::to_string(i * 512) +
         " src=a blockLen=16\nLoadData dst=L0A:" + std::to_string(i * 512) +
         " src=L1:" + std::to_string(i * 512) + " repeatTimes=1\n";
  check::CheckOptions o;
  o.max_reports = 3;
  const auto r = run_text(t, o);
  CHECK(r.reports.size() == 3);
  CHECK(r.summary.errors == 10);
  CHECK(r.summary.unstored == 7);
  CHECK_THAT(r.text(), Contains("7 more counted but not kept"));
}

TEST_CASE("timing facts: cycles of both instructions and whether the race showed", "[check][timing]") {
  const auto program = checktest::parse(kT +
                                        "DataCopy dst=L1:0 src=a blockLen=16\n"
                                        "LoadData dst=L0A:0 src=L1:0 repeatTimes=1\n");
  for (const bool overlap : {true, false}) {
    check::Checker c(check::CheckOptions{});
    c.executed(isa::CoreId{0}, 0, 0, 300);  // cycles may come before the instruction is issued
    for (const auto& in : program) c.issue(isa::CoreId{0}, in);
    c.executed(isa::CoreId{0}, 1, overlap ? 10 : 400, overlap ? 40 : 430);
    c.finish({});
    REQUIRE(c.reports().size() == 1);
    const check::Timing& t = c.reports()[0].timing;
    CHECK(t.observed_known());
    CHECK(t.observed() == overlap);
    CHECK(t.first_end == 300);
    const nlohmann::json j = check::to_json(c.reports()[0], {"a"});
    CHECK(j["timing"]["observed"] == overlap);
    CHECK(j["first"]["line"] == 4);
    CHECK(j["second"]["line"] == 5);
    CHECK(j["fix"]["event"] == "MTE2_MTE1");
    CHECK(j["range"] == nlohmann::json::array({0, 512}));
    const std::string text = check::format_report(c.reports()[0], {"a"});
    CHECK_THAT(text, Contains(overlap ? "it showed" : "it did not show in this run"));
    CHECK(text.find("timing (this run") != std::string::npos);
  }
}

TEST_CASE("two cores: GM bytes one writes and the other reads or writes race, disjoint ones do not",
          "[check][cores]") {
  const auto writer = checktest::parse(
      kT + "DataCopy dst=L1:0 src=a blockLen=32\n" + kToL1 + "LoadData dst=L0A:0 src=L1:0 repeatTimes=1\n" +
      "LoadData dst=L0B:0 src=L1:0x200 repeatTimes=1\n" + kToM +
      "Mmad dst=L0C:0 fm=L0A:0 filter=L0B:0 m=16 n=16 k=32\nSetFlag event=M_FIX id=0\nWaitFlag event=M_FIX "
      "id=0\n"
      "Fixpipe dst=c src=L0C:0 nSize=16 mSize=16 srcStride=16 dstStride=16\n");  // c[0, 1024)
  const auto reader = checktest::parse(kT + "DataCopy dst=L1:0 src=c+512 blockLen=16\n");
  auto other_writer = writer;
  for (auto& in : other_writer)
    if (auto* f = std::get_if<isa::Fixpipe>(&in.op)) f->dst.offset = 4096;  // c[4096, 5120)
  check::CheckOptions two;
  two.cores = 2;
  const auto run2 = [&](const std::vector<isa::Instruction>& p0, const std::vector<isa::Instruction>& p1) {
    check::Checker c(two);
    for (size_t i = 0; i < std::max(p0.size(), p1.size()); ++i) {  // interleaved, as a chip would
      if (i < p1.size()) c.issue(isa::CoreId{1}, p1[i]);
      if (i < p0.size()) c.issue(isa::CoreId{0}, p0[i]);
    }
    c.finish({});
    return checktest::Run{c.reports(), c.summary()};
  };
  const auto ww = run2(writer, writer);
  REQUIRE(ww.count(ReportKind::CrossCoreRace) == 1);
  CHECK(ww.reports[0].hazard == "WAW");
  CHECK(ww.reports[0].bytes == 1024);
  const auto rw = run2(writer, reader);
  REQUIRE(rw.count(ReportKind::CrossCoreRace) == 1);
  CHECK(rw.reports[0].lo == 512);
  CHECK(rw.reports[0].hi == 1024);
  CHECK_THAT(rw.headlines()[0], Contains("cross-core data race (RW) on GM c [0x200, 0x400)"));
  CHECK(run2(writer, other_writer).reports.empty());
  // Bytes only read merge across the instructions that read them (so a core's reads of an input
  // keep a bounded map): two copies reading c's two halves are one RW race over both halves,
  // naming the first of them (line 4, where the program starts).
  const auto halves = checktest::parse(
      kT + "DataCopy dst=L1:0 src=c blockLen=16\nDataCopy dst=L1:0x200 src=c+512 blockLen=16\n");
  const auto rw2 = run2(writer, halves);
  REQUIRE(rw2.count(ReportKind::CrossCoreRace) == 1);
  CHECK(rw2.reports[0].lo == 0);
  CHECK(rw2.reports[0].hi == 1024);
  const auto& r = rw2.reports[0];
  const check::InstrRef& read_by = r.at.core == 1 ? r.at : *r.other;
  CHECK(read_by.core == 1);
  CHECK(read_by.line == 4);
  check::Checker one(check::CheckOptions{});
  CHECK_THROWS_AS(one.issue(isa::CoreId{1}, writer[0]), std::out_of_range);
}

TEST_CASE("the text names the cores of a report every core gets once", "[check][cores][text]") {
  // Cores 0-3 and 5 barrier on PIPE_S (a lint at line 4); core 4 differs (a flag left set at 4).
  check::CheckOptions six;
  six.cores = 6;
  check::Checker c(six);
  const auto lint = checktest::parse(kT + "PipeBarrier pipe=PIPE_S\n");
  const auto left = checktest::parse(kT + "SetFlag event=MTE1_MTE2 id=1\n");
  for (uint16_t core = 0; core < 6; ++core) c.issue(isa::CoreId{core}, core == 4 ? left[0] : lint[0]);
  c.finish({});
  const checktest::Run run{c.reports(), c.summary()};
  REQUIRE(run.reports.size() == 6);  // checks.json keeps one per core
  const std::string text = run.text();
  CHECK_THAT(text,
             Contains("t.trace:4: warning: PipeBarrier<PIPE_S> in cores 0-3, 5: PipeBarrier<PIPE_S> is"));
  CHECK_THAT(text, Contains("t.trace:4: warning: flag left set in core 4: "));
  CHECK(text.find("in core 1") == std::string::npos);
  CHECK_THAT(text, Contains("check: 0 error(s), 6 warning(s)\n"));
  // With room for one report in full, the other group is counted.
  CHECK_THAT(check::format_text(run.reports, run.summary, {}, 1), Contains("; 1 more not shown here"));
}

// Cross-core ordering: SyncAll epochs and atomic adds (docs/checking.md, "Cross-core data race").
TEST_CASE("two cores: SyncAll orders GM accesses of different epochs; same-type atomic adds never race",
          "[check][cores][syncall][atomic]") {
  const std::string mmad = kT + "DataCopy dst=L1:0 src=a blockLen=32\n" + kToL1 +
                           "LoadData dst=L0A:0 src=L1:0 repeatTimes=1\nLoadData dst=L0B:0 src=L1:0x200 "
                           "repeatTimes=1\n" +
                           kToM +
                           "Mmad dst=L0C:0 fm=L0A:0 filter=L0B:0 m=16 n=16 k=32\nSetFlag event=M_FIX id=0\n"
                           "WaitFlag event=M_FIX id=0\n";
  const std::string fix = "Fixpipe dst=c src=L0C:0 nSize=16 mSize=16 srcStride=16 dstStride=16\n";
  const std::string read = "DataCopy dst=L1:0x4000 src=c blockLen=32\n";
  check::CheckOptions two;
  two.cores = 2;
  const auto run2 = [&](const std::string& t0, const std::string& t1) {
    const auto p0 = checktest::parse(t0), p1 = checktest::parse(t1);
    check::Checker c(two);
    for (size_t i = 0; i < std::max(p0.size(), p1.size()); ++i) {
      if (i < p0.size()) c.issue(isa::CoreId{0}, p0[i]);
      if (i < p1.size()) c.issue(isa::CoreId{1}, p1[i]);
    }
    c.finish({});
    return checktest::Run{c.reports(), c.summary()};
  };
  const std::string add = "SetAtomicAdd dtype=int32\n" + fix + "SetAtomicNone\n";
  // Split-K as it should be: both add, SyncAll, core 0 reads C back.
  CHECK(run2(mmad + add + "SyncAll\n" + read, mmad + add + "SyncAll\n").count(ReportKind::CrossCoreRace) ==
        0);
  // Without SyncAll: core 0's read races core 1's add (RW), fix: SyncAll after the write, before the read.
  const auto no_sync = run2(mmad + add + read, mmad + add);
  REQUIRE(no_sync.count(ReportKind::CrossCoreRace) == 1);
  CHECK(no_sync.reports[0].hazard == "RW");
  CHECK(no_sync.reports[0].fix.kind == check::Fix::Kind::SyncAll);
  CHECK_THAT(no_sync.reports[0].fix.text, Contains("put SyncAll between core 1's Fixpipe at t.trace:"));
  // Without the atomic mode: WAW, fix: SetAtomicAdd of the Fixpipe's output type (int32 cells).
  const auto plain = run2(mmad + fix + "SyncAll\n", mmad + fix + "SyncAll\n");
  REQUIRE(plain.count(ReportKind::CrossCoreRace) == 1);
  CHECK(plain.reports[0].hazard == "WAW");
  CHECK(plain.reports[0].fix.kind == check::Fix::Kind::Atomic);
  CHECK_THAT(plain.reports[0].fix.text, Contains("SetAtomicAdd<int32_t>() ... SetAtomicNone()"));
  // One core atomic, the other plain: still a race.
  CHECK(run2(mmad + add, mmad + fix).count(ReportKind::CrossCoreRace) == 1);
  // Atomic adds of two types to the same bytes race.
  const auto types = run2(mmad + add, mmad + "SetAtomicAdd dtype=float\n" + fix + "SetAtomicNone\n");
  REQUIRE(types.count(ReportKind::CrossCoreRace) == 1);
  CHECK_THAT(types.reports[0].fix.text, Contains("atomic adds of different element types"));
  // Plain writes in different epochs (one core writes, SyncAll, the other overwrites) are ordered.
  CHECK(run2(mmad + fix + "SyncAll\n", "SyncAll\n" + mmad + fix).count(ReportKind::CrossCoreRace) == 0);
  // ... but not in the same epoch after a SyncAll each.
  CHECK(run2("SyncAll\n" + mmad + fix, "SyncAll\n" + mmad + fix).count(ReportKind::CrossCoreRace) == 1);
}

namespace {

// Per core: `races` loads of bytes a copy wrote with no flag between (a RAW report each, all on
// distinct lines), then a tile of C (rows of 64 bytes at a pitch of 256: strided GM cells),
// written at `c_offset` or, with `read_c`, copied back from there (a cross-core race wherever
// another core writes those bytes).
std::vector<isa::Instruction> racy_core(int races, uint64_t c_offset, bool read_c) {
  std::string t = kT;
  for (int i = 0; i < races; ++i) {
    const std::string slot = std::to_string(i % 100 * 512);
    t += "DataCopy dst=L1:" + slot + " src=a blockLen=16\nLoadData dst=L0A:" + slot + " src=L1:" + slot +
         " repeatTimes=1\n";
  }
  t += "DataCopy dst=L1:0 src=a blockLen=32\n" + kToL1 +
       "LoadData dst=L0A:0 src=L1:0 repeatTimes=1\nLoadData dst=L0B:0 src=L1:0x200 repeatTimes=1\n" + kToM +
       "Mmad dst=L0C:0 fm=L0A:0 filter=L0B:0 m=16 n=16 k=32\nSetFlag event=M_FIX id=0\nWaitFlag event=M_FIX "
       "id=0\n";
  const std::string c = "c+" + std::to_string(c_offset);
  t += read_c ? "DataCopy dst=L1:0x1000 src=" + c + " blockLen=2 blockCount=16 srcGap=6\n"
              : "Fixpipe dst=" + c + " src=L0C:0 nSize=16 mSize=16 srcStride=16 dstStride=64\n";
  return checktest::parse(t);
}

// Feeds each core's program in order, the cores interleaved as `pick` says (it returns the
// core to take the next instruction from, among those with instructions left).
template <class Pick>
std::string reports_when_interleaved(const std::vector<std::vector<isa::Instruction>>& cores,
                                     check::CheckOptions o, Pick&& pick) {
  o.cores = static_cast<uint16_t>(cores.size());
  check::Checker c(o);
  std::vector<size_t> next(cores.size(), 0);
  for (;;) {
    std::vector<size_t> left;
    for (size_t k = 0; k < cores.size(); ++k)
      if (next[k] < cores[k].size()) left.push_back(k);
    if (left.empty()) break;
    const size_t k = left[pick(left) % left.size()];
    c.issue(isa::CoreId{static_cast<uint16_t>(k)}, cores[k][next[k]++]);
  }
  c.finish({});
  return check::to_json(c.reports(), c.summary(), {"a", "b", "c"}).dump();
}

}  // namespace

TEST_CASE("several cores: the reports do not depend on how the cores' instruction streams interleave",
          "[check][cores]") {
  // Three cores, each with races of its own; cores 0 and 1 write overlapping tiles of C (WAW),
  // core 2 reads core 0's (RW). The model hands the checker each core's instructions as its
  // scalar unit issues them: program order per core, any order across cores.
  const std::vector<std::vector<isa::Instruction>> cores = {racy_core(12, 0, false), racy_core(9, 32, false),
                                                            racy_core(7, 0, true)};
  for (const uint32_t cap : {1000u, 10u}) {  // 10: the report cap decides which are kept
    INFO("max_reports " << cap);
    check::CheckOptions o;
    o.max_reports = cap;
    const std::string in_order = reports_when_interleaved(cores, o, [](const auto&) { return 0; });
    const std::string reversed =
        reports_when_interleaved(cores, o, [](const std::vector<size_t>& left) { return left.size() - 1; });
    size_t turn = 0;
    const std::string round_robin = reports_when_interleaved(cores, o, [&](const auto&) { return turn++; });
    CHECK(reversed == in_order);
    CHECK(round_robin == in_order);
    std::mt19937 rng(static_cast<uint32_t>(cap));
    for (int i = 0; i < 20; ++i)
      REQUIRE(reports_when_interleaved(cores, o, [&](const auto&) { return rng(); }) == in_order);
    const auto j = nlohmann::json::parse(in_order);
    size_t cross = 0;
    for (const auto& r : j["reports"]) cross += r["kind"] == "cross-core-race";
    if (cap == 10u) {
      CHECK(j["reports"].size() == 10);  // errors first, by core and line: core 0's first ten
      CHECK(j["unstored"].get<uint64_t>() > 0);
      CHECK(cross == 0);
      for (const auto& r : j["reports"]) CHECK(r["second"]["core"] == 0);
    } else {
      CHECK(cross == 3);  // core 1's tile over core 0's (WAW), core 2 reads bytes of both (RW)
      CHECK(j["unstored"] == 0);
    }
  }
}

TEST_CASE("the background checker gives exactly the reports of a checker on this thread",
          "[check][background]") {
  std::string t = kT;
  for (int i = 0; i < 3000; ++i)  // several batches of events
    t += "DataCopy dst=L1:" + std::to_string(i % 64 * 512) +
         " src=a blockLen=16\nLoadData dst=L0A:" + std::to_string(i % 64 * 512) +
         " src=L1:" + std::to_string(i % 64 * 512) + " repeatTimes=1\n";
  const auto program = checktest::parse(t);
  check::Checker direct(check::CheckOptions{});
  check::BackgroundChecker background{check::CheckOptions{}};
  for (const auto& in : program) {
    direct.issue(isa::CoreId{0}, in);
    background.issue(isa::CoreId{0}, in);
    direct.executed(isa::CoreId{0}, in.index, in.index, in.index + 5);
    background.executed(isa::CoreId{0}, in.index, in.index, in.index + 5);
  }
  direct.finish({});
  background.finish({});
  const auto& b = background.checker();
  CHECK(b.summary().errors == direct.summary().errors);
  CHECK(check::to_json(b.reports(), b.summary(), {}).dump() ==
        check::to_json(direct.reports(), direct.summary(), {}).dump());
  CHECK(direct.summary().errors > 1000);
}
