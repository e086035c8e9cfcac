// SyncAll and the GM atomic mode through the CLI: when every core leaves a SyncAll (the last
// arrival, after its own pipes drained, plus issue.sync_all_cycles), a SyncAll alone, and what an
// atomic add costs the Fixpipe (gm.write.atomic_share of the write bandwidth). Expected cycles
// come from the config values and the other instructions' rows, not from the model's formulas.
#include <catch2/catch.hpp>

#include <map>

#include "harness.hpp"

using harness::TempDir;

namespace {

struct Row {
  uint64_t start, busy_end, end;
};
// instr.csv rows by (core, line).
std::map<std::pair<uint64_t, uint64_t>, Row> rows(const TempDir& d) {
  std::vector<std::string> h;
  std::map<std::pair<uint64_t, uint64_t>, Row> out;
  for (const auto& r : harness::csv_rows(d.file("out/instr.csv"), &h))
    out[{harness::csv_u64(h, r, "core"), harness::csv_u64(h, r, "line")}] = {
        harness::csv_u64(h, r, "start_cycle"), harness::csv_u64(h, r, "busy_end_cycle"),
        harness::csv_u64(h, r, "end_cycle")};
  return out;
}

}  // namespace

TEST_CASE("SyncAll: every core leaves at the last core's arrival plus issue.sync_all_cycles",
          "[cli][multicore][syncall]") {
  for (const uint64_t cost : {100u, 101u}) {
    CAPTURE(cost);
    TempDir d;
    d.write("k.yaml", "cores:\n  - a.trace\n  - b.trace\n");
    // Core 0 copies 64 KiB first, so it arrives last; core 1 arrives at once.
    d.write("a.trace", ".gm x size=65536\nDataCopy dst=L1:0 src=x blockLen=2048\nSyncAll\n");
    d.write("b.trace", ".gm x size=65536\nSyncAll\n");
    const auto r = harness::run("run " + d.file("k.yaml") + " --out " + d.file("out") +
                                " --instr-log --set issue.sync_all_cycles=" + std::to_string(cost));
    INFO(r.err);
    REQUIRE(r.status == 0);
    const auto t = rows(d);
    const Row copy = t.at({0, 2}), a = t.at({0, 3}), b = t.at({1, 2});
    CHECK(a.start == copy.end);  // core 0 arrives once its copy's data is usable
    CHECK(b.start == copy.end);  // core 1 leaves with it
    CHECK(a.end == copy.end + cost);
    CHECK(b.end == copy.end + cost);
    CHECK(harness::stats(d)["cycles"] == copy.end + cost);
  }
}

TEST_CASE("SyncAll on one core waits for nothing but its own pipes", "[cli][syncall]") {
  TempDir d;
  const auto r =
      harness::run_trace(d, ".gm x size=4096\nDataCopy dst=L1:0 src=x blockLen=128\nSyncAll\nSyncAll\n",
                         "--instr-log --set issue.sync_all_cycles=7");
  INFO(r.err);
  REQUIRE(r.status == 0);
  const auto t = rows(d);
  CHECK(t.at({0, 3}).start == t.at({0, 2}).end);
  CHECK(t.at({0, 3}).end == t.at({0, 2}).end + 7);
  CHECK(t.at({0, 4}).end - t.at({0, 4}).start == 7);
}

TEST_CASE("an atomic Fixpipe gets gm.write.atomic_share of the write bandwidth", "[cli][atomic]") {
  // 64 rows x 128 float = 32 KiB, 512 B-aligned rows: alone, 32768 / (128 B/cycle x share) cycles
  // after the 20-cycle head (the 8192 elements take 128 cycles out of L0C: less).
  const std::string fix =
      "Fixpipe dst=c src=L0C:0 dtype=float nSize=128 mSize=64 srcStride=64 dstStride=128\n";
  for (const double share : {0.5, 0.25}) {
    CAPTURE(share);
    TempDir d;
    const auto r =
        harness::run_trace(d, ".gm c size=32768\nSetAtomicAdd dtype=float\n" + fix + "SetAtomicNone\n",
                           "--instr-log --check none --set gm.write.atomic_share=" + std::to_string(share));
    INFO(r.err);
    REQUIRE(r.status == 0);
    const Row f = rows(d).at({0, 3});
    CHECK(f.busy_end - f.start == 20 + static_cast<uint64_t>(32768 / (128 * share)));
  }
}
