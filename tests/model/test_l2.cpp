// The L2 tag store on its own (model/l2_cache.hpp): hits and misses by line, LRU within a set,
// write-back with write-allocate, the "another core reads it now" mark, no L2 at all, and that
// the set hash spreads the strides a matrix walk makes.
#include <catch2/catch.hpp>

#include <set>
#include <vector>

#include "aicore/model/l2_cache.hpp"

using aicore::model::L2Cache;
using aicore::model::L2Geometry;
using aicore::model::L2Outcome;

namespace {
L2Outcome access(L2Cache& l2, uint64_t begin, uint64_t end, bool write = false, uint16_t core = 0,
                 uint64_t now = 0, uint64_t until = 0) {
  L2Outcome o;
  l2.access(begin, end, write, core, now, until, o);
  return o;
}
}  // namespace

TEST_CASE("l2: a read misses every line it touches once, fills whole lines, then hits", "[model][l2]") {
  L2Cache l2(L2Geometry{1 << 20, 512, 512, 16}, 1);
  const L2Outcome cold = access(l2, 100, 1100);  // lines 0, 1, 2
  CHECK(cold.lines == 3);
  CHECK(cold.misses == 3);
  CHECK(cold.fill_bytes == 3 * 512);
  CHECK(cold.writeback_bytes == 0);
  const L2Outcome warm = access(l2, 0, 1536);
  CHECK(warm.hits == 3);
  CHECK(warm.misses == 0);
  CHECK(warm.hbm_bytes() == 0);
  const auto& c = l2.counts(0);
  CHECK(c.read_hits == 3);
  CHECK(c.read_misses == 3);
  CHECK(c.read_bytes == 1000 + 1536);
  CHECK(c.hbm_read_bytes == 1536);
  CHECK(c.hit_rate() == Approx(0.5));
  CHECK(l2.valid_lines() == 3);
}

TEST_CASE("l2: a sectored line fills only the sectors a read needs", "[model][l2]") {
  L2Cache l2(L2Geometry{1 << 20, 512, 128, 16}, 1);
  const L2Outcome row = access(l2, 128, 256);  // one 128-byte row: sector 1 of line 0
  CHECK(row.misses == 1);
  CHECK(row.fill_bytes == 128);
  CHECK(access(l2, 130, 250).hits == 1);         // inside sector 1
  const L2Outcome wider = access(l2, 100, 300);  // sectors 0, 1, 2: two of them missing
  CHECK(wider.misses == 1);
  CHECK(wider.fill_bytes == 256);
  CHECK(access(l2, 0, 384).hits == 1);
  const L2Outcome w = access(l2, 512 + 384, 1024, true);  // line 1, sector 3 written
  CHECK(w.misses == 1);
  CHECK(w.fill_bytes == 0);
  CHECK(access(l2, 512 + 384, 1024).hits == 1);  // what was written is there
  CHECK(access(l2, 512, 600).misses == 1);       // the rest of the line is not
  CHECK(l2.counts(0).hbm_read_bytes == 128 + 256 + 128);
}

TEST_CASE("l2: only the dirty sectors of a line are written back", "[model][l2]") {
  L2Cache l2(L2Geometry{512, 512, 128, 1}, 1);  // one line
  access(l2, 0, 100, true);                     // sector 0 dirty
  access(l2, 256, 512, true);                   // sectors 2 and 3 dirty
  const L2Outcome evict = access(l2, 4096, 4100);
  CHECK(evict.writeback_bytes == 3 * 128);
  CHECK(evict.fill_bytes == 128);
}

TEST_CASE("l2: LRU within a set: the least recently used line goes", "[model][l2]") {
  // One set of two 512-byte ways: lines A=0, B=1, C=2.
  L2Cache l2(L2Geometry{1024, 512, 512, 2}, 1);
  REQUIRE(l2.sets() == 1);
  access(l2, 0, 512);                         // A
  access(l2, 512, 1024);                      // B
  CHECK(access(l2, 0, 512).hits == 1);        // A again: B is now the LRU
  CHECK(access(l2, 1024, 1536).misses == 1);  // C evicts B
  CHECK(l2.evictions() == 1);
  CHECK(access(l2, 0, 512).hits == 1);       // A stayed
  CHECK(access(l2, 512, 1024).misses == 1);  // B was the one that went
}

