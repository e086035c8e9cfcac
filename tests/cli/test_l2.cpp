// The chip's L2 and HBM through the CLI (docs/decisions.md, "L2 and HBM"), on the published
// figures (tests/published.yaml: GM reads at 150 B/cycle with no fixed cost, so a 16 KiB copy takes
// ceil(16384 / 150) = 110 cycles alone; Fixpipe writes at 128 B/cycle). Every timing key of the L2
// and HBM at its boundary (t-1 / t), the hit/miss books, and the outputs they go to.
#include <catch2/catch.hpp>

#include <map>

#include "harness.hpp"

using harness::TempDir;

namespace {

// Runs one trace per core (core i: traces[i]) and returns each core's instruction records by index.
struct Run {
  std::map<std::pair<uint64_t, uint64_t>, std::pair<uint64_t, uint64_t>>
      span;  // (core, index) -> start, busy_end
  nlohmann::json stats;
  uint64_t busy(uint64_t core, uint64_t index) const {
    const auto& s = span.at({core, index});
    return s.second - s.first;
  }
  uint64_t end(uint64_t core, uint64_t index) const { return span.at({core, index}).second; }
};

Run run(const std::vector<std::string>& traces, const std::string& sets) {
  TempDir d;
  std::string manifest = "cores:\n";
  for (size_t i = 0; i < traces.size(); ++i) {
    d.write("c" + std::to_string(i) + ".trace", traces[i]);
    manifest += "  - c" + std::to_string(i) + ".trace\n";
  }
  const std::string input = traces.size() == 1 ? d.file("c0.trace") : d.write("k.yaml", manifest);
  const auto r = harness::run("run " + input + " --out " + d.file("out") +
                              " --timing-only --instr-log -q --check none " + sets);
  INFO(r.err);
  REQUIRE(r.status == 0);
  Run out;
  std::vector<std::string> h;
  for (const auto& row : harness::csv_rows(d.file("out/instr.csv"), &h))
    out.span[{harness::csv_u64(h, row, "core"), harness::csv_u64(h, row, "index")}] = {
        harness::csv_u64(h, row, "start_cycle"), harness::csv_u64(h, row, "busy_end_cycle")};
  out.stats = harness::stats(d);
  return out;
}

// A 16 KiB copy of tensor `t` (its own name: another core's is another tensor).
std::string copy16k(const std::string& t, const std::string& op = "DataCopy dst=L1:0 src=T blockLen=512") {
  std::string line = op;
  line.replace(line.find("src=T"), 5, "src=" + t);
  return ".gm " + t + " size=16384\n" + line + "\n";
}
std::vector<std::string> four(const std::string& op = "DataCopy dst=L1:0 src=T blockLen=512") {
  return {copy16k("x0", op), copy16k("x1", op), copy16k("x2", op), copy16k("x3", op)};
}
const std::string kFourCores = "--set chip.cores=4 ";
// Lifts every chip bandwidth but the one under test.
const std::string kNoHbm = "--set chip.hbm.bytes_per_cycle=1e6 --set chip.hbm.bytes_per_cycle_per_core=1e6 ";
const std::string kNoL2Read =
    "--set chip.l2.read_bytes_per_cycle=1e6 --set chip.l2.read_bytes_per_cycle_per_core=1e6 ";

uint64_t four_core_copy(const std::string& sets, const std::vector<std::string>& traces = four()) {
  const Run r = run(traces, kFourCores + sets);
  for (uint64_t c = 1; c < 4; ++c) CHECK(r.end(c, 0) == r.end(0, 0));
  return r.end(0, 0);
}

}  // namespace

TEST_CASE("l2 cli: cold reads of four cores share the HBM; at 4 x their lone rate none waits",
          "[cli][l2][hbm]") {
  const std::string hbm =
      kNoL2Read + "--set chip.hbm.bytes_per_cycle_per_core=1e6 --set chip.hbm.bytes_per_cycle=";
  // Alone a copy moves 16384 B in 110 cycles: 148.95 B/cycle; four of them 595.8.
  CHECK(four_core_copy(hbm + "596") == 110);
  CHECK(four_core_copy(hbm + "595") == 111);
  CHECK(four_core_copy(hbm + "400") == 164);  // 100 B/cycle each
}

