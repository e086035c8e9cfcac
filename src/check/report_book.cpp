#include "report_book.hpp"

#include <algorithm>
#include <tuple>

namespace aicore::check {

namespace {
constexpr size_t kRecentCycles = size_t{1} << 16;
uint64_t cycles_key(uint16_t core, uint64_t index) {
  return uint64_t{core} << 48 | (index & ((uint64_t{1} << 48) - 1));
}
}  // namespace

ReportKey key_of(ReportKind kind, uint16_t core_a, const AccessRef& a, uint16_t core_b, const AccessRef& b,
                 isa::Space space, uint32_t tensor, uint8_t hazard) {
  ReportKey k;
  k.kind = kind;
  k.hazard = hazard;
  k.space = space;
  k.tensor = tensor;
  k.core_a = core_a;
  k.core_b = core_b;
  if (a.valid()) {
    k.file_a = a.file;
    k.line_a = a.line;
    k.index_a = a.line ? 0 : a.index;
  }
  k.file_b = b.file;
  k.line_b = b.line;
  k.index_b = b.line ? 0 : b.index;
  return k;
}

bool ReportKey::operator==(const ReportKey& o) const {
  return std::tie(kind, hazard, space, tensor, core_a, core_b, file_a, file_b, line_a, line_b, index_a,
                  index_b) == std::tie(o.kind, o.hazard, o.space, o.tensor, o.core_a, o.core_b, o.file_a,
                                       o.file_b, o.line_a, o.line_b, o.index_a, o.index_b);
}

size_t ReportKeyHash::operator()(const ReportKey& k) const {
  uint64_t h = static_cast<uint64_t>(k.kind) << 56 ^ uint64_t { k.hazard } << 48 ^
               static_cast<uint64_t>(k.space) << 40 ^ uint64_t { k.tensor };
  for (uint64_t v : {uint64_t{k.core_a} << 32 | k.core_b, uint64_t{k.file_a} << 32 | k.line_a,
                     uint64_t{k.file_b} << 32 | k.line_b, k.index_a, k.index_b})
    h = (h ^ v) * 0x9E3779B97F4A7C15ull;
  return static_cast<size_t>(h ^ (h >> 29));
}

ReportBook::Slot ReportBook::find(const ReportKey& key, Severity severity) {
  const auto it = ids_.find(key);
  if (it != ids_.end()) return Slot{&reports_[it->second], it->second, false};
  // Cross-core races come from all cores: slot 0 is theirs, slot c + 1 core c's.
  const size_t owner = key.kind == ReportKind::CrossCoreRace ? 0 : size_t{key.core_b} + 1;
  if (owner >= stored_.size()) stored_.resize(owner + 1);
  if (stored_[owner] >= max_) {
    ++(severity == Severity::Error ? unstored_errors_ : unstored_warnings_);
    return Slot{};
  }
  ++stored_[owner];
  const auto id = static_cast<uint32_t>(reports_.size());
  reports_.emplace_back();
  reports_.back().kind = key.kind;
  reports_.back().severity = severity;
  tracks_.emplace_back();
  ids_.emplace(key, id);
  return Slot{&reports_.back(), id, true};
}

void ReportBook::add_range(uint32_t id, uint64_t a, uint64_t b, uint64_t lo, uint64_t hi, uint8_t hazard) {
  Report& r = reports_[id];
  Track& t = tracks_[id];
  const bool same_instance = t.a == a && t.b == b;
  if (same_instance && hazard != t.hazard) return;
  if (!same_instance) t.hazard = hazard;
  if (t.a == UINT64_MAX) {
    r.has_range = true;
    r.lo = lo;
    r.hi = hi;
    r.ranges = 1;
  } else {
    if (!same_instance) ++r.instances;
    const bool contiguous = same_instance && lo == t.last_hi;
    if (!contiguous) ++r.ranges;
    if (t.first_open && contiguous)
      r.hi = hi;
    else
      t.first_open = false;
  }
  r.bytes += hi - lo;
  t.a = a;
  t.b = b;
  t.last_hi = hi;
}

void ReportBook::fill(uint32_t id, bool second, uint64_t start, uint64_t end) {
  Timing& t = reports_[id].timing;
  if (second) {
    t.second_known = true;
    t.second_start = start;
    t.second_end = end;
  } else {
    t.first_known = true;
    t.first_start = start;
    t.first_end = end;
  }
}

void ReportBook::want_cycles(uint32_t id, bool second, uint16_t core, uint64_t index) {
  if (core < recent_.size() && !recent_[core].empty()) {
    const Cycles& c = recent_[core][index % kRecentCycles];
    if (c.index == index) return fill(id, second, c.start, c.end);
  }
  wanted_[cycles_key(core, index)].push_back(Want{id, second});
}

void ReportBook::executed(uint16_t core, uint64_t index, uint64_t start, uint64_t end) {
  if (core >= recent_.size()) recent_.resize(core + 1u);
  if (recent_[core].empty()) recent_[core].resize(kRecentCycles);
  recent_[core][index % kRecentCycles] = Cycles{index, start, end};
  if (wanted_.empty()) return;
  const auto it = wanted_.find(cycles_key(core, index));
  if (it == wanted_.end()) return;
  for (const Want& w : it->second) fill(w.id, w.second, start, end);
  wanted_.erase(it);
}

void ReportBook::withdraw(const ReportKey& key) {
  const auto it = ids_.find(key);
  if (it != ids_.end()) withdrawn_.push_back(it->second);
}

void ReportBook::finish(bool complete) {
  if (!withdrawn_.empty()) {
    std::vector<bool> out(reports_.size());
    for (uint32_t id : withdrawn_) out[id] = true;
    size_t kept = 0;
    for (size_t i = 0; i < reports_.size(); ++i) {
      if (out[i]) continue;
      if (kept != i) reports_[kept] = std::move(reports_[i]);  // never onto itself: that empties it
      ++kept;
    }
    reports_.resize(kept);
    withdrawn_.clear();
  }
  // A run that stopped at a fault: an instruction that never ran read nothing, and the bytes it
  // would have found undefined may be the faulting instruction's (which wrote nothing). Only
  // uninitialised reads that happened are reported; races are about program order and stay.
  if (!complete)
    reports_.erase(std::remove_if(reports_.begin(), reports_.end(),
                                  [](const Report& r) {
                                    return r.kind == ReportKind::UninitRead && !r.timing.second_known;
                                  }),
                   reports_.end());
  std::stable_sort(reports_.begin(), reports_.end(), [](const Report& x, const Report& y) {
    const auto key = [](const Report& r) {
      return std::make_tuple(r.severity, r.at.core, r.at.index, r.other ? r.other->core : 0,
                             r.other ? r.other->index : 0, r.kind, r.space, r.tensor, r.lo);
    };
    return key(x) < key(y);
  });
  for (size_t i = max_; i < reports_.size(); ++i)  // past the cap of all cores together
    ++(reports_[i].severity == Severity::Error ? unstored_errors_ : unstored_warnings_);
  if (reports_.size() > max_) reports_.resize(max_);
  summary_ = Summary{};
  for (const Report& r : reports_) ++(r.severity == Severity::Error ? summary_.errors : summary_.warnings);
  summary_.errors += unstored_errors_;
  summary_.warnings += unstored_warnings_;
  summary_.unstored = unstored_errors_ + unstored_warnings_;
  summary_.complete = complete;
  tracks_.clear();
  ids_.clear();
  wanted_.clear();
}

}  // namespace aicore::check
