#include "aicore/model/unit_flags.hpp"

#include <algorithm>

#include "aicore/isa/access.hpp"
#include "aicore/isa/check.hpp"

namespace aicore::model {

namespace {

uint8_t unit_flag_of(const isa::Op& op) {
  if (const auto* m = std::get_if<isa::Mmad>(&op)) return m->unitFlag;
  if (const auto* m = std::get_if<isa::MmadWithSparse>(&op)) return m->unitFlag;
  if (const auto* f = std::get_if<isa::Fixpipe>(&op)) return f->unitFlag;
  return 0;
}

const std::vector<UnitFlags::Link> kNoLinks;

// ceil(num / den) for den > 0 and any sign of num.
int64_t ceil_div_signed(int64_t num, int64_t den) {
  return num >= 0 ? (num + den - 1) / den : -((-num) / den);
}

}  // namespace

UnitFlags::UnitFlags(uint64_t l0c_bytes) : granules_(isa::ceil_div(l0c_bytes, isa::kUnitFlagBytes)) {}

void UnitFlags::unref(uint64_t index) {
  if (index == kNone) return;
  const auto it = refs_.find(index);
  if (it == refs_.end() || --it->second) return;
  refs_.erase(it);
  profiles_.erase(index);
}

const std::vector<UnitFlags::Link>& UnitFlags::at_issue(const isa::Instruction& in) {
  const uint8_t uf = unit_flag_of(in.op);
  if (uf != isa::kUnitFlagKeep && uf != isa::kUnitFlagFlip) return kNoLinks;
  const std::vector<uint32_t> gs = isa::unit_flag_granules(in.op);
  const bool fix = std::holds_alternative<isa::Fixpipe>(in.op);
  const auto n = static_cast<uint32_t>(gs.size());
  scratch_.clear();
  for (uint32_t pos = 0; pos < n; ++pos) {
    if (gs[pos] >= granules_.size()) continue;  // out of L0C: the instruction faults when it runs
    Granule& g = granules_[gs[pos]];
    // A Fixpipe waits for the Mmad that set the flag; a Mmad for the Fixpipe that cleared it.
    const uint64_t from = fix ? g.setter : g.taker;
    if (from != kNone) {
      scratch_.push_back(
          Link{from, fix ? g.setter_pos : g.taker_pos, fix ? g.setter_count : g.taker_count, pos, n});
      ref(from);
    }
    if (fix && uf == isa::kUnitFlagFlip) {  // it clears the flag: the next Mmad waits for it
      unref(g.setter);
      g.setter = kNone;
      unref(g.taker);
      g.taker = in.index, g.taker_pos = pos, g.taker_count = n;
      ref(in.index);
    } else if (!fix) {
      unref(g.taker);  // waited for once: later Mmads follow this one on the Cube
      g.taker = kNone;
      if (uf == isa::kUnitFlagFlip) {
        unref(g.setter);
        g.setter = in.index, g.setter_pos = pos, g.setter_count = n;
        ref(in.index);
      }
    }
  }
  if (scratch_.empty()) return kNoLinks;
  std::vector<Link>& v = waits_[in.index];
  v = scratch_;
  return v;
}

const std::vector<UnitFlags::Link>& UnitFlags::links(uint64_t index) const {
  const auto it = waits_.find(index);
  return it == waits_.end() ? kNoLinks : it->second;
}

void UnitFlags::consumed(uint64_t index) {
  const auto it = waits_.find(index);
  if (it == waits_.end()) return;
  const std::vector<Link> links = std::move(it->second);
  waits_.erase(it);
  for (const Link& l : links) unref(l.producer);
}

void UnitFlags::publish(uint64_t index, uint64_t start, uint64_t busy_end, uint64_t known_at) {
  if (!producer(index)) return;
  profiles_[index] = Profile{start, busy_end, known_at};
  published_.notify(sc_core::SC_ZERO_TIME);
}

uint64_t UnitFlags::earliest_start(const std::vector<Link>& links, uint64_t offset, uint64_t duration) const {
  // Granule p of a producer is ready at start + (p + 1)(busy_end - start) / count; the consumer
  // touches its granule q at s + offset + q * duration / count. Whole cycles, rounded up.
  int64_t best = 0;
  for (const Link& l : links) {
    const Profile& p = profiles_.at(l.producer);
    const int64_t pc = l.producer_count, cc = l.count;
    const int64_t num = (static_cast<int64_t>(p.start) - static_cast<int64_t>(offset)) * pc * cc +
                        (int64_t{l.producer_pos} + 1) * static_cast<int64_t>(p.busy_end - p.start) * cc -
                        int64_t{l.pos} * static_cast<int64_t>(duration) * pc;
    best = std::max({best, ceil_div_signed(num, pc * cc), static_cast<int64_t>(p.known_at)});
  }
  return static_cast<uint64_t>(best);
}

}  // namespace aicore::model
