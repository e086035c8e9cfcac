// The happens-before rules on small programs: each flag, barrier and dispatch rule, the same-pipe
// rules with the Mmad interlock threshold at its boundary, and report naming by program order.
#include <catch2/catch.hpp>

#include "helpers.hpp"

using namespace aicore;
using check::ReportKind;
using checktest::run_text;

namespace {

// Fills L0A fractals [0, a) and L0B fractals [0, b) from L1 (from GM a), ready for the Cube.
std::string loaded(int a, int b) {
  return std::string(checktest::kTensors) +
         "DataCopy dst=L1:0 src=a blockLen=" + std::to_string(16 * (a + b)) +
         "\nSetFlag event=MTE2_MTE1 id=0\nWaitFlag event=MTE2_MTE1 id=0\n" +
         "LoadData dst=L0A:0 src=L1:0 repeatTimes=" + std::to_string(a) + " srcStride=1\n" +
         "LoadData dst=L0B:0 src=L1:0 startIndex=" + std::to_string(a) + " repeatTimes=" + std::to_string(b) +
         " srcStride=1\nSetFlag event=MTE1_M id=0\nWaitFlag event=MTE1_M id=0\n";
}

std::string mmads(int m, int n, const std::string& between = "") {
  const std::string mn = " m=" + std::to_string(m) + " n=" + std::to_string(n) + " k=32";
  return "Mmad dst=L0C:0 fm=L0A:0 filter=L0B:0" + mn + "\n" + between +
         "Mmad dst=L0C:0 fm=L0A:0 filter=L0B:0" + mn + " cmatrixInitVal=0\n";
}

const char* kCopyThenLoad =
    "DataCopy dst=L1:0 src=a blockLen=32\n"  // line 4
    "%SYNC%"                                 //
    "LoadData dst=L0A:0 src=L1:0 repeatTimes=2 srcStride=1\n";

std::string with(const std::string& pattern, const std::string& sync) {
  std::string s = std::string(checktest::kTensors) + pattern;
  s.replace(s.find("%SYNC%"), 6, sync);
  return s;
}

}  // namespace

TEST_CASE("a SetFlag/WaitFlag pair orders the writer before the reader; without it, a RAW race",
          "[check][rules]") {
  const auto racy = run_text(with(kCopyThenLoad, ""));
  REQUIRE(racy.headlines() ==
          std::vector<std::string>{
              "t.trace:5: error: data race (RAW) on L1 [0x0, 0x400): LoadData (MTE1) reads bytes "
              "that DataCopy (MTE2) at line 4 writes, and nothing makes the read wait for the "
              "write"});
  CHECK(racy.reports[0].fix.kind == check::Fix::Kind::Flag);
  CHECK(racy.reports[0].fix.text == "SetFlag<MTE2_MTE1> after line 4 and WaitFlag<MTE2_MTE1> before line 5");
  CHECK(racy.summary.errors == 1);
  CHECK(run_text(with(kCopyThenLoad, "SetFlag event=MTE2_MTE1 id=0\nWaitFlag event=MTE2_MTE1 id=0\n"))
            .reports.empty());
  // A pair of another event, or the same event's wait before the set, orders nothing.
  CHECK(run_text(with(kCopyThenLoad, "SetFlag event=MTE2_M id=0\nWaitFlag event=MTE2_M id=0\n"))
            .count(ReportKind::DataRace) == 1);
  CHECK(run_text(with(kCopyThenLoad, "PipeBarrier pipe=PIPE_MTE2\n")).count(ReportKind::DataRace) == 1);
  CHECK(run_text(with(kCopyThenLoad, "PipeBarrier pipe=PIPE_ALL\n")).reports.empty());
}

TEST_CASE("a flag round trip P -> Q -> P orders P's own instructions, like a barrier", "[check][rules]") {
  const char* two_copies =
      "DataCopy dst=L1:0 src=a blockLen=32\n%SYNC%DataCopy dst=L1:0x200 src=b blockLen=32\n";
  const auto racy = run_text(with(two_copies, ""));
  REQUIRE(racy.count(ReportKind::DataRace) == 1);
  CHECK(racy.reports[0].hazard == "WAW");
  CHECK(racy.reports[0].fix.text == "PipeBarrier<PIPE_MTE2> between lines 4 and 5");
  CHECK(racy.reports[0].lo == 0x200);
  CHECK(racy.reports[0].hi == 0x400);  // the exact overlap, not either copy's extent
  CHECK(run_text(with(two_copies,
                      "SetFlag event=MTE2_MTE1 id=0\nWaitFlag event=MTE2_MTE1 id=0\n"
                      "SetFlag event=MTE1_MTE2 id=0\nWaitFlag event=MTE1_MTE2 id=0\n"))
            .reports.empty());
  CHECK(run_text(with(two_copies, "PipeBarrier pipe=PIPE_MTE2\n")).reports.empty());
  // Half a round trip is not enough: MTE1 learns of MTE2, MTE2 learns nothing.
  CHECK(run_text(with(two_copies, "SetFlag event=MTE2_MTE1 id=0\nWaitFlag event=MTE2_MTE1 id=0\n"))
            .count(ReportKind::DataRace) == 1);
}

