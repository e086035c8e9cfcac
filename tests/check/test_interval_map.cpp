// The checker's interval map and strided map against a plain per-byte array, under random updates
// and assigns.
#include <catch2/catch.hpp>
#include <random>

#include "interval_map.hpp"
#include "read_log.hpp"
#include "strided_map.hpp"

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

namespace {

using aicore::check::StridedMap;

// Rows of `len` bytes at `pitch`, or (one time in four) one contiguous range of several rows.
std::vector<ByteRange> strided_ranges(std::mt19937& rng, uint64_t pitch, uint64_t rows) {
  std::vector<ByteRange> v;
  if (rng() % 4 == 0) {
    const uint64_t lo = rng() % (pitch * rows / 2), len = 1 + rng() % (pitch * 3);
    v.push_back({lo, std::min(pitch * rows, lo + len)});
    return v;
  }
  const uint64_t col = rng() % pitch, len = 1 + rng() % (pitch - col), first = rng() % rows;
  const uint64_t count = 1 + rng() % (rows - first);
  for (uint64_t r = first; r < first + count; ++r) {
    const uint64_t lo = r * pitch + col, hi = lo + len;
    if (!v.empty() && v.back().end == lo)
      v.back().end = hi;  // touching rows: one range, as AccessList::seal merges them
    else
      v.push_back({lo, hi});
  }
  return v;
}

}  // namespace

TEST_CASE("strided map: update, exchange and inspect agree with a byte array", "[check][shadow]") {
  for (const uint64_t pitch : {48, 64}) {
    std::mt19937 rng(static_cast<uint32_t>(pitch));
    constexpr uint64_t kRows = 12;
    const uint64_t size = pitch * kRows;
    StridedMap<Cell> map;
    std::vector<int> bytes(size, 0);
    // First a contiguous write, so the flat cells move to rows when the first strided one comes.
    map.update(std::vector<ByteRange>{{5, 70}}, [](Cell& c) { c.value = 9; });
    for (uint64_t b = 5; b < 70; ++b) bytes[b] = 9;
    CHECK(!map.strided());
    for (int step = 0; step < 2000; ++step) {
      // Rows at the pitch, or (once it is fixed) sometimes at another stride.
      const uint64_t stride = map.strided() && rng() % 3 == 0 ? pitch + 16 : pitch;
      auto ranges = strided_ranges(rng, stride, size / stride);
      const int v = 1 + static_cast<int>(rng() % 4);
      const int loud_value = 1 + static_cast<int>(rng() % 4);
      const auto loud = [&](const Cell& c) { return c.value % 4 == loud_value % 4; };
      if (rng() % 2) {
        // exchange: the loud cells' bytes it replaces, each once, in address order
        std::vector<int> seen(size, -1);
        uint64_t last = 0;
        map.exchange(ranges, Cell{v}, loud, [&](const Cell& c, uint64_t lo, uint64_t hi) {
          CHECK(lo >= last);
          CHECK(lo < hi);
          CHECK(loud(c));
          for (uint64_t b = lo; b < hi; ++b) {
            CHECK(seen[b] == -1);
            seen[b] = c.value;
          }
          last = hi;
        });
        for (const auto& r : ranges)
          for (uint64_t b = r.begin; b < r.end; ++b) {
            const bool want = bytes[b] != 0 && loud(Cell{bytes[b]});
            REQUIRE(seen[b] == (want ? bytes[b] : -1));
            bytes[b] = v;
          }
      } else {
        map.update(ranges, [&](Cell& c) { c.value += v; });
        for (const auto& r : ranges)
          for (uint64_t b = r.begin; b < r.end; ++b) bytes[b] += v;
      }
      // inspect: exactly the loud bytes, in address order
      const auto probe = strided_ranges(rng, pitch, kRows);
      std::vector<int> seen(size, -1);
      uint64_t last = 0;
      map.inspect(probe, loud, [&](const Cell& c, uint64_t lo, uint64_t hi) {
        CHECK(lo >= last);
        last = hi;
        for (uint64_t b = lo; b < hi; ++b) seen[b] = c.value;
      });
      for (const auto& r : probe)
        for (uint64_t b = r.begin; b < r.end; ++b) {
          const bool want = bytes[b] != 0 && loud(Cell{bytes[b]});
          REQUIRE(seen[b] == (want ? bytes[b] : -1));
        }
      // for_each: every byte ever touched, in address order
      std::vector<int> all(size, 0);
      last = 0;
      map.for_each([&](uint64_t lo, uint64_t hi, const Cell& c) {
        CHECK(lo >= last);
        last = hi;
        for (uint64_t b = lo; b < hi; ++b) all[b] = c.value;
      });
      REQUIRE(all == bytes);
    }
    CHECK(map.strided());
    CHECK(map.pitch() == pitch);
  }
}

TEST_CASE("strided map: a Fixpipe tile of 128 rows is one cell, not one per row", "[check][shadow]") {
  // The bench_sim GEMM's C: 2048 x 2304 int32, 128 x 128 tiles (rows of 512 bytes, pitch 9216).
  constexpr uint64_t kPitch = 2304 * 4, kTileRows = 128, kTileBytes = 512;
  StridedMap<Cell> map;
  aicore::check::IntervalMap<Cell> flat;
  int v = 0;
  for (uint64_t tr = 0; tr < 2048 / kTileRows; ++tr)
    for (uint64_t tc = 0; tc < kPitch / kTileBytes; ++tc) {
      std::vector<ByteRange> rows;
      for (uint64_t r = 0; r < kTileRows; ++r) {
        const uint64_t lo = (tr * kTileRows + r) * kPitch + tc * kTileBytes;
        rows.push_back({lo, lo + kTileBytes});
      }
      ++v;
      map.exchange(
          rows, Cell{v}, [](const Cell&) { return true; },
          [](const Cell&, uint64_t, uint64_t) { FAIL("nothing was written there before"); });
      flat.assign(rows, Cell{v});
    }
  CHECK(map.cells() == 288);  // one per tile
  CHECK(flat.size() == 288 * kTileRows);
  // A read of one row across two tiles sees both writers, each over its own bytes.
  std::vector<std::pair<int, ByteRange>> seen;
  map.inspect(
      std::vector<ByteRange>{{130 * kPitch + 500, 130 * kPitch + 600}}, [](const Cell&) { return true; },
      [&](const Cell& c, uint64_t lo, uint64_t hi) {
        seen.push_back({c.value, ByteRange{lo, hi}});
      });
  REQUIRE(seen.size() == 2);
  CHECK(seen[0].first == 19);  // tile row 1, tile column 0
  CHECK(seen[0].second == ByteRange{130 * kPitch + 500, 130 * kPitch + 512});
  CHECK(seen[1].first == 20);
  CHECK(seen[1].second == ByteRange{130 * kPitch + 512, 130 * kPitch + 600});
}
