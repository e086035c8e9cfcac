// Recent reads of one buffer (or GM tensor) that a later write could still race with. Reads
// are far more frequent than writes (a Cube operand is read by every Mmad, a GM input by every
// tile), and recording each in the shadow map would split its cells at every strided row. So a
// read is appended here as it is, and dropped once every pipe that writes the buffer knows it
// complete (no later write can race with it then). A write checks the reads still here and
// forgets the bytes it overwrites, as FastTrack's write does. If no writer ever catches up, the
// oldest reads fold into the shadow map, so memory stays bounded either way.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "aicore/isa/access.hpp"
#include "refs.hpp"

namespace aicore::check {

class ReadLog {
 public:
  struct Entry {
    AccessRef reader;
    uint16_t fractals = 0;    // a Mmad reader's (m/16)*(n/16), for the interlock rule
    uint64_t lo = 0, hi = 0;  // hull of `ranges`
    std::vector<isa::ByteRange> ranges;
    // A GM read kept as its instruction: `ranges` is just the hull until materialize().
    bool lazy = false;
    std::unique_ptr<isa::Op> op;  // lazy entries only (entries move a lot: keep them small)
  };
  static constexpr size_t kPruneAt = 64, kFoldAt = 256, kFoldTo = 128;

  void add(const AccessRef& reader, uint16_t fractals, const std::vector<isa::ByteRange>& ranges);
  void add_lazy(const AccessRef& reader, const isa::ByteRange& hull, const isa::Op& op);
  size_t size() const { return entries_.size(); }
  std::vector<Entry>& entries() { return entries_; }
  // Drops the entries for which dead(entry) holds, and the empty ones.
  template <class Dead>
  void prune(Dead&& dead) {
    size_t w = 0;
    for (size_t i = 0; i < entries_.size(); ++i) {
      if (!entries_[i].ranges.empty() && !dead(entries_[i])) {
        if (w != i) std::swap(entries_[w], entries_[i]);
        ++w;
      }
    }
    for (size_t i = w; i < entries_.size(); ++i) {
      if (spare_.size() < kFoldAt) spare_.push_back(std::move(entries_[i].ranges));
      if (entries_[i].op && spare_ops_.size() < kFoldAt) spare_ops_.push_back(std::move(entries_[i].op));
    }
    entries_.resize(w);
  }
  // Removes and returns the oldest entries, leaving kFoldTo.
  std::vector<Entry> take_oldest();

 private:
  std::vector<Entry> entries_;
  std::vector<std::vector<isa::ByteRange>> spare_;   // range lists of dropped entries, reused
  std::vector<std::unique_ptr<isa::Op>> spare_ops_;  // and their lazy instructions' boxes
};

// Calls f(lo, hi) for every overlap of two sorted, disjoint range lists.
template <class F>
void for_each_overlap(const std::vector<isa::ByteRange>& a, const std::vector<isa::ByteRange>& b, F&& f) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const uint64_t lo = a[i].begin > b[j].begin ? a[i].begin : b[j].begin;
    const uint64_t hi = a[i].end < b[j].end ? a[i].end : b[j].end;
    if (lo < hi) f(lo, hi);
    if (a[i].end < b[j].end)
      ++i;
    else
      ++j;
  }
}

// Whether e's ranges and `b` (sorted, disjoint) share a byte. Usually a write covers the read's
// whole hull with one range: no walk.
inline bool overlap(const ReadLog::Entry& e, const std::vector<isa::ByteRange>& b) {
  if (e.ranges.empty() || b.empty()) return false;
  if (b.size() == 1 && b.front().begin <= e.lo && b.front().end >= e.hi) return true;
  bool any = false;
  for_each_overlap(e.ranges, b, [&](uint64_t, uint64_t) { any = true; });
  return any;
}

// e's ranges without the bytes of `cut` (both sorted and disjoint); updates e's hull.
void subtract(ReadLog::Entry& e, const std::vector<isa::ByteRange>& cut);
// Gives a lazy entry its exact ranges (the GM source of its instruction).
void materialize(ReadLog::Entry& e);

}  // namespace aicore::check