TEST_CASE("knowledge is transitive: MTE2 -> MTE1 -> M orders a DataCopy before the Mmad", "[check][rules]") {
  // L1 -> L0A -> Mmad, and the Mmad's read of L0A is after the LoadData; the DataCopy into L1
  // that the LoadData read is two hops back. A later DataCopy overwriting that L1 must wait
  // for the LoadData (reverse flag), which the chain does not give.
  const auto r = run_text(loaded(1, 1) + "Mmad dst=L0C:0 fm=L0A:0 filter=L0B:0 m=16 n=16 k=32\n");
  CHECK(r.reports.empty());
  const auto reuse = run_text(loaded(1, 1) + "DataCopy dst=L1:0 src=b blockLen=16\n");
  REQUIRE(reuse.count(ReportKind::DataRace) == 2);  // against the first copy (WAW), the LoadData (WAR)
  CHECK(reuse.reports[0].hazard == "WAW");
  CHECK(reuse.reports[0].fix.text == "PipeBarrier<PIPE_MTE2> between lines 4 and 11");
  CHECK(reuse.reports[1].hazard == "WAR");
  CHECK(reuse.reports[1].fix.text ==
        "SetFlag<MTE1_MTE2> after line 7 and WaitFlag<MTE1_MTE2> before line 11");
}

TEST_CASE("a scalar-pipe WaitFlag orders what is dispatched after it, from its place in program order",
          "[check][rules]") {
  // Fixpipe writes c, then MTE2 reads c back: the fix is a FIX_MTE2 flag (a legal pair since
  // Huawei's dav-2201 samples use it, docs/decisions.md); FIX -> S then S -> (issue) orders it too.
  const std::string produce = loaded(1, 1) +
                              "Mmad dst=L0C:0 fm=L0A:0 filter=L0B:0 m=16 n=16 k=32\n"
                              "SetFlag event=M_FIX id=0\nWaitFlag event=M_FIX id=0\n"
                              "Fixpipe dst=c src=L0C:0 nSize=16 mSize=16 srcStride=16 dstStride=16\n";
  const auto racy = run_text(produce + "DataCopy dst=L1:0x8000 src=c blockLen=32\n");
  REQUIRE(racy.count(ReportKind::DataRace) == 1);
  CHECK(racy.reports[0].fix.kind == check::Fix::Kind::Flag);
  CHECK(racy.reports[0].fix.text == "SetFlag<FIX_MTE2> after line 14 and WaitFlag<FIX_MTE2> before line 15");
  CHECK(run_text(produce + "SetFlag event=FIX_S id=0\nWaitFlag event=FIX_S id=0\n"
                           "DataCopy dst=L1:0x8000 src=c blockLen=32\n")
            .reports.empty());
  // Program order: a DataCopy issued before the scalar unit's wait is not ordered by it.
  CHECK(run_text(produce + "DataCopy dst=L1:0x8000 src=c blockLen=32\n"
                           "SetFlag event=FIX_S id=0\nWaitFlag event=FIX_S id=0\n")
            .count(ReportKind::DataRace) == 1);
  // But a SetFlag issued after it carries what the scalar unit knew to its pipe: the DataCopy
  // behind the M -> MTE2 wait is ordered after the Fixpipe (M's flag fires after FIX is done).
  CHECK(run_text(produce + "WaitFlag event=M_MTE2 id=0\n"
                           "DataCopy dst=L1:0x8000 src=c blockLen=32\n"
                           "SetFlag event=FIX_S id=0\nWaitFlag event=FIX_S id=0\n"
                           "SetFlag event=M_MTE2 id=0\n")
            .reports.empty());
}

TEST_CASE("accumulating Mmads: ordered by the Cube from (m/16)*(n/16) = 10, a warning at exactly 10",
          "[check][rules][interlock]") {
  const auto nine = run_text(loaded(3, 3) + mmads(48, 48));  // 3 * 3 = 9 fractals
  REQUIRE(nine.count(ReportKind::DataRace) == 1);
  CHECK(nine.reports[0].hazard == "RAW+WAW");
  CHECK(nine.reports[0].fix.text ==
        "PipeBarrier<PIPE_M> between lines 11 and 12 (the earlier Mmad's (m/16)*(n/16) is 9, below the 10 "
        "fractals at which the Cube orders accumulation itself)");
  const auto ten = run_text(loaded(2, 5) + mmads(32, 80));  // 2 * 5 = 10
  REQUIRE(ten.reports.size() == 1);
  CHECK(ten.reports[0].kind == ReportKind::InterlockBoundary);
  CHECK(ten.reports[0].severity == check::Severity::Warning);
  CHECK(ten.summary.errors == 0);
  CHECK(run_text(loaded(1, 11) + mmads(16, 176)).reports.empty());  // 11
  // The threshold is an option (config check.mmad_interlock_fractals).
  check::CheckOptions strict;
  strict.mmad_interlock_fractals = 12;
  CHECK(run_text(loaded(1, 11) + mmads(16, 176), strict).count(ReportKind::DataRace) == 1);
  // Integer division: m = 15 is 0 fractals however large n is.
  CHECK(run_text(loaded(1, 60) + mmads(15, 960)).count(ReportKind::DataRace) == 1);
  // A barrier orders them whatever their size.
  CHECK(run_text(loaded(3, 3) + mmads(48, 48, "PipeBarrier pipe=PIPE_M\n")).reports.empty());
}

