// Flags between pipes (SetFlag/WaitFlag) for every (src, dst, id). A SetFlag fires at a
// computed cycle (when earlier instructions of its pipe have completed) without blocking its
// pipe, so each flag keeps its pending set times in order; a WaitFlag consumes the oldest.
// A set that lands while the flag is still set is the hardware's undefined "double SetFlag".
#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <systemc>

#include "aicore/isa/instructions.hpp"
#include "aicore/model/context.hpp"

namespace aicore::model {

class SyncUnit {
 public:
  explicit SyncUnit(SimContext& ctx) : ctx_(ctx) {}

  // A SetFlag executed now; the flag becomes 1 at `fire_cycle` (>= now).
  void set(const isa::Instruction& instr, isa::EventPair e, uint8_t id, uint64_t fire_cycle);
  // Blocks the calling SC_THREAD until the flag is 1, then clears it. Returns false on a fault.
  bool wait(const isa::Instruction& instr, isa::EventPair e, uint8_t id);
  // End of run: a flag set twice with no wait in between is a fault (reported here when no
  // WaitFlag ever observed it). Returns the number of flags left set.
  uint32_t finish();

 private:
  struct Pending {
    uint64_t cycle;
    uint64_t index;  // the SetFlag's instruction index
    uint32_t line;
  };
  struct Flag {
    std::deque<Pending> pending;
    sc_core::sc_event changed;
  };
  Flag& flag(isa::EventPair e, uint8_t id) {
    return flags_[static_cast<size_t>(e.src)][static_cast<size_t>(e.dst)][id];
  }
  void double_set(isa::EventPair e, uint8_t id, const Pending& second);

  SimContext& ctx_;
  std::array<std::array<std::array<Flag, isa::kEventIds>, isa::kPipeCount>, isa::kPipeCount> flags_;
};

}  // namespace aicore::model
