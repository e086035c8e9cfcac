// The cells of a GM tensor (the checker's shadow of its writers, and the cross-core maps). A
// Fixpipe writes its tile as rows at the tensor's row pitch (128 rows of 512 bytes, 9216 bytes
// apart, in bench_sim's GEMM): an interval map over bytes holds one cell per row, as many as
// the tile has rows. This map holds the tile as one cell. It starts as an interval map over
// bytes; the first access of two ranges or more fixes the pitch P (the distance between its
// first two ranges), and from then on it is an interval map over rows of P bytes whose cells
// are each row's column pieces. A range becomes its partial first row, its whole rows and its
// partial last row, and consecutive rows of the same columns one rectangle: an access at
// pitch P costs one rectangle, any other access one per row, and every byte stays exact.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "interval_map.hpp"

namespace aicore::check {

template <class Cell>
class StridedMap {
 public:
  bool empty() const { return pitch_ ? rows_.empty() : flat_.empty(); }
  bool strided() const { return pitch_ != 0; }
  uint64_t pitch() const { return pitch_; }
  // Cells held: the flat map's, or the column pieces of every run of equal rows.
  size_t cells() const {
    if (!pitch_) return flat_.size();
    size_t n = 0;
    rows_.for_each([&](uint64_t, uint64_t, const Row& row) { n += row.pieces.size(); });
    return n;
  }

  // The cell holding every byte of the ranges' hull, if one does (IntervalMap::covering); while
  // strided, none (inspect's first pass is as cheap as this test would be).
  const Cell* covering(const std::vector<isa::ByteRange>& ranges) const {
    if (pitch_ || ranges.empty()) return nullptr;
    return flat_.covering(ranges.front().begin, ranges.back().end);
  }

  // f(const Cell&, lo, hi) on the parts of cells inside the ranges whose cell is loud(cell), in
  // address order: what IntervalMap::inspect gives for those cells, perhaps cut at row ends. A
  // quiet cell costs its loud() test, not a call per row.
  template <class Loud, class F>
  void inspect(const std::vector<isa::ByteRange>& ranges, Loud&& loud, F&& f) const {
    if (!pitch_) {
      flat_.inspect(ranges, [&](const Cell& c, uint64_t lo, uint64_t hi) {
        if (loud(c)) f(c, lo, hi);
      });
      return;
    }
    to_rects(ranges);
    if (any_loud(loud)) each_piece(loud, f);
  }

  // Every byte of the ranges gets state `c`; first, seen(const Cell&, lo, hi) on the parts of
  // loud cells it replaces, in address order (IntervalMap::exchange, quiet cells left out).
  template <class Loud, class F>
  void exchange(const std::vector<isa::ByteRange>& ranges, const Cell& c, Loud&& loud, F&& seen) {
    if (!pitch_ && !take_pitch(ranges)) {
      flat_.exchange(ranges, c, [&](const Cell& old, uint64_t lo, uint64_t hi) {
        if (loud(old)) seen(old, lo, hi);
      });
      return;
    }
    to_rects(ranges);
    if (any_loud(loud)) each_piece(loud, seen);  // before any is replaced, as the flat map does
    for (const Rect& r : rects_)
      rows_.update_range(r.r0, r.r1, [&](Row& row, uint64_t, uint64_t) { row.assign(r.c0, r.c1, c); });
  }

  // f(Cell&) on every cell piece of the ranges (a default Cell where none was), once per cell
  // piece rather than per row; neighbours left equal are merged.
  template <class F>
  void update(const std::vector<isa::ByteRange>& ranges, F&& f) {
    if (!pitch_ && !take_pitch(ranges)) {
      flat_.update(ranges, [&](Cell& c, uint64_t, uint64_t) { f(c); });
      return;
    }
    to_rects(ranges);
    for (const Rect& r : rects_)
      rows_.update_range(r.r0, r.r1, [&](Row& row, uint64_t, uint64_t) { row.update(r.c0, r.c1, f); });
  }

  // f(lo, hi, const Cell&) over every cell in address order (a strided cell once per row).
  template <class F>
  void for_each(F&& f) const {
    if (!pitch_) return flat_.for_each(f);
    rows_.for_each([&](uint64_t r0, uint64_t r1, const Row& row) {
      for (uint64_t r = r0; r < r1; ++r)
        for (const Piece& p : row.pieces) f(r * pitch_ + p.lo, r * pitch_ + p.hi, p.cell);
    });
  }