TEST_CASE("l2 cli: the HBM's per-core share times chip.cores caps the chip figure", "[cli][l2][hbm]") {
  const std::string hbm =
      kNoL2Read + "--set chip.hbm.bytes_per_cycle=973 --set chip.hbm.bytes_per_cycle_per_core=";
  CHECK(four_core_copy(hbm + "149") == 110);     // 4 x 149 = 596
  CHECK(four_core_copy(hbm + "148.75") == 111);  // 4 x 148.75 = 595
}

TEST_CASE("l2 cli: the L2's read bandwidth and its per-core share bind reads", "[cli][l2]") {
  const std::string rd =
      kNoHbm + "--set chip.l2.read_bytes_per_cycle_per_core=1e6 --set chip.l2.read_bytes_per_cycle=";
  CHECK(four_core_copy(rd + "596") == 110);
  CHECK(four_core_copy(rd + "595") == 111);
  const std::string share =
      kNoHbm + "--set chip.l2.read_bytes_per_cycle=2703 --set chip.l2.read_bytes_per_cycle_per_core=";
  CHECK(four_core_copy(share + "149") == 110);
  CHECK(four_core_copy(share + "148.75") == 111);
}

TEST_CASE("l2 cli: the L2's write bandwidth and its per-core share bind Fixpipe writes", "[cli][l2]") {
  // A Fixpipe of 16 x 256 int32 cells (16 KiB) writes at 128 B/cycle: 128 cycles alone (its
  // 20-cycle head, fixpipe.overhead_cycles, is set to 0: it would lower the lone rate the
  // bandwidths are compared with).
  const std::string fix = "Fixpipe dst=T src=L0C:0 nSize=256 mSize=16 srcStride=16 dstStride=256";
  auto copy = [&](const std::string& t) {
    return ".gm " + t + " size=16384\n" + [&] {
      std::string l = fix;
      l.replace(l.find("dst=T"), 5, "dst=" + t);
      return l;
    }() + "\n";
  };
  const std::vector<std::string> writes = {copy("c0"), copy("c1"), copy("c2"), copy("c3")};
  const std::string nohead = "--set fixpipe.overhead_cycles=0 ";
  const std::string wr =
      nohead + kNoHbm +
      "--set chip.l2.write_bytes_per_cycle_per_core=1e6 --set chip.l2.write_bytes_per_cycle=";
  CHECK(four_core_copy(wr + "512", writes) == 128);
  CHECK(four_core_copy(wr + "511", writes) == 129);
  const std::string share =
      nohead + kNoHbm +
      "--set chip.l2.write_bytes_per_cycle=2703 --set chip.l2.write_bytes_per_cycle_per_core=";
  CHECK(four_core_copy(share + "128", writes) == 128);
  CHECK(four_core_copy(share + "127.75", writes) == 129);
  // A write miss allocates without a fill: no HBM traffic, whatever its bandwidth.
  const Run r =
      run(writes, kFourCores + nohead +
                      "--set chip.hbm.bytes_per_cycle=1 --set chip.l2.write_bytes_per_cycle_per_core=1e6");
  CHECK(r.end(0, 0) == 128);
  CHECK(r.stats["chip"]["l2"]["write_misses"] == 4 * 32);
  CHECK(r.stats["chip"]["l2"]["hbm_read_bytes"] == 0);
}

TEST_CASE("l2 cli: a written byte takes write_read_cost of the L2's read bandwidth as well", "[cli][l2]") {
  // Four Fixpipes of 16 KiB (128 cycles alone, no head) with the write bandwidth lifted: at
  // write_read_cost 0.5 they take 4 x 128 x 0.5 = 256 B/cycle of the L2's read bandwidth.
  const std::string fix = "Fixpipe dst=T src=L0C:0 nSize=256 mSize=16 srcStride=16 dstStride=256";
  auto write = [&](const std::string& t) {
    std::string l = fix;
    l.replace(l.find("dst=T"), 5, "dst=" + t);
    return ".gm " + t + " size=16384\n" + l + "\n";
  };
  const std::vector<std::string> writes = {write("c0"), write("c1"), write("c2"), write("c3")};
  const std::string base =
      "--set fixpipe.overhead_cycles=0 " + kNoHbm +
      "--set chip.l2.write_bytes_per_cycle=1e6 --set chip.l2.write_bytes_per_cycle_per_core=1e6 "
      "--set chip.l2.read_bytes_per_cycle_per_core=1e6 ";
  const std::string half = base + "--set chip.l2.write_read_cost=0.5 --set chip.l2.read_bytes_per_cycle=";
  CHECK(four_core_copy(half + "256", writes) == 128);
  CHECK(four_core_copy(half + "255", writes) == 129);
  CHECK(four_core_copy(half + "128", writes) == 256);  // 32 B/cycle each
  // 0: writes never meet the reads' bandwidth (the published figures' setting).
  CHECK(four_core_copy(base + "--set chip.l2.write_read_cost=0 --set chip.l2.read_bytes_per_cycle=1",
                       writes) == 128);
  // A read and a write at once: the read's 148.95 B/cycle and the write's 128 x 1 fit in 277.
  const std::vector<std::string> mixed = {copy16k("x0"), write("c1")};
  const std::string one =
      base + "--set chip.cores=2 --set chip.l2.write_read_cost=1 --set chip.l2.read_bytes_per_cycle=";
  const Run fits = run(mixed, one + "277");
  CHECK(fits.end(0, 0) == 110);
  CHECK(fits.end(1, 0) == 128);
  const Run slower = run(mixed, one + "276");
  CHECK(slower.end(0, 0) == 111);
}

