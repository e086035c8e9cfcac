// The chip's L2 cache as tags only (docs/decisions.md, "L2 and HBM"): which GM lines it holds,
// in which order they were used and whether they are dirty, never their bytes (the bytes live
// in GlobalMemory, or nowhere in --timing-only runs), so full and timing-only runs keep the same
// books. Set-associative, true LRU per set, sectored (a line holds the sectors that were read or
// written; a read fills only the sectors it needs), write-back and write-allocate without a fill;
// a set is picked by hashing the line address. Every MTE2 read and Fixpipe write is looked up line by
// line at its start; what it hit, missed, filled from HBM and wrote back tells the GM port
// (gm_port.hpp) what the transfer costs. SystemC-free: unit-tested and benchmarked on its own.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "aicore/isa/access.hpp"
#include "aicore/model/huge_pages.hpp"

namespace aicore::model {

struct L2Geometry {
  uint64_t bytes = 0;         // 0: no L2 (every access goes to HBM, nothing is kept)
  uint32_t line_bytes = 0;    // a power of two
  uint32_t sector_bytes = 0;  // a power of two; line_bytes / sector_bytes <= 64
  uint32_t ways = 0;          // bytes is a multiple of line_bytes x ways
};

// Line requests (one per line a transfer touches; a read misses unless the line holds every
// sector it needs) and bytes, as msprof's L2Cache.csv counts them.
struct L2Counts {
  uint64_t read_hits = 0, read_misses = 0, write_hits = 0, write_misses = 0;
  uint64_t read_bytes = 0, write_bytes = 0;          // bytes the cores asked for (L2 traffic)
  uint64_t hbm_read_bytes = 0, hbm_write_bytes = 0;  // sector fills, write-backs of dirty victims
  uint64_t shared_reads = 0;  // read requests of a line another core was reading at that moment
  void add(const L2Counts& o);
  uint64_t requests() const { return read_hits + read_misses + write_hits + write_misses; }
  double hit_rate() const;  // (read + write hits) / requests; 0 without requests
};

// What one transfer found (its share of the counts above).
struct L2Outcome {
  uint64_t lines = 0, hits = 0, misses = 0, shared = 0;
  uint64_t fill_bytes = 0, writeback_bytes = 0;  // HBM traffic it causes
  uint64_t hbm_bytes() const { return fill_bytes + writeback_bytes; }
};

class L2Cache {
 public:
  L2Cache(const L2Geometry& g, uint32_t cores);

  // The set a line (address / line_bytes) lives in: the high 32 bits of splitmix64's finalizer of
  // the line, scaled to [0, sets) (docs/decisions.md; the reference schedule re-derives it).
  uint64_t set_of(uint64_t line) const;
  uint64_t sets() const { return sets_; }

  // Looks up every line of the chip addresses [begin, end) for `core` at cycle `now` and adds
  // what happened to `out` and to the counts. A read marks the lines as read by `core` until
  // `read_until`; a read of a line another core reads until later than `now` counts as shared.
  void access(uint64_t begin, uint64_t end, bool write, uint16_t core, uint64_t now, uint64_t read_until,
              L2Outcome& out);
  // The same for the `n` runs of one transfer, at chip addresses base + run, in order (the
  // lookups are pipelined: what a line finds is as if looked up alone, one after the other).
  void access(const isa::ByteRange* runs, size_t n, uint64_t base, bool write, uint16_t core, uint64_t now,
              uint64_t read_until, L2Outcome& out);

  const L2Counts& counts(uint16_t core) const { return counts_[core]; }
  L2Counts total() const;
  uint64_t evictions() const { return evictions_; }
  uint64_t valid_lines() const { return valid_lines_; }
  uint64_t dirty_lines() const { return dirty_lines_; }
  const L2Geometry& geometry() const { return g_; }

 private:
  // A line to look up: its number, the sectors it needs, the first slot of its set.
  struct Pending {
    uint64_t line, want;
    size_t base;
    size_t hit = SIZE_MAX;  // the line's slot if a look-ahead found it there (touch re-checks)
  };
  // What a way holds besides its tag and use stamp (read only once the tag scan found the way).
  struct Way {
    uint64_t read_until = 0;        // until when `reader` reads the line
    uint64_t valid = 0, dirty = 0;  // sector masks
    uint16_t reader = 0;
  };
  // The slot of p's line in its set, or the victim a miss would take.
  size_t find(const Pending& p) const;
  // The look-ahead: p's slot if its line is present, and a prefetch of that way's state.
  void resolve(Pending& p) const;
  void prefetch_set(size_t base) const;
  void touch(const Pending& p, bool write, uint16_t core, uint64_t now, uint64_t read_until, L2Counts& c,
             L2Outcome& out);

  L2Geometry g_;
  uint64_t sets_ = 0;
  // One slot per way of every set, set-major: the tag scan of a set reads `ways` adjacent words,
  // the victim search as many use stamps.
  ZeroedArray<uint64_t> tag_;   // line + 1; 0 = invalid
  ZeroedArray<uint64_t> used_;  // LRU stamp
  ZeroedArray<Way> way_;
  std::vector<Pending> lines_;  // scratch of access()
  uint64_t clock_ = 0;          // LRU stamps
  uint64_t evictions_ = 0;
  uint64_t valid_lines_ = 0, dirty_lines_ = 0;  // kept as lines change: counting scans every page
  std::vector<L2Counts> counts_;
};

}  // namespace aicore::model
