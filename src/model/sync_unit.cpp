#include "aicore/model/sync_unit.hpp"

#include <algorithm>

namespace aicore::model {

void SyncUnit::hold(isa::Pipe src, Pending& p, uint64_t until) {
  ++held_sets_;
  held_cycles_ += until - p.cycle;
  p.cycle = until;
  uint64_t& h = held_until_[static_cast<size_t>(src)];
  h = std::max(h, until);
}

void SyncUnit::set(const isa::Instruction& instr, isa::EventPair e, uint8_t id, uint64_t now,
                   uint64_t fire_cycle) {
  Flag& f = flag(e, id);
  Pending p{fire_cycle, instr.index, instr.line, instr.file};
  if (!f.pending.empty()) {
    // Behind a set no WaitFlag has cleared yet: the WaitFlag that does decides when this one
    // lands (wait() below), and reports it then.
    ++unresolved_[static_cast<size_t>(e.src)];
    f.pending.push_back(p);
    return;
  }
  // Pipes run ahead of each other: a WaitFlag may already have cleared this flag later than this
  // set fires, in which case the flag was still set when this one landed.
  if (fire_cycle < f.last_release) hold(e.src, p, f.last_release);
  f.pending.push_back(p);
  if (f.waiter) f.changed.notify(sc_core::SC_ZERO_TIME);
  ctx_.chip.dispatch.flag(FlagEvent{ctx_.id, e, id, p.cycle, true, instr.index, instr.index}, now);
}

std::optional<uint64_t> SyncUnit::wait(const isa::Instruction& instr, isa::EventPair e, uint8_t id,
                                       uint64_t arrive, const isa::WaitFlag** blocked) {
  Flag& f = flag(e, id);
  while (f.pending.empty()) {
    f.waiter = true;
    sc_core::wait(f.changed);
    f.waiter = false;
  }
  if (blocked) *blocked = nullptr;
  const uint64_t released = std::max(arrive, f.pending.front().cycle);
  const uint64_t set_index = f.pending.front().index;
  f.pending.pop_front();
  f.last_release = released;
  ctx_.chip.dispatch.flag(FlagEvent{ctx_.id, e, id, released, false, instr.index, set_index}, released);
  if (!f.pending.empty()) {  // the next set, queued behind the one just cleared, lands now
    Pending& next = f.pending.front();
    if (next.cycle < released) hold(e.src, next, released);
    --unresolved_[static_cast<size_t>(e.src)];
    if (drain_waiters_) resolved_.notify(sc_core::SC_ZERO_TIME);
    ctx_.chip.dispatch.flag(FlagEvent{ctx_.id, e, id, next.cycle, true, next.index, next.index}, released);
  }
  return released;
}

uint64_t SyncUnit::drain_held(size_t pipe) {
  auto unresolved = [&] {
    uint32_t n = 0;
    for (size_t s = 0; s < unresolved_.size(); ++s)
      if (in(pipe, static_cast<isa::Pipe>(s))) n += unresolved_[s];
    return n;
  };
  while (unresolved() > 0) {
    ++drain_waiters_;
    sc_core::wait(resolved_);
    --drain_waiters_;
  }
  uint64_t until = 0;
  for (size_t s = 0; s < held_until_.size(); ++s)
    if (in(pipe, static_cast<isa::Pipe>(s))) until = std::max(until, held_until_[s]);
  return until;
}

std::optional<SyncUnit::HeldSet> SyncUnit::held_set(size_t pipe) const {
  for (size_t s = 0; s < flags_.size(); ++s) {
    if (!in(pipe, static_cast<isa::Pipe>(s))) continue;
    for (size_t d = 0; d < flags_[s].size(); ++d)
      for (size_t i = 0; i < isa::kEventIds; ++i) {
        const auto& p = flags_[s][d][i].pending;
        if (p.size() < 2) continue;
        return HeldSet{isa::EventPair{static_cast<isa::Pipe>(s), static_cast<isa::Pipe>(d)},
                       static_cast<uint8_t>(i),
                       p[1].line,
                       p[0].line,
                       p[1].file,
                       p[0].file};
      }
  }
  return std::nullopt;
}

uint32_t SyncUnit::flags_set() const {
  uint32_t n = 0;
  for (const auto& by_dst : flags_)
    for (const auto& by_id : by_dst)
      for (const Flag& f : by_id) n += f.pending.empty() ? 0 : 1;
  return n;
}

}  // namespace aicore::model
