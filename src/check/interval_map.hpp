// Disjoint byte intervals of one memory, each with a state (the checker's shadow memory). Cells
// are split only where an access begins or ends and equal neighbours are merged again, so a
// buffer holds about as many cells as it has live tiles, whatever its size.
#pragma once
#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>
#include <memory>
#include <memory_resource>
#include <new>
#include <vector>

#include "aicore/isa/access.hpp"

namespace aicore::check {

// The nodes of one map: std::map allocates them one at a time, all of one size, so a free list
// recycles them (cheaper than a general pool). Other sizes go to the default resource.
class NodePool : public std::pmr::memory_resource {
 public:
  NodePool() = default;
  NodePool(const NodePool&) = delete;
  NodePool& operator=(const NodePool&) = delete;
  ~NodePool() override {
    for (void* c : chunks_) ::operator delete(c);
  }

 private:
  struct Free {
    Free* next;
  };
  static constexpr size_t kChunkNodes = 256;
  void* do_allocate(size_t bytes, size_t align) override {
    if (size_ == 0 && bytes >= sizeof(Free) && align <= alignof(std::max_align_t)) size_ = bytes;
    if (bytes != size_ || align > alignof(std::max_align_t))
      return std::pmr::new_delete_resource()->allocate(bytes, align);
    if (!free_) {
      const size_t stride =
          (size_ + alignof(std::max_align_t) - 1) / alignof(std::max_align_t) * alignof(std::max_align_t);
      char* chunk = static_cast<char*>(::operator new(stride* kChunkNodes));
      chunks_.push_back(chunk);
      for (size_t i = kChunkNodes; i-- > 0;) free_ = new (chunk + i * stride) Free{free_};
    }
    Free* f = free_;
    free_ = f->next;
    return f;
  }
  void do_deallocate(void* p, size_t bytes, size_t align) override {
    if (bytes != size_ || align > alignof(std::max_align_t))
      return std::pmr::new_delete_resource()->deallocate(p, bytes, align);
    free_ = new (p) Free{free_};
  }
  bool do_is_equal(const std::pmr::memory_resource& o) const noexcept override { return this == &o; }

  size_t size_ = 0;
  Free* free_ = nullptr;
  std::vector<void*> chunks_;
};

// Cell must be default-constructible (the state of bytes never touched) and have
// `bool same(const Cell&) const` (equal states may merge).
template <class Cell>
class IntervalMap {
 public:
  IntervalMap() : pool_(std::make_unique<NodePool>()), map_(pool_.get()) {}
  // A move keeps the nodes (and their pool) but not the hint, which may be the old end().
  IntervalMap(IntervalMap&& o) noexcept : pool_(std::move(o.pool_)), map_(std::move(o.map_)) {}
  IntervalMap& operator=(IntervalMap&&) = delete;
  IntervalMap(const IntervalMap&) = delete;
  IntervalMap& operator=(const IntervalMap&) = delete;

  // f(Cell&, lo, hi) on every piece of the ranges, in address order; bytes not in the map yet
  // get a default Cell first.
  template <class F>
  void update(const std::vector<isa::ByteRange>& ranges, F&& f) {
    for (const isa::ByteRange& r : ranges) update_one(r.begin, r.end, f);
  }
  // The same on one range [lo, hi).
  template <class F>
  void update_range(uint64_t lo, uint64_t hi, F&& f) {
    update_one(lo, hi, f);
  }
  // f(const Cell&, lo, hi) on the parts of existing cells inside the ranges.
  template <class F>
  void inspect(const std::vector<isa::ByteRange>& ranges, F&& f) const {
    for (const isa::ByteRange& r : ranges) inspect_range(r.begin, r.end, f);
  }
  template <class F>
  void inspect_range(uint64_t lo, uint64_t hi, F&& f) const {
    for (auto it = locate(lo); it != map_.end() && it->first < hi; ++it)
      f(it->second.cell, std::max(lo, it->first), std::min(hi, it->second.end));
  }
  // The same, and gap(lo, hi) for the bytes of the ranges no cell holds (never touched).
  template <class F, class G>
  void inspect(const std::vector<isa::ByteRange>& ranges, F&& f, G&& gap) const {
    for (const isa::ByteRange& r : ranges) {
      uint64_t pos = r.begin;
      for (auto it = locate(r.begin); it != map_.end() && it->first < r.end; ++it) {
        if (it->first > pos) gap(pos, it->first);
        const uint64_t hi = std::min(r.end, it->second.end);
        f(it->second.cell, std::max(r.begin, it->first), hi);
        pos = hi;
      }
      if (pos < r.end) gap(pos, r.end);
    }
  }
  // The cell holding every byte of [lo, hi), if one does (the common case of a tile read or
  // overwritten whole: one check instead of one per row).
  const Cell* covering(uint64_t lo, uint64_t hi) const {
    if (lo >= hi) return nullptr;
    const CIt it = locate(lo);
    if (it == map_.end() || it->first > lo || it->second.end < hi) return nullptr;
    return &it->second.cell;
  }
  bool empty() const { return map_.empty(); }
  // Every byte of the ranges gets state `c`.
  void assign(const std::vector<isa::ByteRange>& ranges, const Cell& c) {
    const auto ignore = [](const Cell&, uint64_t, uint64_t) {};
    for (const isa::ByteRange& r : ranges) assign_one(r.begin, r.end, c, ignore);
  }
  // The same, calling seen(const Cell&, lo, hi) first on the parts of existing cells it
  // replaces, in address order: inspect() and assign() in one walk.
  template <class F>
  void exchange(const std::vector<isa::ByteRange>& ranges, const Cell& c, F&& seen) {
    for (const isa::ByteRange& r : ranges) assign_one(r.begin, r.end, c, seen);
  }
  // f(lo, hi, const Cell&) over every cell in address order.
  template <class F>
  void for_each(F&& f) const {
    for (const auto& [lo, seg] : map_) f(lo, seg.end, seg.cell);
  }
  size_t size() const { return map_.size(); }
  void clear() {
    map_.clear();
    hint_ = map_.cend();
  }

