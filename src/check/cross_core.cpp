#include "cross_core.hpp"

namespace aicore::check {

void CrossCore::record(uint16_t core, const isa::AccessList& acc, const AccessRef& b) {
  if (core >= maps_.size()) return;
  for (const isa::OperandAccess& o : acc) {
    if (o.space != isa::Space::GM) continue;
    auto& per_tensor = maps_[core];
    if (o.tensor >= per_tensor.size()) per_tensor.resize(o.tensor + size_t{1});
    per_tensor[o.tensor].update(o.ranges, [&](Cell& c) {
      AccessRef& first = o.write ? c.first_write : c.first_read;
      if (!first.valid() || b.index < first.index) first = b;
    });
  }
}

// Every core's map flattened once, and only where some core writes the tensor: a tensor that
// two cores only read cannot race (24 cores reading the same inputs are 276 pairs to skip).
void CrossCore::finish() {
  flats_.assign(maps_.size(), {});
  for (uint16_t c = 0; c < maps_.size(); ++c) flats_[c].resize(maps_[c].size());
  std::vector<bool> written;
  for (uint16_t c = 0; c < maps_.size(); ++c)
    for (uint32_t t = 0; t < maps_[c].size(); ++t) {
      bool any = false;
      maps_[c][t].for_each([&](uint64_t, uint64_t, const Cell& x) { any = any || x.first_write.valid(); });
      if (t >= written.size()) written.resize(t + size_t{1}, false);
      if (any) written[t] = true;
    }
  for (uint16_t c1 = 0; c1 < maps_.size(); ++c1)
    for (uint16_t c2 = c1 + 1; c2 < maps_.size(); ++c2)
      for (uint32_t t = 0; t < maps_[c1].size() && t < maps_[c2].size(); ++t) {
        if (!written[t]) continue;
        const Flat &a = flat(c1, t), &b = flat(c2, t);
        if (a.writes || b.writes) compare(t, c1, a, c2, b);
      }
  flats_.clear();
}

CrossCore::Flat& CrossCore::flat(uint16_t core, uint32_t tensor) {
  Flat& f = flats_[core][tensor];
  if (f.done) return f;
  f.done = true;
  maps_[core][tensor].for_each([&](uint64_t lo, uint64_t hi, const Cell& c) {
    f.pieces.push_back({lo, hi, c});
    f.writes = f.writes || c.first_write.valid();
  });
  return f;
}

void CrossCore::compare(uint32_t tensor, uint16_t c1, const Flat& fa, uint16_t c2, const Flat& fb) {
  const std::vector<Piece>&a = fa.pieces, &b = fb.pieces;
  if (a.empty() || b.empty() || a.back().hi <= b.front().lo || b.back().hi <= a.front().lo) return;
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const uint64_t lo = std::max(a[i].lo, b[j].lo), hi = std::min(a[i].hi, b[j].hi);
    if (lo < hi) {
      const Cell &x = a[i].cell, &y = b[j].cell;
      if (x.first_write.valid() && y.first_write.valid())
        report(tensor, true, true, c1, x.first_write, c2, y.first_write, lo, hi);
      else if (x.first_write.valid() && y.first_read.valid())
        report(tensor, true, false, c1, x.first_write, c2, y.first_read, lo, hi);
      else if (y.first_write.valid() && x.first_read.valid())
        report(tensor, false, true, c1, x.first_read, c2, y.first_write, lo, hi);
    }
    if (a[i].hi < b[j].hi)
      ++i;
    else
      ++j;
  }
}

void CrossCore::report(uint32_t tensor, bool a_writes, bool b_writes, uint16_t c1, const AccessRef& a,
                       uint16_t c2, const AccessRef& b, uint64_t lo, uint64_t hi) {
  const bool both_write = a_writes && b_writes;
  const ReportKey key =
      key_of(ReportKind::CrossCoreRace, c1, a, c2, b, isa::Space::GM, tensor, uint8_t(both_write ? 3 : 4));
  const ReportBook::Slot slot = book_.find(key, Severity::Error);
  if (!slot.report) return;
  if (slot.fresh) {
    Report& r = *slot.report;
    r.hazard = both_write ? "WAW" : "RW";
    r.space = isa::Space::GM;
    r.tensor = tensor;
    r.at = instr_ref(c2, b, b_writes ? "writes" : "reads");
    r.other = instr_ref(c1, a, a_writes ? "writes" : "reads");
    r.summary = "core " + std::to_string(c2) + "'s " + op_name(b.op) + " (" + isa::to_string(b.pipe) + ") " +
                r.at.access + " GM bytes that core " + std::to_string(c1) + "'s " + op_name(a.op) + " (" +
                isa::to_string(a.pipe) + ") at line " + std::to_string(a.line) + " " + r.other->access +
                "; nothing orders instructions of two cores";
    r.fix.kind = Fix::Kind::Separate;
    r.fix.text = "give each core its own GM bytes (there is no cross-core synchronisation instruction)";
    book_.want_cycles(slot.id, false, c1, a.index);
    book_.want_cycles(slot.id, true, c2, b.index);
  }
  book_.add_range(slot.id, a.index, b.index, lo, hi);
}

}  // namespace aicore::check
