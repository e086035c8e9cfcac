// The two-core split-K GEMM of tests/cli/data/splitk (hand-written manifest and traces): each core
// multiplies one half of K and adds its fp32 partial into the same C under SetAtomicAdd float, then
// SyncAll. C is checked bit for bit against a plain loop that computes the partials from the input
// files and adds them to C0 in the documented order: the order of the two Fixpipes' start cycles
// (instr.csv), ties by core id (docs/semantics.md §9). Removing SyncAll or the atomic mode is a
// cross-core race with its fix, exit 3.
#include <catch2/catch.hpp>

#include <cstring>
#include <fstream>
#include <regex>

#include "harness.hpp"

using Catch::Matchers::Contains;
using harness::TempDir;
using test_support::slurp;

namespace {

const std::string kData = std::string(AICORE_SOURCE_DIR) + "/tests/cli/data/splitk";
constexpr int M = 16, N = 40, K = 64, KH = 32;

// IEEE half -> float, written from the format (1-5-10), independently of the simulator.
float half(uint16_t h) {
  const int e = (h >> 10) & 31, m = h & 1023;
  const float v =
      e == 0 ? std::ldexp(static_cast<float>(m), -24) : std::ldexp(static_cast<float>(m + 1024), e - 25);
  return (h & 0x8000) ? -v : v;
}

template <class T>
std::vector<T> load(const std::string& path, size_t count) {
  const std::string bytes = slurp(path);
  REQUIRE(bytes.size() == count * sizeof(T));
  std::vector<T> v(count);
  std::memcpy(v.data(), bytes.data(), bytes.size());
  return v;
}

// C0 + the partials, added one element at a time in float, core `first`'s partial first.
std::vector<float> reference(int first) {
  const auto a = load<uint16_t>(kData + "/a.bin", M * K), b = load<uint16_t>(kData + "/b.bin", K * N);
  auto c = load<float>(kData + "/c0.bin", M * N);
  for (const int core : {first, 1 - first})
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < N; ++n) {
        float p = 0;  // small integers: exact in any order
        for (int k = core * KH; k < core * KH + KH; ++k) p += half(a[m * K + k]) * half(b[k * N + n]);
        c[m * N + n] += p;
      }
  return c;
}

// A copy of the kernel in `d`, each trace's lines matching `drop` removed.
std::string copy_kernel(const TempDir& d, const std::string& drop) {
  for (const char* f : {"kernel.yaml", "core0.trace", "core1.trace", "a.bin", "b.bin", "c0.bin"}) {
    std::string text = slurp(kData + "/" + f);
    if (!drop.empty() && std::string(f).find(".trace") != std::string::npos)
      text = std::regex_replace(text, std::regex("(^|\n)" + drop + "[^\n]*"), "$1# (removed)");
    std::ofstream(d.file(f), std::ios::binary) << text;
  }
  return d.file("kernel.yaml");
}

}  // namespace

TEST_CASE("split-K on two cores: atomic fp32 adds into one C, bit-exact in start-cycle order",
          "[cli][multicore][atomic]") {
  TempDir d;
  const auto r = harness::run("run " + kData + "/kernel.yaml --out " + d.file("out") + " --instr-log");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.err.find("error") == std::string::npos);
  // Which core's Fixpipe started first (the documented add order), from instr.csv.
  std::vector<std::string> header;
  uint64_t start[2] = {UINT64_MAX, UINT64_MAX};
  for (const auto& row : harness::csv_rows(d.file("out/instr.csv"), &header)) {
    const auto col = [&](const std::string& name) {
      return row[std::find(header.begin(), header.end(), name) - header.begin()];
    };
    if (col("mnemonic") == "Fixpipe")
      start[harness::csv_u64(header, row, "core")] = harness::csv_u64(header, row, "start_cycle");
  }
  REQUIRE(start[0] != UINT64_MAX);
  REQUIRE(start[1] != UINT64_MAX);
  const int first = start[1] < start[0] ? 1 : 0;  // ties: core 0 first
  const auto got = load<float>(d.file("out/c.bin"), M * N);
  const auto want = reference(first), other = reference(1 - first);
  size_t order_shows = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    INFO("element " << i);
    REQUIRE(std::memcmp(&got[i], &want[i], 4) == 0);
    order_shows += std::memcmp(&want[i], &other[i], 4) != 0;
  }
  CHECK(order_shows > 0);  // the data makes the order visible: the test would catch a wrong one
}

TEST_CASE("split-K without SyncAll: core 1's Fixpipe races core 0's read of C, the fix names SyncAll",
          "[cli][multicore][atomic][check]") {
  TempDir d;
  const auto r = harness::run("run " + copy_kernel(d, "SyncAll") + " --out " + d.file("out"));
  CHECK(r.status == 3);
  CHECK_THAT(r.err,
             Contains("cross-core data race (RW) on GM c [0x0, 0xa00): core 1's Fixpipe (FIX) writes GM "
                      "bytes that core 0's DataCopy (MTE2) at line 31 reads; no SyncAll orders them"));
  CHECK_THAT(r.err,
             Contains("fix: put SyncAll between core 1's Fixpipe at ") &&
                 Contains("core1.trace:25 and core 0's DataCopy at ") &&
                 Contains("core0.trace:31 (every core of the launch calls it, after the write and before "
                          "the read)"));
  const auto checks = nlohmann::json::parse(slurp(d.file("out/checks.json")));
  bool found = false;
  for (const auto& rep : checks["reports"])
    if (rep["kind"] == "cross-core-race") {
      found = true;
      CHECK(rep["fix"]["kind"] == "sync-all");
      CHECK(rep["fix"]["after_line"] == 25);
      CHECK(rep["fix"]["before_line"] == 31);
    }
  CHECK(found);
}

TEST_CASE("split-K without the atomic mode: both Fixpipes write C, the fix names SetAtomicAdd<float>",
          "[cli][multicore][atomic][check]") {
  TempDir d;
  const auto r = harness::run("run " + copy_kernel(d, "SetAtomic") + " --out " + d.file("out"));
  CHECK(r.status == 3);
  CHECK_THAT(r.err,
             Contains("cross-core data race (WAW) on GM c [0x0, 0xa00): core 1's Fixpipe (FIX) writes GM "
                      "bytes that core 0's Fixpipe (FIX) at line 26 writes; no SyncAll orders them"));
  CHECK_THAT(r.err, Contains("fix: to accumulate, wrap the Fixpipe on each core in SetAtomicAdd<float>() ... "
                             "SetAtomicNone() (core 0's Fixpipe at ") &&
                        Contains("core0.trace:26, core 1's Fixpipe at ") &&
                        Contains("core1.trace:25); to overwrite"));
}