TEST_CASE("l2 cli: a DataCopyNd2Nz byte takes 1 / nd2nz_read_share of the L2's read bandwidth", "[cli][l2]") {
  // 64 contiguous rows of 256 int8: 16 KiB in one run, 110 cycles alone like a DataCopy.
  const std::string nd = "DataCopyNd2Nz dst=L1:0 src=T nValue=64 dValue=256 srcDValue=256 dstNzC0Stride=64";
  const std::string rd =
      kNoHbm + "--set chip.l2.read_bytes_per_cycle=1200 --set chip.l2.read_bytes_per_cycle_per_core=1e6 ";
  // Four copies at 148.95 B/cycle: 595.8 / share of the 1200.
  CHECK(four_core_copy(rd + "--set chip.l2.nd2nz_read_share=0.4965", four(nd)) == 110);
  CHECK(four_core_copy(rd + "--set chip.l2.nd2nz_read_share=0.4964", four(nd)) == 111);
  CHECK(four_core_copy(rd + "--set chip.l2.nd2nz_read_share=0.4964") == 110);  // plain copies: no share
}

TEST_CASE("l2 cli: a read of lines another core is reading at that moment is slower by the penalty",
          "[cli][l2]") {
  // Both cores copy the same tensor x at cycle 0: core 0 (first in the cycle's order) fills the
  // lines, core 1 finds every one being read: 148.95 / 1.15 B/cycle, 127 cycles.
  const std::vector<std::string> same = {copy16k("x"), copy16k("x")};
  Run r = run(same, "");
  CHECK(r.busy(0, 0) == 110);
  CHECK(r.busy(1, 0) == 127);
  CHECK(r.stats["cores"][1]["l2"]["shared_reads"] == 32);
  CHECK(r.stats["cores"][1]["l2"]["read_hits"] == 32);
  CHECK(r.stats["cores"][0]["l2"]["read_misses"] == 32);
  CHECK(run(same, "--set chip.l2.same_address_penalty=0").busy(1, 0) == 110);
  CHECK(run(same, "--set chip.l2.same_address_penalty=0.001").busy(1, 0) == 111);
  // "At that moment": core 0 reads x during [0, 110). Core 1 copies y first: 16320 bytes end at
  // 109, so its copy of x starts while core 0's runs; 16352 bytes end at 110, when it is over.
  const std::string y109 = ".gm y size=16384\nDataCopy dst=L1:0 src=y blockLen=510\n";
  const std::string y110 = ".gm y size=16384\nDataCopy dst=L1:0 src=y blockLen=511\n";
  const std::string x = "DataCopy dst=L1:0 src=x blockLen=512\n";
  r = run({copy16k("x"), y109 + ".gm x size=16384\n" + x}, "");
  CHECK(r.end(1, 0) == 109);
  CHECK(r.busy(1, 1) == 127);
  r = run({copy16k("x"), y110 + ".gm x size=16384\n" + x}, "");
  CHECK(r.end(1, 0) == 110);
  CHECK(r.busy(1, 1) == 110);
}

