// Flags between the pipes of one core (SetFlag/WaitFlag) for every (src, dst, id). A SetFlag fires at a
// computed cycle (when earlier instructions of its pipe have completed) without blocking its
// pipe, so each flag keeps its pending set times in order; a WaitFlag consumes the oldest at
// max(its own arrival, the set's firing). Pipes run ahead of SystemC time (engine.hpp), so a
// wait blocks on an event only until the SetFlag has been executed, never on time.
// A set that lands while the flag is still set is the hardware's undefined "double SetFlag"
// (a second SetFlag with no WaitFlag between them in program order is caught earlier, at issue:
// issue_unit.hpp).
#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <systemc>

#include "aicore/isa/instructions.hpp"
#include "aicore/model/context.hpp"

namespace aicore::model {

class SyncUnit {
 public:
  explicit SyncUnit(CoreContext& ctx) : ctx_(ctx) {}

  // A SetFlag executed at `now`: the flag becomes 1 at `fire_cycle`. False (fault raised) on a
  // double SetFlag.
  bool set(const isa::Instruction& instr, isa::EventPair e, uint8_t id, uint64_t now, uint64_t fire_cycle);
  // A WaitFlag arriving at `arrive`: blocks the calling SC_THREAD until a SetFlag for the flag
  // has executed, clears the flag and returns the cycle it was released. nullopt on a fault.
  // `blocked` (if given) is cleared the moment the wait is released, before anything is reported:
  // the caller's horizon may count on the setter only while it is really blocked.
  std::optional<uint64_t> wait(const isa::Instruction& instr, isa::EventPair e, uint8_t id, uint64_t arrive,
                               const isa::WaitFlag** blocked = nullptr);
  // End of run: a flag set twice with no wait in between is a fault (reported here when no
  // WaitFlag ever observed it). Returns the number of flags left set.
  uint32_t finish();
  // Whether a SetFlag of this flag has executed and not been consumed yet.
  bool has_set(isa::EventPair e, uint8_t id) const {
    return !flags_[static_cast<size_t>(e.src)][static_cast<size_t>(e.dst)][id].pending.empty();
  }
  // The number of flags set now (no checks): what a run that stopped early left set.
  uint32_t flags_set() const;

 private:
  struct Pending {
    uint64_t cycle;
    uint64_t index;  // the SetFlag's instruction index
    uint32_t line;
    FileId file;
  };
  struct Flag {
    std::deque<Pending> pending;
    uint64_t last_release = 0;     // when a WaitFlag last cleared it
    Pending last_set{0, 0, 0, 0};  // the SetFlag whose set that WaitFlag cleared
    bool waiter = false;           // a WaitFlag is blocked on `changed`
    sc_core::sc_event changed;
  };
  Flag& flag(isa::EventPair e, uint8_t id) {
    return flags_[static_cast<size_t>(e.src)][static_cast<size_t>(e.dst)][id];
  }
  void double_set(isa::EventPair e, uint8_t id, const Pending& first, const Pending& second);

  CoreContext& ctx_;
  std::array<std::array<std::array<Flag, isa::kEventIds>, isa::kPipeCount>, isa::kPipeCount> flags_;
};

}  // namespace aicore::model