 private:
  struct Seg {
    uint64_t end;
    Cell cell;
  };
  // Cells split and merge all the time as tiles come and go: their nodes come from a pool of
  // this map's own (held by pointer, so the map may move).
  using Map = std::pmr::map<uint64_t, Seg>;
  using It = typename Map::iterator;
  using CIt = typename Map::const_iterator;

  // The first cell ending after `pos`. Accesses walk up through memory (a strided copy, the
  // rows of a tile), so the cell found last, or the one after it, is tried before the tree.
  CIt locate(uint64_t pos) const {
    if (hint_ != map_.cend() && hint_->first <= pos) {
      if (pos < hint_->second.end) return hint_;
      const CIt n = std::next(hint_);
      if (n == map_.cend() || pos < n->first) return n;
      if (pos < n->second.end) return hint_ = n;
    }
    CIt it = map_.upper_bound(pos);
    if (it != map_.cbegin()) {
      CIt p = std::prev(it);
      if (p->second.end > pos) it = p;
    }
    if (it != map_.cend()) hint_ = it;
    return it;
  }
  It locate(uint64_t pos) {
    const CIt c = static_cast<const IntervalMap*>(this)->locate(pos);
    return map_.erase(c, c);  // const_iterator -> iterator
  }
  // Erasing may remove the hinted cell: forget it.
  It erase(It it) {
    hint_ = map_.cend();
    return map_.erase(it);
  }
  // `it` covers `at` strictly inside: cut it there; returns the right part.
  It split(It it, uint64_t at) {
    Seg right{it->second.end, it->second.cell};
    it->second.end = at;
    return map_.emplace_hint(std::next(it), at, right);
  }
  // Merges cell `n` with equal touching neighbours (merge_around(n, n), without the walk).
  void merge_one(It n) {
    if (n != map_.begin()) {
      const It p = std::prev(n);
      if (p->second.end == n->first && p->second.cell.same(n->second.cell)) {
        p->second.end = n->second.end;
        erase(n);
        n = p;
      }
    }
    const It next = std::next(n);
    if (next != map_.end() && n->second.end == next->first && n->second.cell.same(next->second.cell)) {
      n->second.end = next->second.end;
      erase(next);
    }
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
        erase(b);
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

  template <class F>
  void assign_one(uint64_t lo, uint64_t hi, const Cell& c, F& seen) {
    if (lo >= hi) return;
    It it = locate(lo);
    if (it != map_.end() && it->first == lo && it->second.end == hi) {  // the usual case: same tile
      seen(static_cast<const Cell&>(it->second.cell), lo, hi);
      it->second.cell = c;
      merge_one(it);
      return;
    }
    if (it != map_.end() && it->first < lo) it = split(it, lo);
    while (it != map_.end() && it->first < hi) {
      seen(static_cast<const Cell&>(it->second.cell), it->first, std::min(hi, it->second.end));
      if (it->second.end > hi) {
        It right = split(it, hi);
        erase(it);
        it = right;
        break;
      }
      it = erase(it);
    }
    merge_one(map_.emplace_hint(it, lo, Seg{hi, c}));
  }

  std::unique_ptr<NodePool> pool_;
  Map map_;
  mutable CIt hint_ = map_.cend();  // the cell locate() found last (end: none)
};

}  // namespace aicore::check
