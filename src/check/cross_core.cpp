#include "cross_core.hpp"

namespace aicore::check {

namespace {
// The Ascend C spelling of a type in SetAtomicAdd<T>().
const char* ascendc_type(isa::DType t) {
  switch (t) {
    case isa::DType::Half:
      return "half";
    case isa::DType::Int32:
      return "int32_t";
    default:
      return "float";
  }
}
// "a.trace:12": the two instructions are in different files (one trace per core).
std::string place(const AccessRef& r) {
  return r.file ? source_file_name(r.file) + ":" + std::to_string(r.line) : "line " + std::to_string(r.line);
}
uint8_t bit_of(isa::DType t) {
  return static_cast<uint8_t>(1u << static_cast<uint8_t>(t));
}
}  // namespace

void CrossCore::record(uint16_t core, const isa::AccessList& acc, const AccessRef& b, const CrossTag& tag,
                       isa::DType out) {
  if (core >= maps_.size()) return;
  auto& epochs = maps_[core];
  if (tag.epoch >= epochs.size()) epochs.resize(tag.epoch + size_t{1});
  auto& per_tensor = epochs[tag.epoch];
  for (const isa::OperandAccess& o : acc) {
    if (o.space != isa::Space::GM) continue;
    if (o.tensor >= per_tensor.size()) per_tensor.resize(o.tensor + size_t{1});
    const bool atomic = o.write && tag.atomic != 0;
    const auto added = static_cast<isa::DType>(tag.atomic - 1);
    per_tensor[o.tensor].update(o.ranges, [&](Cell& c) {
      AccessRef& first = atomic ? c.first_atomic : o.write ? c.first_write : c.first_read;
      if (!first.valid() || b.index < first.index) {
        first = b;
        if (o.write && !atomic) c.write_type = static_cast<uint8_t>(out);
      }
      if (atomic) c.atomic_types |= bit_of(added);
    });
  }
}

// Every core's maps are flattened once (not once per pair of cores), and a pair is compared only
// where one of the two writes: a tensor that both only read cannot race.
void CrossCore::finish() {
  flats_.assign(maps_.size(), {});
  for (uint16_t c = 0; c < maps_.size(); ++c) {
    flats_[c].resize(maps_[c].size());
    for (uint32_t e = 0; e < maps_[c].size(); ++e) flats_[c][e].resize(maps_[c][e].size());
  }
  for (uint16_t c1 = 0; c1 < maps_.size(); ++c1)
    for (uint16_t c2 = c1 + 1; c2 < maps_.size(); ++c2)
      for (uint32_t e = 0; e < maps_[c1].size() && e < maps_[c2].size(); ++e) {
        epoch_ = e;
        for (uint32_t t = 0; t < maps_[c1][e].size() && t < maps_[c2][e].size(); ++t) {
          const Flat &a = flat(c1, e, t), &b = flat(c2, e, t);
          if (a.writes || b.writes) compare(t, c1, a, c2, b);
        }
      }
  flats_.clear();
}

CrossCore::Flat& CrossCore::flat(uint16_t core, uint32_t epoch, uint32_t tensor) {
  Flat& f = flats_[core][epoch][tensor];
  if (f.done) return f;
  f.done = true;
  maps_[core][epoch][tensor].for_each([&](uint64_t lo, uint64_t hi, const Cell& c) {
    f.pieces.push_back({lo, hi, c});
    f.writes = f.writes || c.first_write.valid() || c.first_atomic.valid();
  });
  return f;
}

void CrossCore::compare(uint32_t tensor, uint16_t c1, const Flat& fa, uint16_t c2, const Flat& fb) {
  const std::vector<Piece>&a = fa.pieces, &b = fb.pieces;
  if (a.empty() || b.empty() || a.back().hi <= b.front().lo || b.back().hi <= a.front().lo) return;
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const uint64_t lo = std::max(a[i].lo, b[j].lo), hi = std::min(a[i].hi, b[j].hi);
    if (lo < hi) compare(tensor, c1, a[i].cell, c2, b[j].cell, lo, hi);
    if (a[i].hi < b[j].hi)
      ++i;
    else
      ++j;
  }
}

