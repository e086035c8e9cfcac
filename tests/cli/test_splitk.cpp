// The two-core split-K GEMM of tests/cli/data/splitk (hand-written manifest and traces): each core
// multiplies one half of K and adds its fp32 partial into the same C under SetAtomicAdd float, then
// SyncAll. C is checked bit for bit against a plain loop that computes the partials from the input
// files and adds them to C0 in the documented order: the order of the two Fixpipes' start cycles
// (instr.csv), ties by core id (docs/semantics.md §9). Removing SyncAll or the atomic mode is a
// cross-core race with its fix, exit 3.
#include <catch2/catch.hpp>

#include <algorithm>
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

// A copy of the kernel in `d`, each trace's lines matching `drop` removed, then each (regex,
// replacement) of `edits` applied to the traces.
std::string copy_kernel(const TempDir& d, const std::string& drop,
                        const std::vector<std::pair<std::string, std::string>>& edits = {}) {
  for (const char* f : {"kernel.yaml", "core0.trace", "core1.trace", "a.bin", "b.bin", "c0.bin"}) {
    std::string text = slurp(kData + "/" + f);
    if (std::string(f).find(".trace") != std::string::npos) {
      if (!drop.empty())
        text = std::regex_replace(text, std::regex("(^|\n)" + drop + "[^\n]*"), "$1# (removed)");
      for (const auto& [from, to] : edits) text = std::regex_replace(text, std::regex(from), to);
    }
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
  // The add order is the time order only while every shared-resource request is on time.
  CHECK(r.err.find("came after their cycle") == std::string::npos);
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

// The half nearest to `v` (ties: the even encoding), by search over every finite half.
uint16_t nearest_half(double v) {
  static const std::vector<std::pair<double, uint16_t>> all = [] {
    std::vector<std::pair<double, uint16_t>> h;
    for (uint32_t b = 0; b < 0x10000; ++b)
      if (((b >> 10) & 31) != 31) h.emplace_back(half(static_cast<uint16_t>(b)), static_cast<uint16_t>(b));
    std::sort(h.begin(), h.end());
    return h;
  }();
  const auto hi = std::lower_bound(all.begin(), all.end(), std::make_pair(v, uint16_t{0}));
  auto best = hi == all.end() ? std::prev(hi) : hi;
  if (hi != all.begin()) {
    const auto lo = std::prev(hi);
    const double dl = v - lo->first, dh = hi == all.end() ? 1e300 : hi->first - v;
    if (dl < dh || (dl == dh && (lo->second & 1) == 0)) best = lo;
  }
  return best->second;
}

TEST_CASE("split-K with half partials: SetAtomicAdd half adds F322F16 results in start-cycle order",
          "[cli][multicore][atomic]") {
  // C0 (16 x 40 half) holds values 600.5 .. 799.5 (spacing 0.5), so the sums reach [1024, 2048)
  // where half has integers only: each add rounds (ties to even) and the order shows. The partials
  // are integers of at most 2048 in magnitude: F322F16 makes them exactly.
  TempDir d;
  std::vector<uint16_t> c0(M * N);
  for (int i = 0; i < M * N; ++i) c0[i] = nearest_half(600.5 + (i * 37) % 200);
  std::ofstream(d.file("c0h.bin"), std::ios::binary)
      .write(reinterpret_cast<const char*>(c0.data()), static_cast<std::streamsize>(c0.size() * 2));
  const std::string k = copy_kernel(d, "",
                                    {{"dtype=float\n", "dtype=half\n"},
                                     {"dstStride=40", "dstStride=40 quantPre=F322F16"},
                                     {"size=2560 file=c0.bin[^\n]*", "size=1280 file=c0h.bin"},
                                     {"size=2560[^\n]*", "size=1280"},
                                     {"blockLen=80", "blockLen=40"}});
  const auto r = harness::run("run " + k + " --out " + d.file("out") + " --instr-log");
  INFO(r.err);
  REQUIRE(r.status == 0);
  std::vector<std::string> header;
  uint64_t start[2] = {0, 0};
  for (const auto& row : harness::csv_rows(d.file("out/instr.csv"), &header))
    if (row[std::find(header.begin(), header.end(), "mnemonic") - header.begin()] == "Fixpipe")
      start[harness::csv_u64(header, row, "core")] = harness::csv_u64(header, row, "start_cycle");
  const int first = start[1] < start[0] ? 1 : 0;
  const auto a = load<uint16_t>(kData + "/a.bin", M * K), b = load<uint16_t>(kData + "/b.bin", K * N);
  const auto got = load<uint16_t>(d.file("out/c.bin"), M * N);
  size_t order_shows = 0;
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      double p[2] = {0, 0};
      for (int kk = 0; kk < K; ++kk) p[kk / KH] += half(a[m * K + kk]) * half(b[kk * N + n]);
      const double c = half(c0[m * N + n]);
      const uint16_t want = nearest_half(half(nearest_half(c + p[first])) + p[1 - first]);
      const uint16_t other = nearest_half(half(nearest_half(c + p[1 - first])) + p[first]);
      order_shows += want != other;
      INFO("C[" << m << "][" << n << "]");
      REQUIRE(got[m * N + n] == want);
    }
  CHECK(order_shows > 0);
}