TEST_CASE("l2: writes allocate without a fill and are written back when evicted", "[model][l2]") {
  L2Cache l2(L2Geometry{1024, 512, 512, 2}, 2);
  const L2Outcome w = access(l2, 0, 1024, true, 1);
  CHECK(w.misses == 2);
  CHECK(w.fill_bytes == 0);
  CHECK(l2.dirty_lines() == 2);
  CHECK(access(l2, 0, 100, false, 0).hits == 1);             // another core reads what core 1 wrote: a hit
  const L2Outcome evict = access(l2, 4096, 5120, false, 0);  // two new lines push both dirty ones out
  CHECK(evict.misses == 2);
  CHECK(evict.fill_bytes == 1024);
  CHECK(evict.writeback_bytes == 1024);
  CHECK(l2.dirty_lines() == 0);
  CHECK(l2.counts(0).hbm_write_bytes == 1024);  // charged to the core whose miss evicted them
  CHECK(l2.counts(1).write_misses == 2);
  CHECK(l2.total().requests() == 5);
}

TEST_CASE("l2: a read of a line another core is still reading is shared; the same core's is not",
          "[model][l2]") {
  L2Cache l2(L2Geometry{1 << 20, 512, 512, 16}, 3);
  access(l2, 0, 2048, false, 0, 0, 100);                          // core 0 reads 4 lines until 100
  CHECK(access(l2, 0, 1024, false, 1, 99, 150).shared == 2);      // core 1 at 99: while core 0 reads
  CHECK(access(l2, 1024, 2048, false, 2, 100, 150).shared == 0);  // core 2 at 100: core 0 is done
  CHECK(access(l2, 0, 512, false, 1, 120, 150).shared == 0);      // core 1 itself is the last reader
  CHECK(access(l2, 0, 512, false, 0, 120, 150).shared == 1);      // but core 0 again: core 1 reads it
  CHECK(access(l2, 0, 512, true, 2, 120, 150).shared == 0);       // writes are never shared
  CHECK(l2.counts(1).shared_reads == 2);
}

TEST_CASE("l2: with no L2 every request goes to HBM byte for byte", "[model][l2]") {
  L2Cache l2(L2Geometry{0, 512, 512, 16}, 1);
  CHECK(access(l2, 100, 1100).misses == 3);
  CHECK(access(l2, 100, 1100).fill_bytes == 1000);
  CHECK(access(l2, 0, 64, true).writeback_bytes == 64);
  CHECK(l2.counts(0).read_hits == 0);
  CHECK(l2.valid_lines() == 0);
}

TEST_CASE("l2: the set hash spreads power-of-two strides over the sets", "[model][l2]") {
  // 192 MiB, 512-byte lines, 16 ways: 24576 sets (not a power of two).
  L2Cache l2(L2Geometry{201326592, 512, 512, 16}, 1);
  REQUIRE(l2.sets() == 24576);
  // A column of 16 KiB-strided rows (a matrix walk) lands on as many sets as a run of lines.
  std::set<uint64_t> strided, contiguous;
  for (uint64_t i = 0; i < 4096; ++i) {
    strided.insert(l2.set_of(i * 32));
    contiguous.insert(l2.set_of(i));
    CHECK(l2.set_of(i * 32) < l2.sets());
  }
  CHECK(strided.size() > 3500);  // 4096 balls into 24576 bins: about 3773 distinct
  CHECK(contiguous.size() > 3500);
  // Written out for line 1: splitmix64's finalizer of 1 is 0x5692161D100B05E5; its high 32 bits
  // times 24576 / 2^32.
  CHECK(l2.set_of(1) == (0x5692161D100B05E5ull >> 32) * 24576 >> 32);
}

TEST_CASE("l2: a sweep larger than the L2 misses again, one of half its size hits", "[model][l2]") {
  L2Cache l2(L2Geometry{201326592, 512, 512, 16}, 1);
  for (int pass = 0; pass < 2; ++pass) access(l2, 0, 96ull << 20);
  // Half full on average, hashed sets: a set gets more than its 16 ways now and then.
  CHECK(l2.counts(0).read_hits > (96ull << 20) / 512 * 99 / 100);
  L2Cache big(L2Geometry{201326592, 512, 512, 16}, 1);
  for (int pass = 0; pass < 2; ++pass) access(big, 0, 256ull << 20);
  CHECK(big.counts(0).read_hits < (256ull << 20) / 512 / 4);  // LRU: a sweep bigger than L2 misses
}
