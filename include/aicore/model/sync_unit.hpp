// Flags between the pipes of one core (SetFlag/WaitFlag) for every (src, dst, id). A SetFlag fires at a
// computed cycle (when earlier instructions of its pipe have completed) without blocking its
// pipe, so each flag keeps its pending set times in order; a WaitFlag consumes the oldest at
// max(its own arrival, the set's firing). Pipes run ahead of SystemC time (engine.hpp), so a
// wait blocks on an event only until the SetFlag has been executed, never on time.
// A set that lands while the flag is still set is *held* (docs/decisions.md, "Held SetFlags"): it
// waits in the flag's FIFO and becomes the flag's state when a WaitFlag clears the flag (its
// effective fire is max(its own fire, that release)). It does not stall its pipe, but it is not
// complete: a PipeBarrier of its pipe and PIPE_ALL wait for it (drain_held). The checker, not the
// model, reports the documented undefined case (a second SetFlag with no WaitFlag between them in
// program order).
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
  static constexpr size_t kAllPipes = isa::kPipeCount;  // drain_held / held_set: every pipe
  explicit SyncUnit(CoreContext& ctx) : ctx_(ctx) {}

  // A SetFlag executed at `now`: the flag becomes 1 at `fire_cycle`, or later if it is still set
  // then (held until a WaitFlag clears it).
  void set(const isa::Instruction& instr, isa::EventPair e, uint8_t id, uint64_t now, uint64_t fire_cycle);
  // A WaitFlag arriving at `arrive`: blocks the calling SC_THREAD until a SetFlag for the flag
  // has executed, clears the flag and returns the cycle it was released. nullopt on a fault.
  // `blocked` (if given) is cleared the moment the wait is released, before anything is reported:
  // the caller's horizon may count on the setter only while it is really blocked.
  std::optional<uint64_t> wait(const isa::Instruction& instr, isa::EventPair e, uint8_t id, uint64_t arrive,
                               const isa::WaitFlag** blocked = nullptr);
  // For a PipeBarrier of `pipe` (kAllPipes: PIPE_ALL): blocks the calling thread
  // while a SetFlag of it is held behind a set no WaitFlag has cleared yet; returns the latest
  // cycle a held set of it became the flag's state (0 if none).
  uint64_t drain_held(size_t pipe);
  // For deadlock reports: a SetFlag of `pipe` (kAllPipes: any) held behind a set no WaitFlag has
  // cleared, with that set.
  struct HeldSet {
    isa::EventPair event;
    uint8_t id = 0;
    uint32_t held_line = 0, first_line = 0;
    FileId held_file = 0, first_file = 0;
  };
  std::optional<HeldSet> held_set(size_t pipe) const;
  // Held sets so far and the cycles they were held (stats.json "sync").
  uint64_t held_sets() const { return held_sets_; }
  uint64_t held_cycles() const { return held_cycles_; }
  // Whether a SetFlag of this flag has executed and not been consumed yet.
  bool has_set(isa::EventPair e, uint8_t id) const {
    return !flags_[static_cast<size_t>(e.src)][static_cast<size_t>(e.dst)][id].pending.empty();
  }
  // The number of flags set now: what the run left set when it ended.
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
    uint64_t last_release = 0;  // when a WaitFlag last cleared it
    bool waiter = false;        // a WaitFlag is blocked on `changed`
    sc_core::sc_event changed;
  };
  Flag& flag(isa::EventPair e, uint8_t id) {
    return flags_[static_cast<size_t>(e.src)][static_cast<size_t>(e.dst)][id];
  }
  // `p` becomes the flag's state at `until` rather than at its own fire.
  void hold(isa::Pipe src, Pending& p, uint64_t until);
  static bool in(size_t pipe, isa::Pipe src) { return pipe == kAllPipes || pipe == static_cast<size_t>(src); }

  CoreContext& ctx_;
  std::array<std::array<std::array<Flag, isa::kEventIds>, isa::kPipeCount>, isa::kPipeCount> flags_;
  // Per setting pipe: sets queued behind an uncleared one (their fire is not known yet), and the
  // latest cycle a held set became its flag's state.
  std::array<uint32_t, isa::kPipeCount> unresolved_{};
  std::array<uint64_t, isa::kPipeCount> held_until_{};
  sc_core::sc_event resolved_;
  uint32_t drain_waiters_ = 0;
  uint64_t held_sets_ = 0, held_cycles_ = 0;
};

}  // namespace aicore::model