TEST_CASE("l2 cli: what the L2 holds: capacity, ways, lines, and no L2 at all", "[cli][l2]") {
  // One core copies x twice over a slow HBM (16 B/cycle): 1024 cycles from HBM, 110 from L2.
  const std::string twice = copy16k("x") + "DataCopy dst=L1:0 src=x blockLen=512\n";
  const std::string slow = "--set chip.hbm.bytes_per_cycle=16 ";
  auto second = [&](const std::string& l2) {
    const Run r = run({twice}, slow + l2);
    CHECK(r.busy(0, 0) == 1024);
    return r.busy(0, 1);
  };
  // One set of 32 ways of 512 bytes holds x's 32 lines; of 31 ways, LRU evicts each line before
  // its reuse.
  CHECK(second("--set chip.l2.bytes=16384 --set chip.l2.ways=32") == 110);
  CHECK(second("--set chip.l2.bytes=15872 --set chip.l2.ways=31") == 1024);
  CHECK(second("--set chip.l2.bytes=16384 --set chip.l2.ways=16 --set chip.l2.line_bytes=1024") == 110);
  CHECK(second("--set chip.l2.bytes=15360 --set chip.l2.ways=15 --set chip.l2.line_bytes=1024") == 1024);
  CHECK(second("--set chip.l2.bytes=0") == 1024);
}

TEST_CASE("l2 cli: a miss fills whole sectors from HBM", "[cli][l2]") {
  // A 32-byte copy alone takes 1 cycle (32 B/cycle); its miss fills one sector over 16 B/cycle.
  const std::string tiny = ".gm x size=4096\nDataCopy dst=L1:0 src=x blockLen=1\n";
  const std::string slow = "--set chip.hbm.bytes_per_cycle=16 ";
  CHECK(run({tiny}, slow + "--set chip.l2.sector_bytes=32").busy(0, 0) == 2);   // 32 B of HBM
  CHECK(run({tiny}, slow + "--set chip.l2.sector_bytes=128").busy(0, 0) == 8);  // 128 B
  const Run r = run({tiny}, slow + "--set chip.l2.sector_bytes=256");           // 256 B
  CHECK(r.busy(0, 0) == 16);
  CHECK(r.stats["chip"]["l2"]["hbm_read_bytes"] == 256);
}

TEST_CASE("l2 cli: dirty lines cost HBM bandwidth when a miss evicts them", "[cli][l2]") {
  // Fixpipe makes c's 32 lines dirty in a one-set, 32-way L2; after the barrier, copying x evicts
  // them all: 16 KiB filled and 16 KiB written back over 16 B/cycle = 2048 cycles.
  const std::string t =
      ".gm c size=16384\n.gm x size=16384\n"
      "Fixpipe dst=c src=L0C:0 nSize=256 mSize=16 srcStride=16 dstStride=256\n"
      "PipeBarrier pipe=PIPE_ALL\nDataCopy dst=L1:0 src=x blockLen=512\n";
  const Run r = run({t}, "--set chip.hbm.bytes_per_cycle=16 --set chip.l2.bytes=16384 --set chip.l2.ways=32");
  CHECK(r.busy(0, 2) == 2048);
  const auto& l2 = r.stats["chip"]["l2"];
  CHECK(l2["hbm_write_bytes"] == 16384);
  CHECK(l2["evictions"] == 32);
  CHECK(l2["dirty_lines"] == 0);
  CHECK(l2["valid_lines"] == 32);
}

TEST_CASE("l2 cli: stats.json has the L2 per core and for the chip, and the summary a line",
          "[cli][l2][stats]") {
  TempDir d;
  const auto r = harness::run_trace(d, copy16k("x") + "DataCopy dst=L1:0 src=x blockLen=512\n",
                                    "--timing-only --check none");
  REQUIRE(r.status == 0);
  CHECK_THAT(r.out,
             Catch::Contains("  L2: hit rate 50.0% (reads 50.0%, writes 0.0%); HBM 16384 bytes read, 0 "
                             "written"));
  const auto s = harness::stats(d);
  const auto& chip = s["chip"]["l2"];
  CHECK(chip["read_hits"] == 32);
  CHECK(chip["read_misses"] == 32);
  CHECK(chip["hit_rate"] == 0.5);
  CHECK(chip["l2_read_bytes"] == 32768);
  CHECK(chip["hbm_read_bytes"] == 16384);
  CHECK(chip["line_bytes"] == 512);
  CHECK(chip["bytes"] == 201326592);
  CHECK(s["chip"]["hbm"]["bytes"] == 16384);
  CHECK(s["chip"]["hbm"]["peak_bytes_per_cycle"] == 768);  // min(973, 32 x 24)
  CHECK(s["cores"][0]["l2"] == [&] {
    nlohmann::json c = chip;
    for (const char* k : {"bytes", "line_bytes", "evictions", "valid_lines", "dirty_lines"}) c.erase(k);
    return c;
  }());
}

