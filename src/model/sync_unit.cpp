#include "aicore/model/sync_unit.hpp"

#include "aicore/model/clock.hpp"

namespace aicore::model {

namespace {
std::string flag_name(isa::EventPair e, uint8_t id) {
  return std::string(isa::to_string(e.src)) + "_" + isa::to_string(e.dst) + " id " + std::to_string(id);
}
}  // namespace

void SyncUnit::set(const isa::Instruction& instr, isa::EventPair e, uint8_t id, uint64_t fire_cycle) {
  Flag& f = flag(e, id);
  f.pending.push_back(Pending{fire_cycle, instr.index, instr.line});
  f.changed.notify(sc_core::SC_ZERO_TIME);
  for (Observer* o : ctx_.observers) o->on_flag(e, id, fire_cycle, true, instr.index);
}

void SyncUnit::double_set(isa::EventPair e, uint8_t id, const Pending& second) {
  ctx_.raise(FaultKind::DoubleSetFlag,
             ctx_.trace_name + ":" + std::to_string(second.line) + ": SetFlag (instruction #" +
                 std::to_string(second.index) + ") at cycle " + std::to_string(second.cycle) +
                 ": double SetFlag: flag " + flag_name(e, id) + " is set again before a WaitFlag cleared it",
             second.cycle);
}

bool SyncUnit::wait(const isa::Instruction& instr, isa::EventPair e, uint8_t id) {
  Flag& f = flag(e, id);
  while (f.pending.empty()) sc_core::wait(f.changed);
  const uint64_t now = now_cycles();
  if (f.pending.front().cycle > now) sc_core::wait(cycles(f.pending.front().cycle - now));
  const uint64_t consumed = now_cycles();
  f.pending.pop_front();
  if (!f.pending.empty() && f.pending.front().cycle < consumed) {
    double_set(e, id, f.pending.front());
    return false;
  }
  for (Observer* o : ctx_.observers) o->on_flag(e, id, consumed, false, instr.index);
  return true;
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
