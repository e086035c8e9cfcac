#include "aicore/model/l2_cache.hpp"

#include <algorithm>

namespace aicore::model {

namespace {
// Sectors of a line (at most 64); without -mpopcnt the builtin is a library call.
uint64_t popcount(uint64_t x) {
  uint64_t n = 0;
  for (; x; x &= x - 1) ++n;
  return n;
}
}  // namespace

void L2Counts::add(const L2Counts& o) {
  read_hits += o.read_hits;
  read_misses += o.read_misses;
  write_hits += o.write_hits;
  write_misses += o.write_misses;
  read_bytes += o.read_bytes;
  write_bytes += o.write_bytes;
  hbm_read_bytes += o.hbm_read_bytes;
  hbm_write_bytes += o.hbm_write_bytes;
  shared_reads += o.shared_reads;
}

double L2Counts::hit_rate() const {
  const uint64_t n = requests();
  return n ? static_cast<double>(read_hits + write_hits) / static_cast<double>(n) : 0.0;
}

L2Cache::L2Cache(const L2Geometry& g, uint32_t cores) : g_(g), counts_(cores) {
  if (g_.bytes == 0) return;
  sets_ = g_.bytes / (uint64_t{g_.line_bytes} * g_.ways);
  const size_t slots = static_cast<size_t>(sets_ * g_.ways);
  tag_ = ZeroedArray<uint64_t>(slots);  // all ways invalid, never used
  used_ = ZeroedArray<uint64_t>(slots);
  way_ = ZeroedArray<Way>(slots);
}

uint64_t L2Cache::set_of(uint64_t line) const {
  // splitmix64's finalizer: every bit of the line number moves the set, so the power-of-two
  // strides of a matrix walk spread like random lines.
  uint64_t x = line;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  x ^= x >> 31;
  return ((x >> 32) * sets_) >> 32;
}

void L2Cache::access(uint64_t begin, uint64_t end, bool write, uint16_t core, uint64_t now,
                     uint64_t read_until, L2Outcome& out) {
  const isa::ByteRange r{begin, end};
  access(&r, 1, 0, write, core, now, read_until, out);
}

void L2Cache::access(const isa::ByteRange* runs, size_t n, uint64_t base, bool write, uint16_t core,
                     uint64_t now, uint64_t read_until, L2Outcome& out) {
  L2Counts& c = counts_[core];
  const uint64_t line_bytes = g_.line_bytes, sector = g_.sector_bytes;
  const uint64_t per_line = line_bytes / sector;
  const uint64_t full = per_line == 64 ? ~uint64_t{0} : (uint64_t{1} << per_line) - 1;
  // First every line the runs touch, with the sectors it needs and its set; then the lookups, each
  // a few lines behind a prefetch of its set's tags, so that the host's cache misses overlap.
  lines_.clear();
  for (size_t i = 0; i < n; ++i) {
    if (runs[i].begin >= runs[i].end) continue;
    const uint64_t begin = base + runs[i].begin, end = base + runs[i].end;
    (write ? c.write_bytes : c.read_bytes) += end - begin;
    const uint64_t first = begin / line_bytes, last = (end - 1) / line_bytes;
    if (g_.bytes == 0) {  // no L2: every request goes to HBM, byte for byte
      const uint64_t lines = last - first + 1;
      out.lines += lines;
      out.misses += lines;
      (write ? c.write_misses : c.read_misses) += lines;
      (write ? out.writeback_bytes : out.fill_bytes) += end - begin;
      (write ? c.hbm_write_bytes : c.hbm_read_bytes) += end - begin;
      continue;
    }
    for (uint64_t line = first; line <= last; ++line) {
      const uint64_t lo = line == first ? begin % line_bytes / sector : 0;
      const uint64_t hi = line == last ? (end - 1) % line_bytes / sector : per_line - 1;
      const uint64_t want = (hi - lo == 63 ? ~uint64_t{0} : ((uint64_t{2} << (hi - lo)) - 1) << lo) & full;
      lines_.push_back(Pending{line, want, static_cast<size_t>(set_of(line) * g_.ways)});
    }
  }
  // The lookups run a few lines behind a prefetch of their sets' tags and use stamps: the host's
  // memory latency, not the work, is what a lookup costs (the tag store is larger than the host's
  // caches).
  // Two stages ahead: the set's tags are fetched kAhead lines early, the hit's way state (found
  // by scanning those tags) kFind lines early, so a hit's touch finds everything in the host's
  // cache. The touch re-checks the slot (an earlier touch of this access may have evicted it) and
  // looks a miss's victim up afresh, so the outcome is that of plain lookups in order.
  constexpr size_t kAhead = 16, kFind = 8;
  const size_t n_lines = lines_.size();
  for (size_t i = 0; i < n_lines && i < kAhead; ++i) prefetch_set(lines_[i].base);
  for (size_t i = 0; i < n_lines && i < kFind; ++i) resolve(lines_[i]);
  for (size_t i = 0; i < n_lines; ++i) {
    if (i + kAhead < n_lines) prefetch_set(lines_[i + kAhead].base);
    if (i + kFind < n_lines) resolve(lines_[i + kFind]);
    touch(lines_[i], write, core, now, read_until, c, out);
  }
}

size_t L2Cache::find(const Pending& p) const {
  const size_t end = p.base + g_.ways;
  const uint64_t tag = p.line + 1;
  size_t slot = p.base;
  while (slot < end && tag_[slot] != tag) ++slot;
  if (slot < end) return slot;
  // The victim: the first invalid way, else the least recently used.
  slot = p.base;
  for (size_t w = p.base; w < end && tag_[slot] != 0; ++w)
    if (tag_[w] == 0 || used_[w] < used_[slot]) slot = w;
  return slot;
}

void L2Cache::resolve(Pending& p) const {
  const size_t end = p.base + g_.ways;
  const uint64_t tag = p.line + 1;
  for (size_t slot = p.base; slot < end; ++slot)
    if (tag_[slot] == tag) {
      p.hit = slot;
      __builtin_prefetch(&way_[slot], 1);
      return;
    }
}

void L2Cache::prefetch_set(size_t base) const {
  // A set's tags and use stamps: ways x 8 bytes each, 128 bytes for 16 ways.
  for (size_t w = 0; w < g_.ways; w += 8) {
    __builtin_prefetch(&tag_[base + w]);
    __builtin_prefetch(&used_[base + w]);
  }
}

void L2Cache::touch(const Pending& p, bool write, uint16_t core, uint64_t now, uint64_t read_until,
                    L2Counts& c, L2Outcome& out) {
  const uint64_t sector = g_.sector_bytes;
  const uint64_t tag = p.line + 1;
  const size_t slot = p.hit != SIZE_MAX && tag_[p.hit] == tag ? p.hit : find(p);
  const bool present = tag_[slot] == tag;
  if (!present) {
    if (tag_[slot] != 0) {
      ++evictions_;
      const uint64_t wb = static_cast<uint64_t>(popcount(way_[slot].dirty)) * sector;
      out.writeback_bytes += wb;
      c.hbm_write_bytes += wb;
      dirty_lines_ -= way_[slot].dirty != 0;
    } else {
      ++valid_lines_;
    }
    tag_[slot] = tag;
    way_[slot] = Way{};
  }
  used_[slot] = ++clock_;
  Way& w = way_[slot];
  ++out.lines;
  if (write) {  // a write allocates without a fill: the sectors it writes become valid and dirty
    ++(present ? out.hits : out.misses);
    ++(present ? c.write_hits : c.write_misses);
    dirty_lines_ += w.dirty == 0 && p.want != 0;
    w.valid |= p.want;
    w.dirty |= p.want;
    return;
  }
  const uint64_t missing = p.want & ~w.valid;
  ++(missing ? out.misses : out.hits);
  ++(missing ? c.read_misses : c.read_hits);
  if (missing) {  // a read fills the sectors it needs and the line does not hold
    const uint64_t fill = static_cast<uint64_t>(popcount(missing)) * sector;
    out.fill_bytes += fill;
    c.hbm_read_bytes += fill;
    w.valid |= missing;
  }
  if (w.read_until > now && w.reader != core) {
    ++out.shared;
    ++c.shared_reads;
  }
  w.reader = core;
  w.read_until = std::max(w.read_until, read_until);
}

L2Counts L2Cache::total() const {
  L2Counts t;
  for (const L2Counts& c : counts_) t.add(c);
  return t;
}

}  // namespace aicore::model