 private:
  // Columns [lo, hi) of a row, and their state.
  struct Piece {
    uint64_t lo, hi;
    Cell cell;
  };
  // One row's cells: sorted, disjoint, equal touching pieces merged.
  struct Row {
    std::vector<Piece> pieces;
    bool same(const Row& o) const {
      if (pieces.size() != o.pieces.size()) return false;
      for (size_t i = 0; i < pieces.size(); ++i) {
        const Piece &a = pieces[i], &b = o.pieces[i];
        if (a.lo != b.lo || a.hi != b.hi || !a.cell.same(b.cell)) return false;
      }
      return true;
    }
    // The first piece ending after column c.
    size_t first_after(uint64_t c) const {
      return static_cast<size_t>(
          std::partition_point(pieces.begin(), pieces.end(), [&](const Piece& p) { return p.hi <= c; }) -
          pieces.begin());
    }
    // Cuts the piece strictly around column c in two; returns the index of the first piece at
    // or after c.
    size_t cut(uint64_t c) {
      const size_t i = first_after(c);
      if (i == pieces.size() || pieces[i].lo >= c) return i;
      Piece right = pieces[i];
      right.lo = c;
      pieces[i].hi = c;
      pieces.insert(pieces.begin() + static_cast<std::ptrdiff_t>(i) + 1, right);
      return i + 1;
    }
    // Merges equal touching pieces among [first - 1, last + 1].
    void merge(size_t first, size_t last) {
      size_t a = first > 0 ? first - 1 : 0;
      size_t stop = std::min(last + 2, pieces.size());
      while (a + 1 < stop) {
        Piece &x = pieces[a], &y = pieces[a + 1];
        if (x.hi == y.lo && x.cell.same(y.cell)) {
          x.hi = y.hi;
          pieces.erase(pieces.begin() + static_cast<std::ptrdiff_t>(a) + 1);
          --stop;
        } else {
          ++a;
        }
      }
    }
    void assign(uint64_t c0, uint64_t c1, const Cell& c) {
      const size_t i = cut(c0), j = cut(c1);
      pieces.erase(pieces.begin() + static_cast<std::ptrdiff_t>(i),
                   pieces.begin() + static_cast<std::ptrdiff_t>(j));
      pieces.insert(pieces.begin() + static_cast<std::ptrdiff_t>(i), Piece{c0, c1, c});
      merge(i, i);
    }
    template <class F>
    void update(uint64_t c0, uint64_t c1, F& f) {
      size_t i = cut(c0);
      cut(c1);
      const size_t first = i;
      uint64_t pos = c0;
      while (pos < c1) {
        if (i == pieces.size() || pieces[i].lo > pos) {  // a gap: a default cell
          const uint64_t end = i == pieces.size() ? c1 : std::min(c1, pieces[i].lo);
          pieces.insert(pieces.begin() + static_cast<std::ptrdiff_t>(i), Piece{pos, end, Cell{}});
        }
        f(pieces[i].cell);
        pos = pieces[i].hi;
        ++i;
      }
      if (i > first) merge(first, i - 1);
    }
  };
  // Rows [r0, r1) x columns [c0, c1).
  struct Rect {
    uint64_t r0, r1, c0, c1;
  };

  // The first access of several ranges fixes the pitch; the flat cells so far move to rows.
  bool take_pitch(const std::vector<isa::ByteRange>& ranges) {
    if (ranges.size() < 2) return false;
    std::vector<std::pair<isa::ByteRange, Cell>> cells;
    flat_.for_each([&](uint64_t lo, uint64_t hi, const Cell& c) {
      cells.push_back({isa::ByteRange{lo, hi}, c});
    });
    flat_.clear();
    pitch_ = ranges[1].begin - ranges[0].begin;
    std::vector<isa::ByteRange> one(1);
    for (const auto& moved : cells) {
      one[0] = moved.first;
      to_rects(one);
      for (const Rect& r : rects_)
        rows_.update_range(r.r0, r.r1,
                           [&](Row& row, uint64_t, uint64_t) { row.assign(r.c0, r.c1, moved.second); });
    }
    return true;
  }

  // The ranges (sorted, disjoint) as rectangles, in address order.
  void to_rects(const std::vector<isa::ByteRange>& ranges) const {
    rects_.clear();
    const uint64_t p = pitch_;
    const auto add = [&](uint64_t r0, uint64_t r1, uint64_t c0, uint64_t c1) {
      if (!rects_.empty()) {
        Rect& last = rects_.back();
        if (last.c0 == c0 && last.c1 == c1 && last.r1 == r0) {
          last.r1 = r1;
          return;
        }
      }
      rects_.push_back(Rect{r0, r1, c0, c1});
    };
    for (const isa::ByteRange& r : ranges) {
      if (r.begin >= r.end) continue;
      uint64_t row = r.begin / p;
      const uint64_t col = r.begin % p, last = (r.end - 1) / p, end_col = (r.end - 1) % p + 1;
      if (row == last) {
        add(row, row + 1, col, end_col);
        continue;
      }
      if (col > 0) add(row, row + 1, col, p), ++row;
      if (end_col == p) {
        add(row, last + 1, 0, p);
      } else {
        if (row < last) add(row, last, 0, p);
        add(last, last + 1, 0, end_col);
      }
    }
  }

  template <class Loud>
  bool any_loud(Loud& loud) const {
    bool any = false;
    for (const Rect& r : rects_)
      rows_.inspect_range(r.r0, r.r1, [&](const Row& row, uint64_t, uint64_t) {
        for (size_t i = row.first_after(r.c0); !any && i < row.pieces.size() && row.pieces[i].lo < r.c1; ++i)
          any = loud(row.pieces[i].cell);
      });
    return any;
  }

  // f on the loud pieces of the rectangles, row by row: address order.
  template <class Loud, class F>
  void each_piece(Loud& loud, F& f) const {
    for (const Rect& r : rects_)
      rows_.inspect_range(r.r0, r.r1, [&](const Row& row, uint64_t a, uint64_t b) {
        const size_t first = row.first_after(r.c0);
        for (uint64_t y = a; y < b; ++y)
          for (size_t i = first; i < row.pieces.size() && row.pieces[i].lo < r.c1; ++i) {
            const Piece& p = row.pieces[i];
            if (loud(p.cell)) f(p.cell, y * pitch_ + std::max(r.c0, p.lo), y * pitch_ + std::min(r.c1, p.hi));
          }
      });
  }

  uint64_t pitch_ = 0;  // 0: not strided yet, the cells are in flat_
  IntervalMap<Cell> flat_;
  IntervalMap<Row> rows_;            // by row number, once strided
  mutable std::vector<Rect> rects_;  // of the access at hand
};

}  // namespace aicore::check
