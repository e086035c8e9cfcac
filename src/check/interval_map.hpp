// Disjoint byte intervals of one memory, each with a state (the checker's shadow memory). Cells
// are split only where an access begins or ends and equal neighbours are merged again, so a
// buffer holds about as many cells as it has live tiles, whatever its size.
#pragma once
#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>
#include <vector>

#include "aicore/isa/access.hpp"

namespace aicore::check {

// Cell must be default-constructible (the state of bytes never touched) and have
// `bool same(const Cell&) const` (equal states may merge).
template <class Cell>
class IntervalMap {
 public:
  // f(Cell&, lo, hi) on every piece of the ranges, in address order; bytes not in the map yet
  // get a default Cell first.
  template <class F>
  void update(const std::vector<isa::ByteRange>& ranges, F&& f) {
    for (const isa::ByteRange& r : ranges) update_one(r.begin, r.end, f);
  }
  // f(const Cell&, lo, hi) on the parts of existing cells inside the ranges.
  template <class F>
  void inspect(const std::vector<isa::ByteRange>& ranges, F&& f) const {
    for (const isa::ByteRange& r : ranges)
      for (auto it = locate(r.begin); it != map_.end() && it->first < r.end; ++it)
        f(it->second.cell, std::max(r.begin, it->first), std::min(r.end, it->second.end));
  }
  // Every byte of the ranges gets state `c`.
  void assign(const std::vector<isa::ByteRange>& ranges, const Cell& c) {
    for (const isa::ByteRange& r : ranges) assign_one(r.begin, r.end, c);
  }
  // f(lo, hi, const Cell&) over every cell in address order.
  template <class F>
  void for_each(F&& f) const {
    for (const auto& [lo, seg] : map_) f(lo, seg.end, seg.cell);
  }
  size_t size() const { return map_.size(); }

 private:
  struct Seg {
    uint64_t end;
    Cell cell;
  };
  using Map = std::map<uint64_t, Seg>;
  using It = typename Map::iterator;
  using CIt = typename Map::const_iterator;

  // The first cell ending after `pos`.
  It locate(uint64_t pos) {
    It it = map_.upper_bound(pos);
    if (it != map_.begin()) {
      It p = std::prev(it);
      if (p->second.end > pos) return p;
    }
    return it;
  }
  CIt locate(uint64_t pos) const {
    CIt it = map_.upper_bound(pos);
    if (it != map_.begin()) {
      CIt p = std::prev(it);
      if (p->second.end > pos) return p;
    }
    return it;
  }
  // `it` covers `at` strictly inside: cut it there; returns the right part.
  It split(It it, uint64_t at) {
    Seg right{it->second.end, it->second.cell};
    it->second.end = at;
    return map_.emplace_hint(std::next(it), at, right);
  }
  // Merges equal touching cells from the neighbour before `first` to the one after `last`.
  void merge_around(It first, It last) {
    It a = first == map_.begin() ? first : std::prev(first);
    It stop = std::next(last);
    if (stop != map_.end()) ++stop;
    while (a != stop) {
      It b = std::next(a);
      if (b == stop) break;
      if (a->second.end == b->first && a->second.cell.same(b->second.cell)) {
        a->second.end = b->second.end;
        map_.erase(b);
      } else {
        a = b;
      }
    }
  }

  template <class F>
  void update_one(uint64_t lo, uint64_t hi, F& f) {
    if (lo >= hi) return;
    It it = locate(lo);
    if (it != map_.end() && it->first < lo) it = split(it, lo);
    uint64_t pos = lo;
    It first = map_.end(), last = map_.end();
    while (pos < hi) {
      if (it == map_.end() || it->first >= hi)
        it = map_.emplace_hint(it, pos, Seg{hi, Cell{}});
      else if (it->first > pos)
        it = map_.emplace_hint(it, pos, Seg{it->first, Cell{}});
      if (it->second.end > hi) split(it, hi);
      f(it->second.cell, pos, it->second.end);
      if (first == map_.end()) first = it;
      last = it;
      pos = it->second.end;
      ++it;
    }
    merge_around(first, last);
  }

  void assign_one(uint64_t lo, uint64_t hi, const Cell& c) {
    if (lo >= hi) return;
    It it = locate(lo);
    if (it != map_.end() && it->first == lo && it->second.end == hi) {  // the usual case: same tile
      it->second.cell = c;
      merge_around(it, it);
      return;
    }
    if (it != map_.end() && it->first < lo) it = split(it, lo);
    while (it != map_.end() && it->first < hi) {
      if (it->second.end > hi) {
        It right = split(it, hi);
        map_.erase(it);
        it = right;
        break;
      }
      it = map_.erase(it);
    }
    It n = map_.emplace_hint(it, lo, Seg{hi, c});
    merge_around(n, n);
  }

  Map map_;
};

}  // namespace aicore::check