TEST_CASE("hazards are named by program order even when the later instruction is checked first",
          "[check][rules]") {
  // The LoadData waits on its pipe for a SetFlag that comes after the DataCopy, so the checker
  // sees the DataCopy's write first; in program order the read comes first: WAR.
  const auto r = run_text(std::string(checktest::kTensors) +
                          "WaitFlag event=M_MTE1 id=0\n"
                          "LoadData dst=L0A:0 src=L1:0 repeatTimes=1\n"
                          "DataCopy dst=L1:0 src=a blockLen=16\n"
                          "SetFlag event=M_MTE1 id=0\n");
  REQUIRE(r.count(ReportKind::DataRace) == 1);
  CHECK(r.reports[0].hazard == "WAR");
  CHECK(r.reports[0].at.line == 6);
  CHECK(r.reports[0].other->line == 5);
}

TEST_CASE("odd programs never crash the checker: double SetFlag, bad fields, out of bounds",
          "[check][rules][robust]") {
  const auto r = run_text(std::string(checktest::kTensors) +
                          "SetFlag event=MTE2_MTE1 id=3\nSetFlag event=MTE2_MTE1 id=3\n"
                          "LoadData dst=L0A:0 src=L1:0 repeatTimes=100\n"  // past L0A's 64 KiB... of L1 reads
                          "WaitFlag event=MTE2_MTE1 id=3\nWaitFlag event=MTE2_MTE1 id=3\n"
                          "LoadData dst=L0A:0x100 src=L1:0 repeatTimes=1\n"          // misaligned dst
                          "SetFlag event=M_MTE3 id=0\nWaitFlag event=M_MTE3 id=0\n"  // illegal pair
                          "DataCopy dst=L1:0 src=a+0xfffff0 blockLen=1000\n");       // beyond a
  CHECK(r.summary.errors == r.summary.errors);                                       // it ran to the end
  check::CheckOptions small;
  small.capacity[static_cast<size_t>(isa::Space::L0A)] = 65536;
  const auto oob = run_text(std::string(checktest::kTensors) +
                                "LoadData dst=L0A:0xff00 src=L1:0 repeatTimes=100\n"
                                "Mmad dst=L0C:0 fm=L0A:0 filter=L0B:0 m=16 n=16 k=32\n",
                            small);
  CHECK(oob.count(ReportKind::DataRace) == 0);  // the out-of-bounds load is left to the model
}

TEST_CASE("GM: a write over bytes an unordered copy still reads is a WAR, with the exact range",
          "[check][rules][gm]") {
  // The DataCopy reads rows of c (a strided source); the Fixpipe writes 16 rows of c. Only the
  // bytes both touch race, and a flag chain MTE2 -> MTE1 -> M -> FIX orders them.
  const std::string copy =
      "DataCopy dst=L1:0x8000 src=c+64 blockLen=1 blockCount=4 srcGap=1\n";  // c[64,96),...
  const std::string rest =
      "Mmad dst=L0C:0 fm=L0A:0 filter=L0B:0 m=16 n=16 k=32\n"
      "SetFlag event=M_FIX id=0\nWaitFlag event=M_FIX id=0\n"
      "Fixpipe dst=c src=L0C:0 nSize=16 mSize=16 srcStride=16 dstStride=16\n";
  // The copy comes after everything the Mmad's chain covers, so nothing orders it before the Fixpipe.
  const auto racy = run_text(loaded(1, 1) + copy + rest);
  REQUIRE(racy.count(ReportKind::DataRace) == 1);
  CHECK(racy.reports[0].hazard == "WAR");
  CHECK(racy.reports[0].space == isa::Space::GM);
  CHECK(racy.reports[0].lo == 64);
  CHECK(racy.reports[0].hi == 96);
  CHECK(racy.reports[0].bytes == 128);  // 4 rows of 32 bytes, not the gaps between them
  CHECK(racy.reports[0].ranges == 4);
  // Before the first flag of the chain, it is ordered.
  CHECK(run_text(std::string(checktest::kTensors) + copy +
                 loaded(1, 1).substr(std::string(checktest::kTensors).size()) + rest)
            .reports.empty());
}