TEST_CASE("l2 cli: the GM tensors must fit in the HBM, each from a 2 MiB boundary", "[cli][l2][hbm]") {
  TempDir d;
  const std::string t = ".gm x size=2097152\n.gm y size=1\n";
  CHECK(harness::run_trace(d, t, "--timing-only --set chip.hbm.bytes=2097153").status == 0);
  const auto r = harness::run_trace(d, t, "--timing-only --set chip.hbm.bytes=2097152");
  CHECK(r.status == 2);
  CHECK(r.err ==
        d.file("t.trace") +
            ":2:1: error: .gm y: the GM tensors do not fit in chip.hbm.bytes = 2097152 bytes of HBM (this "
            "one would end at 2097153; each tensor starts on a 2 MiB boundary)\n");
}

TEST_CASE("l2 cli: full and --timing-only runs keep the same L2 books", "[cli][l2]") {
  const std::string t =
      std::string(AICORE_TRACES_DIR) + "/pair_dense_256x512x256/pair_dense_256x512x256.trace";
  TempDir full, fast;
  REQUIRE(harness::run("run " + t + " --out " + full.file("out") + " -q").status == 0);
  REQUIRE(harness::run("run " + t + " --out " + fast.file("out") + " -q --timing-only").status == 0);
  const auto a = harness::stats(full), b = harness::stats(fast);
  CHECK(a["chip"] == b["chip"]);
  CHECK(a["cycles"] == b["cycles"]);
  CHECK(a["chip"]["l2"]["read_misses"].get<uint64_t>() > 0);
}

TEST_CASE(
    "l2 cli: a read row starting off the granule takes unaligned_read_cost times its bytes of the L2 and HBM",
    "[cli][l2]") {
  // 64 rows of 256 int8 (16 KiB) 512 bytes apart: 64 runs of 256 B, each within one 512 B line.
  // From byte 16 every row starts off the 32 B granule, so each byte counts the cost times.
  const std::string rows =
      "DataCopyNd2Nz dst=L1:0 src=T+16 nValue=64 dValue=256 srcDValue=512 dstNzC0Stride=64";
  auto traces = [](const std::string& op) {
    std::vector<std::string> t;
    for (int c = 0; c < 4; ++c) {
      std::string line = op;
      const std::string name = "x" + std::to_string(c);
      line.replace(line.find("src=T"), 5, "src=" + name);
      t.push_back(".gm " + name + " size=32768\n" + line + "\n");
    }
    return t;
  };
  const std::string odd = traces(rows).front();
  const std::string rd =
      kNoHbm + "--set chip.l2.read_bytes_per_cycle=1200 --set chip.l2.read_bytes_per_cycle_per_core=1e6 ";
  const uint64_t alone = run({odd}, rd + "--set chip.l2.unaligned_read_cost=4").end(0, 0);
  CHECK(alone == run({odd}, rd).end(0, 0));  // one core never reaches the shared rates here
  // Four copies at 16384 / alone B/cycle each need 4 x 16384 / alone x cost <= 1200.
  const double lone_rate = 16384.0 / static_cast<double>(alone);
  const double edge = 1200.0 / (4 * lone_rate);
  auto cost = [&](double c) {
    return four_core_copy(rd + "--set chip.l2.unaligned_read_cost=" + std::to_string(c), traces(rows));
  };
  CHECK(cost(edge - 0.001) == alone);
  CHECK(cost(edge + 0.001) == alone + 1);
  // Aligned to the granule (byte 32), or the granule lowered to 16: no penalty at any cost.
  std::string aligned = rows;
  aligned.replace(aligned.find("T+16"), 4, "T+32");
  CHECK(four_core_copy(rd + "--set chip.l2.unaligned_read_cost=4", traces(aligned)) == alone);
  CHECK(four_core_copy(rd + "--set chip.l2.unaligned_read_cost=4 --set chip.l2.unaligned_granule_bytes=16",
                       traces(rows)) == alone);
  // The HBM pays it too: cold misses at 1200 B/cycle of HBM and no L2 limit.
  const std::string hbm =
      kNoL2Read + "--set chip.hbm.bytes_per_cycle_per_core=1e6 --set chip.hbm.bytes_per_cycle=1200 ";
  CHECK(four_core_copy(hbm + "--set chip.l2.unaligned_read_cost=4", traces(rows)) > alone);
  CHECK(four_core_copy(hbm + "--set chip.l2.unaligned_read_cost=1", traces(rows)) == alone);
}