// The first conflict of two cores' cells of one epoch, in this order: plain writes of both
// (fix: make them atomic adds), a plain write against an atomic add (fix: both atomic), atomic
// adds of different types, then a write against a read (fix: a SyncAll between them).
void CrossCore::compare(uint32_t tensor, uint16_t c1, const Cell& x, uint16_t c2, const Cell& y, uint64_t lo,
                        uint64_t hi) {
  const auto type_of = [](const Cell& c) { return static_cast<isa::DType>(c.write_type); };
  if (x.first_write.valid() && y.first_write.valid())
    return report(tensor, true, true, c1, x.first_write, c2, y.first_write, lo, hi, Cure::Atomic, type_of(y));
  const auto first_type = [](uint8_t mask) {
    for (uint8_t t = 0; t < 8; ++t)
      if (mask & (1u << t)) return static_cast<isa::DType>(t);
    return isa::DType::Float;
  };
  if (x.first_write.valid() && y.first_atomic.valid())
    return report(tensor, true, true, c1, x.first_write, c2, y.first_atomic, lo, hi, Cure::Atomic,
                  first_type(y.atomic_types));
  if (x.first_atomic.valid() && y.first_write.valid())
    return report(tensor, true, true, c1, x.first_atomic, c2, y.first_write, lo, hi, Cure::Atomic,
                  first_type(x.atomic_types));
  if (x.first_atomic.valid() && y.first_atomic.valid() &&
      (x.atomic_types != y.atomic_types || (x.atomic_types & (x.atomic_types - 1)) != 0))
    return report(tensor, true, true, c1, x.first_atomic, c2, y.first_atomic, lo, hi, Cure::AtomicType,
                  first_type(x.atomic_types));
  const AccessRef& xw = x.first_write.valid() ? x.first_write : x.first_atomic;
  const AccessRef& yw = y.first_write.valid() ? y.first_write : y.first_atomic;
  if (xw.valid() && y.first_read.valid())
    return report(tensor, true, false, c1, xw, c2, y.first_read, lo, hi, Cure::SyncAll, isa::DType::Float);
  if (yw.valid() && x.first_read.valid())
    report(tensor, false, true, c1, x.first_read, c2, yw, lo, hi, Cure::SyncAll, isa::DType::Float);
}

void CrossCore::report(uint32_t tensor, bool a_writes, bool b_writes, uint16_t c1, const AccessRef& a,
                       uint16_t c2, const AccessRef& b, uint64_t lo, uint64_t hi, Cure fix, isa::DType type) {
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
                "; no SyncAll orders them";
    const std::string a_at = "core " + std::to_string(c1) + "'s " + op_name(a.op) + " at " + place(a);
    const std::string b_at = "core " + std::to_string(c2) + "'s " + op_name(b.op) + " at " + place(b);
    const std::string add = std::string("SetAtomicAdd<") + ascendc_type(type) + ">()";
    r.fix.kind = Fix::Kind::Separate;
    if (fix == Cure::SyncAll) {
      // The writer must be done before the reader starts (or the reader before the writer
      // overwrites): a SyncAll on every core, after the write and before the read.
      r.fix.kind = Fix::Kind::SyncAll;
      const AccessRef& writer = a_writes ? a : b;
      const AccessRef& reader = a_writes ? b : a;
      r.fix.after_line = writer.line;
      r.fix.before_line = reader.line;
      r.fix.text = "put SyncAll between " + (a_writes ? a_at + " and " + b_at : b_at + " and " + a_at) +
                   " (every core of the launch calls it, after the write and before the read), or give "
                   "each core its own GM bytes";
    } else if (fix == Cure::Atomic) {
      r.fix.kind = Fix::Kind::Atomic;
      r.fix.text = "to accumulate, wrap the Fixpipe on each core in " + add + " ... SetAtomicNone() (" +
                   a_at + ", " + b_at +
                   "); to overwrite, put SyncAll between them or give each core its own GM bytes";
    } else {
      r.fix.kind = Fix::Kind::Atomic;
      r.fix.text =
          "atomic adds of different element types to the same bytes: use one SetAtomicAdd type on "
          "every core (" +
          a_at + ", " + b_at + ")";
    }
    r.details.push_back({"known", "both come after " + std::to_string(epoch_) + " SyncAll" +
                                      (epoch_ == 1 ? "" : "s") +
                                      " of their cores' programs (and before the next): " +
                                      "only a SyncAll between two accesses orders them across cores"});
    book_.want_cycles(slot.id, false, c1, a.index);
    book_.want_cycles(slot.id, true, c2, b.index);
  }
  book_.add_range(slot.id, a.index, b.index, lo, hi);
}

}  // namespace aicore::check
