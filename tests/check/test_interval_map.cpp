// The checker's interval map against a plain per-byte array, under random updates and assigns.
#include <catch2/catch.hpp>
#include <random>

#include "interval_map.hpp"
#include "read_log.hpp"

using aicore::check::IntervalMap;
using aicore::isa::ByteRange;

namespace {

struct Cell {
  int value = 0;  // 0 = never touched
  bool same(const Cell& o) const { return value == o.value; }
};

std::vector<ByteRange> random_ranges(std::mt19937& rng, uint64_t size) {
  std::vector<ByteRange> v;
  uint64_t pos = rng() % 16;
  while (pos < size && v.size() < 6) {
    const uint64_t len = 1 + rng() % 40;
    v.push_back({pos, std::min(size, pos + len)});
    pos = v.back().end + 1 + rng() % 30;
  }
  return v;
}

}  // namespace

TEST_CASE("interval map: update, assign and inspect agree with a byte array", "[check][shadow]") {
  std::mt19937 rng(7);
  constexpr uint64_t kSize = 600;
  IntervalMap<Cell> map;
  std::vector<int> bytes(kSize, 0);
  for (int step = 0; step < 3000; ++step) {
    const auto ranges = random_ranges(rng, kSize);
    const int v = 1 + static_cast<int>(rng() % 4);
    if (rng() % 2) {
      map.assign(ranges, Cell{v});
      for (const auto& r : ranges)
        for (uint64_t b = r.begin; b < r.end; ++b) bytes[b] = v;
    } else {
      // update: every piece seen once, in order, inside the ranges
      uint64_t last = 0;
      map.update(ranges, [&](Cell& c, uint64_t lo, uint64_t hi) {
        CHECK(lo >= last);
        CHECK(lo < hi);
        for (uint64_t b = lo; b < hi; ++b) CHECK(bytes[b] == c.value);
        c.value += v;
        last = hi;
      });
      for (const auto& r : ranges)
        for (uint64_t b = r.begin; b < r.end; ++b) bytes[b] += v;
    }
    // inspect sees exactly the array's contents (gaps = never touched)
    const auto probe = random_ranges(rng, kSize);
    std::vector<int> seen(kSize, -1);
    map.inspect(
        probe,
        [&](const Cell& c, uint64_t lo, uint64_t hi) {
          for (uint64_t b = lo; b < hi; ++b) seen[b] = c.value;
        },
        [&](uint64_t lo, uint64_t hi) {
          for (uint64_t b = lo; b < hi; ++b) seen[b] = 0;
        });
    for (const auto& r : probe)
      for (uint64_t b = r.begin; b < r.end; ++b) REQUIRE(seen[b] == bytes[b]);
    // equal neighbours are merged: no two touching cells hold the same value
    uint64_t prev_hi = UINT64_MAX;
    int prev_v = -1;
    map.for_each([&](uint64_t lo, uint64_t hi, const Cell& c) {
      CHECK(!(lo == prev_hi && c.value == prev_v));
      prev_hi = hi;
      prev_v = c.value;
    });
  }
  CHECK(map.size() < kSize);
}

TEST_CASE("read log: subtract removes exactly the cut bytes", "[check][shadow]") {
  std::mt19937 rng(8);
  for (int i = 0; i < 500; ++i) {
    aicore::check::ReadLog::Entry e;
    e.ranges = random_ranges(rng, 300);
    const auto cut = random_ranges(rng, 300);
    std::vector<bool> want(300, false);
    for (const auto& r : e.ranges)
      for (uint64_t b = r.begin; b < r.end; ++b) want[b] = true;
    for (const auto& r : cut)
      for (uint64_t b = r.begin; b < r.end; ++b) want[b] = false;
    aicore::check::subtract(e, cut);
    std::vector<bool> got(300, false);
    for (size_t k = 0; k < e.ranges.size(); ++k) {
      CHECK(e.ranges[k].begin < e.ranges[k].end);
      if (k) CHECK(e.ranges[k - 1].end <= e.ranges[k].begin);
      for (uint64_t b = e.ranges[k].begin; b < e.ranges[k].end; ++b) got[b] = true;
    }
    CHECK(got == want);
  }
}
