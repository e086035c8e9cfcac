#include "aicore/model/sync_unit.hpp"

#include <algorithm>

namespace aicore::model {

namespace {
std::string flag_name(isa::EventPair e, uint8_t id) {
  return std::string(isa::to_string(e.src)) + "_" + isa::to_string(e.dst) + " id " + std::to_string(id);
}
}  // namespace

bool SyncUnit::set(const isa::Instruction& instr, isa::EventPair e, uint8_t id, uint64_t now,
                   uint64_t fire_cycle) {
  Flag& f = flag(e, id);
  const Pending p{fire_cycle, instr.index, instr.line};
  // Pipes run ahead of each other: a WaitFlag may already have released this flag later than
  // this set fires, in which case the flag was still set when this one landed.
  if (f.pending.empty() && fire_cycle < f.last_release) {
    double_set(e, id, p);
    return false;
  }
  f.pending.push_back(p);
  if (f.waiter) f.changed.notify(sc_core::SC_ZERO_TIME);
  ctx_.dispatch.flag(FlagEvent{e, id, fire_cycle, true, instr.index, instr.index}, now);
  return true;
}

void SyncUnit::double_set(isa::EventPair e, uint8_t id, const Pending& second) {
  ctx_.raise(FaultKind::DoubleSetFlag,
             ctx_.trace_name + ":" + std::to_string(second.line) + ": SetFlag (instruction #" +
                 std::to_string(second.index) + ") at cycle " + std::to_string(second.cycle) +
                 ": double SetFlag: flag " + flag_name(e, id) + " is set again before a WaitFlag cleared it",
             second.cycle);
}

std::optional<uint64_t> SyncUnit::wait(const isa::Instruction& instr, isa::EventPair e, uint8_t id,
                                       uint64_t arrive) {
  Flag& f = flag(e, id);
  while (f.pending.empty()) {
    f.waiter = true;
    sc_core::wait(f.changed);
    f.waiter = false;
  }
  const uint64_t released = std::max(arrive, f.pending.front().cycle);
  const uint64_t set_index = f.pending.front().index;
  f.pending.pop_front();
  f.last_release = released;
  if (!f.pending.empty() && f.pending.front().cycle < released) {
    double_set(e, id, f.pending.front());
    return std::nullopt;
  }
  ctx_.dispatch.flag(FlagEvent{e, id, released, false, instr.index, set_index}, released);
  return released;
}

uint32_t SyncUnit::finish() {
  uint32_t left = 0;
  for (size_t s = 0; s < flags_.size(); ++s)
    for (size_t d = 0; d < flags_[s].size(); ++d)
      for (size_t i = 0; i < isa::kEventIds; ++i) {
        const auto& p = flags_[s][d][i].pending;
        const isa::EventPair e{static_cast<isa::Pipe>(s), static_cast<isa::Pipe>(d)};
        if (p.size() >= 2) double_set(e, static_cast<uint8_t>(i), p[1]);
        left += p.empty() ? 0 : 1;
      }
  return left;
}

}  // namespace aicore::model
