#include "read_log.hpp"

namespace aicore::check {

void ReadLog::add(const AccessRef& reader, uint16_t fractals, const std::vector<isa::ByteRange>& ranges) {
  if (ranges.empty()) return;
  Entry& e = entries_.emplace_back();
  e.reader = reader;
  e.fractals = fractals;
  e.lo = ranges.front().begin;
  e.hi = ranges.back().end;
  if (!spare_.empty()) {
    e.ranges = std::move(spare_.back());  // keeps its capacity: no allocation
    spare_.pop_back();
  }
  e.ranges.assign(ranges.begin(), ranges.end());
}

void ReadLog::add_lazy(const AccessRef& reader, const isa::ByteRange& hull, const isa::Op& op) {
  if (hull.begin >= hull.end) return;
  Entry& e = entries_.emplace_back();
  e.reader = reader;
  e.lo = hull.begin;
  e.hi = hull.end;
  if (!spare_.empty()) {
    e.ranges = std::move(spare_.back());
    spare_.pop_back();
  }
  e.ranges.assign(1, hull);
  e.lazy = true;
  if (spare_ops_.empty()) {
    e.op = std::make_unique<isa::Op>(op);
  } else {
    e.op = std::move(spare_ops_.back());
    spare_ops_.pop_back();
    *e.op = op;
  }
}

void materialize(ReadLog::Entry& e) {
  if (!e.lazy) return;
  isa::AccessList acc;
  isa::exact_accesses(*e.op, acc);
  for (const isa::OperandAccess& o : acc)
    if (o.space == isa::Space::GM && !o.write) e.ranges = o.ranges;
  e.lazy = false;
  e.op.reset();
}

std::vector<ReadLog::Entry> ReadLog::take_oldest() {
  std::vector<Entry> out;
  if (entries_.size() <= kFoldTo) return out;
  const size_t n = entries_.size() - kFoldTo;
  out.assign(std::make_move_iterator(entries_.begin()), std::make_move_iterator(entries_.begin() + n));
  entries_.erase(entries_.begin(), entries_.begin() + n);
  return out;
}

void subtract(ReadLog::Entry& e, const std::vector<isa::ByteRange>& cut) {
  // Usually the write covers the read completely (the next tile in the same slot).
  if (!cut.empty() && cut.front().begin <= e.lo && cut.back().end >= e.hi) {
    bool covered = true;
    size_t j = 0;
    for (const isa::ByteRange& r : e.ranges) {
      while (j < cut.size() && cut[j].end <= r.begin) ++j;
      if (j == cut.size() || cut[j].begin > r.begin || cut[j].end < r.end) {
        covered = false;
        break;
      }
    }
    if (covered) {
      e.ranges.clear();
      return;
    }
  }
  std::vector<isa::ByteRange> out;
  size_t j = 0;
  for (const isa::ByteRange& r : e.ranges) {
    uint64_t pos = r.begin;
    while (j < cut.size() && cut[j].end <= pos) ++j;
    for (size_t k = j; k < cut.size() && cut[k].begin < r.end; ++k) {
      if (cut[k].begin > pos) out.push_back(isa::ByteRange{pos, cut[k].begin});
      if (cut[k].end > pos) pos = cut[k].end;
    }
    if (pos < r.end) out.push_back(isa::ByteRange{pos, r.end});
  }
  e.ranges = std::move(out);
  if (!e.ranges.empty()) {
    e.lo = e.ranges.front().begin;
    e.hi = e.ranges.back().end;
  }
}

}  // namespace aicore::check
