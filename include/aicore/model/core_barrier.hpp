// SyncAll across the cores of a launch (Ascend C SyncAll()): the n-th SyncAll of every core meets
// the n-th of every other. A core arrives once its own pipes have drained; all leave at the last
// arrival plus issue.sync_all_cycles. A core whose program ends without its n-th SyncAll while
// another waits there (or before another arrives) makes the barrier impossible: that is a fault
// naming the waiting SyncAll, not a hang (docs/semantics.md §9).
#pragma once
#include <cstdint>
#include <deque>
#include <optional>
#include <systemc>
#include <vector>

#include "aicore/isa/instructions.hpp"

namespace aicore::model {

struct CoreContext;

class CoreBarrier {
 public:
  explicit CoreBarrier(uint32_t cores) : arrived_(cores, 0), left_(cores, 0), ended_(cores, false) {}

  // Core ctx.id arrives at its next SyncAll (`instr`) at `cycle`: blocks the calling SC_THREAD
  // until every core has arrived at its matching one; returns the last arrival. nullopt when the
  // run stops first (a fault, raised here when the barrier cannot complete, or elsewhere).
  std::optional<uint64_t> arrive(const CoreContext& ctx, const isa::Instruction& instr, uint64_t cycle);
  // Core `core`'s program has ended (or stopped issuing): a SyncAll waiting for it faults.
  void ended(const CoreContext& ctx, uint64_t cycle);
  // For deadlock reports: "SyncAll #N: cores 1, 2 have not arrived" while `core` waits, else "".
  std::string waiting(uint16_t core) const;

 private:
  struct Round {
    uint32_t count = 0;
    uint64_t last = 0;  // the latest arrival
    std::vector<std::pair<const CoreContext*, const isa::Instruction*>> waiters;
    std::vector<uint64_t> arrivals;  // per waiter: its arrival cycle
  };
  Round& round(uint64_t n);
  void drop_left_rounds();
  void fail(const Round& r, uint64_t n, uint16_t missing, uint64_t cycle);

  std::vector<uint64_t> arrived_;  // per core: SyncAlls it has arrived at
  std::vector<uint64_t> left_;     // per core: SyncAlls it has left (or ended after)
  std::vector<bool> ended_;        // per core: its program ended
  std::deque<Round> rounds_;       // round first_ + i: the (first_ + i)-th SyncAll of every core
  uint64_t first_ = 0;
  bool failed_ = false;
  sc_core::sc_event changed_;
};

}  // namespace aicore::model
