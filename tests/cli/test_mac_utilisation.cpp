// MAC utilisation: each Cube instruction against the peak of its own kind (16 x 16 x the config's
// K per cycle), so a dense int8 kernel reaches 100%; the overall figure weights the kinds by
// their busy cycles. Expected values are worked out by hand from the preset's figures.
#include <catch2/catch.hpp>

#include "harness.hpp"

using Catch::Contains;
using harness::TempDir;

namespace {

// int8 64 x 32 x 128: 4 x 2 fractal pairs x 128/32 = 32 cycles, 262144 MACs = 32 x 8192.
const char* kInt8 = "Mmad dst=L0C:0 fm=L0A:0 filter=L0B:0 m=64 n=32 k=128\n";
// 4:2 sparse 16 x 16 x 128 (original K): 128/64 = 2 cycles, 32768 dense-equivalent = 2 x 16384.
const char* kSparse = "MmadWithSparse dst=L0C:0x10000 fm=L0A:0x8000 filter=L0B:0x8000 m=16 n=16 k=128\n";
// half 16 x 16 x 24: ceil(24/16) = 2 cycles for 6144 MACs = 1.5 x 4096: 75%.
const char* kHalf = "Mmad dst=L0C:0x8000 fm=L0A:0x4000 filter=L0B:0x4000 m=16 n=16 k=24 dtype=half\n";

}  // namespace

TEST_CASE("mac utilisation: a dense int8 kernel reaches exactly 100% of the int8 peak", "[cli][stats][mac]") {
  TempDir d;
  const auto r = harness::run_trace(d, std::string(kInt8) + kInt8, "--check none --set cube.head_cycles=0");
  REQUIRE(r.status == 0);
  const auto s = harness::stats(d);
  const auto& int8 = s["cube"]["kinds"]["int8"];
  CHECK(int8["peak_macs_per_cycle"] == 16 * 16 * s["config"]["cube"]["int8_k_per_cycle"].get<int>());
  CHECK(int8["peak_macs_per_cycle"] == 8192);
  CHECK(int8["instructions"] == 2);
  CHECK(int8["busy_cycles"] == 64);
  CHECK(int8["dense_equivalent_macs"] == 2 * 262144);
  CHECK(int8["utilisation"] == 1.0);
  CHECK(s["cube"]["mac_utilisation"] == 1.0);
  CHECK(s["cube"]["run_mac_utilisation"] == 1.0);  // the Cube starts at cycle 0 and never idles
  CHECK(s["cube"]["kinds"]["sparse"]["utilisation"] == 0.0);
  CHECK(s["cube"]["kinds"]["b16"]["busy_cycles"] == 0);
  CHECK_THAT(r.out, Contains("  Cube MAC utilisation: 100.0% while busy, 100.0% of the run") &&
                        Contains("    int8   100.0% of  8192 MAC/cycle while busy  busy         64 cycles") &&
                        !Contains("    sparse "));
}

TEST_CASE("mac utilisation: head cycles count against the instruction", "[cli][stats][mac]") {
  TempDir d;
  const auto r = harness::run_trace(d, kInt8, "--check none");  // atlas-a2: 4 head cycles
  REQUIRE(r.status == 0);
  const auto s = harness::stats(d);
  CHECK(s["cube"]["kinds"]["int8"]["busy_cycles"] == 36);
  CHECK(s["cube"]["kinds"]["int8"]["utilisation"].get<double>() == Approx(32.0 / 36.0));
  CHECK_THAT(r.out, Contains("    int8    88.9% of  8192 MAC/cycle while busy"));
}

TEST_CASE("mac utilisation: sparse and b16 against their own peaks, overall cycle-weighted",
          "[cli][stats][mac]") {
  TempDir d;
  const auto r =
      harness::run_trace(d, std::string(kInt8) + kSparse + kHalf, "--check none --set cube.head_cycles=0");
  REQUIRE(r.status == 0);
  const auto s = harness::stats(d);
  const auto& k = s["cube"]["kinds"];
  CHECK(k["sparse"]["peak_macs_per_cycle"] == 16384);
  CHECK(k["sparse"]["utilisation"] == 1.0);
  CHECK(k["b16"]["peak_macs_per_cycle"] == 4096);
  CHECK(k["b16"]["ideal_cycles"] == 1.5);
  CHECK(k["b16"]["utilisation"] == 0.75);
  // (32 + 2 + 1.5) ideal cycles over (32 + 2 + 2) busy cycles.
  CHECK(s["cube"]["ideal_cycles"] == 35.5);
  CHECK(s["cube"]["busy_cycles"] == 36);
  CHECK(s["cube"]["mac_utilisation"].get<double>() == Approx(35.5 / 36));
  CHECK(s["cube"]["run_mac_utilisation"].get<double>() == Approx(35.5 / s["cycles"].get<double>()));
  CHECK_THAT(r.out, Contains("    b16     75.0% of  4096 MAC/cycle") &&
                        Contains("    sparse 100.0% of 16384 MAC/cycle"));
}

TEST_CASE("mac utilisation: the peaks follow the config's K per cycle", "[cli][stats][mac]") {
  TempDir d;
  const auto r =
      harness::run_trace(d, kInt8, "--check none --set cube.head_cycles=0 --set cube.int8_k_per_cycle=16");
  REQUIRE(r.status == 0);
  const auto s = harness::stats(d);
  CHECK(s["cube"]["kinds"]["int8"]["peak_macs_per_cycle"] == 4096);
  CHECK(s["cube"]["kinds"]["int8"]["busy_cycles"] == 64);  // twice the cycles at half the rate
  CHECK(s["cube"]["kinds"]["int8"]["utilisation"] == 1.0);
}
