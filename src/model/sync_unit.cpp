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
  const Pending p{fire_cycle, instr.index, instr.line, instr.file};
  // Pipes run ahead of each other: a WaitFlag may already have released this flag later than
  // this set fires, in which case the flag was still set when this one landed.
  if (f.pending.empty() && fire_cycle < f.last_release) {
    double_set(e, id, f.last_set, p);
    return false;
  }
  f.pending.push_back(p);
  if (f.waiter) f.changed.notify(sc_core::SC_ZERO_TIME);
  ctx_.chip.dispatch.flag(FlagEvent{ctx_.id, e, id, fire_cycle, true, instr.index, instr.index}, now);
  return true;
}

void SyncUnit::double_set(isa::EventPair e, uint8_t id, const Pending& first, const Pending& second) {
  const std::string core = ctx_.chip.core_count > 1 ? ", core " + std::to_string(ctx_.id.value) : "";
  ctx_.chip.raise(FaultKind::DoubleSetFlag,
                  source_file_name(second.file) + ":" + std::to_string(second.line) +
                      ": SetFlag (instruction #" + std::to_string(second.index) + core + ") at cycle " +
                      std::to_string(second.cycle) + ": double SetFlag: flag " + flag_name(e, id) +
                      " is set again while the set of the SetFlag at " + source_file_name(first.file) + ":" +
                      std::to_string(first.line) + " (instruction #" + std::to_string(first.index) +
                      ", fires at cycle " + std::to_string(first.cycle) +
                      ") is not yet cleared: the WaitFlag between them has not run when this one fires",
                  second.cycle);
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
  f.last_set = f.pending.front();
  f.pending.pop_front();
  f.last_release = released;
  if (!f.pending.empty() && f.pending.front().cycle < released) {
    double_set(e, id, f.last_set, f.pending.front());
    return std::nullopt;
  }
  ctx_.chip.dispatch.flag(FlagEvent{ctx_.id, e, id, released, false, instr.index, set_index}, released);
  return released;
}

uint32_t SyncUnit::flags_set() const {
  uint32_t n = 0;
  for (const auto& by_dst : flags_)
    for (const auto& by_id : by_dst)
      for (const Flag& f : by_id) n += f.pending.empty() ? 0 : 1;
  return n;
}

uint32_t SyncUnit::finish() {
  uint32_t left = 0;
  for (size_t s = 0; s < flags_.size(); ++s)
    for (size_t d = 0; d < flags_[s].size(); ++d)
      for (size_t i = 0; i < isa::kEventIds; ++i) {
        const auto& p = flags_[s][d][i].pending;
        const isa::EventPair e{static_cast<isa::Pipe>(s), static_cast<isa::Pipe>(d)};
        if (p.size() >= 2) double_set(e, static_cast<uint8_t>(i), p[0], p[1]);
        left += p.empty() ? 0 : 1;
      }
  return left;
}

}  // namespace aicore::model
