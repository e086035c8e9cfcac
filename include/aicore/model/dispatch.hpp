// Delivers model events to the observers in nondecreasing simulated time (the contract in
// observer.hpp), although the pipes run ahead of SystemC time and of each other (engine.hpp).
// Events wait until no thread can still produce an earlier one: every thread's future events
// happen at or after its own clock (TimeSource::horizon), so everything earlier than the
// smallest horizon is final and is passed on, ordered by (now, arrival). Only the events of
// the window the threads are apart are held, so memory does not grow with the trace. Issue
// events are the exception: they go straight to the observers that want them (observer.hpp).
#pragma once
#include <cstdint>
#include <vector>

#include "aicore/isa/instructions.hpp"
#include "aicore/model/observer.hpp"

namespace aicore::model {

class TimeSource {
 public:
  virtual ~TimeSource() = default;
  // No event this thread reports from now on happens before this cycle (UINT64_MAX when done).
  virtual uint64_t horizon() const = 0;
};

class Dispatcher {
 public:
  void add_observer(Observer* o);
  void add_source(const TimeSource* s) { sources_.push_back(s); }
  bool active() const { return !observers_.empty(); }
  bool wants_queue() const { return wants_queue_; }
  bool wants_issue() const { return !issue_observers_.empty(); }

  // `now` is the simulated cycle the event belongs to (see observer.hpp).
  void instruction(const InstrRecord& r);  // now = r.start_cycle
  void flag(const FlagEvent& e, uint64_t now);
  void queue(isa::CoreId core, isa::Pipe pipe, uint64_t cycle, int delta, uint64_t now);
  // At once, in the order the scalar units issue (program order per core), not in time order.
  void issue(const IssueRecord& r);
  // Pass on everything still held (end of run, fault or not).
  void flush_all();

 private:
  // An event that is final (earlier than the horizon) and earlier than everything held is
  // delivered at once, without a copy; the others are held, in (now, arrival) order. A held
  // event is a 16-byte key; its payload stays put in a slab of its kind (slots
  // reused), so a queue or flag event never carries a whole instruction around, and a queue
  // event whose cycle is its `now` (every one the model makes) has no payload beyond the key.
  enum Kind : uint32_t { kInstr, kFlag, kQueue, kQueueNow };
  static constexpr uint32_t kKindBits = 3;
  struct Key {
    uint64_t now;
    uint32_t ref;  // kind in the low kKindBits; above: slab slot, or (kQueueNow) core, pipe and sign
  };
  struct HeldInstr {
    InstrRecord record;      // record.instr is set to &instr when delivered
    isa::Instruction instr;  // the record's instruction, owned here until delivered
  };
  struct HeldQueue {
    isa::CoreId core;
    isa::Pipe pipe;
    int delta;
    uint64_t cycle;
  };
  template <class T>
  struct Slab {
    std::vector<T> items;
    std::vector<uint32_t> free;
    uint32_t take() {
      if (free.empty()) {
        items.emplace_back();
        return static_cast<uint32_t>(items.size() - 1);
      }
      const uint32_t slot = free.back();
      free.pop_back();
      return slot;
    }
  };
  // The held keys, sorted by (now, arrival) from held_[head_] on: a release takes them from the
  // front, one step per event, and a new key is placed by a short scan from the back (events
  // arrive nearly in time order) or, past kScan keys, by binary search.
  static constexpr size_t kScan = 16;

  // The smallest horizon; but once one source is at or below `floor`, that source's horizon
  // (the caller needs no more: nothing can be delivered). The scan starts at the source that
  // stopped the previous one, as the thread behind the others tends to stay behind a while.
  uint64_t horizon_above(uint64_t floor);
  // The events' way in: deliver at once or hold, then pass on what has become final.
  template <class Deliver, class Keep>
  void accept(uint64_t now, Deliver&& deliver_now, Keep&& keep);
  // Deliver at once (not held): final, and earlier than everything held.
  bool direct(uint64_t now, uint64_t h) const { return now < h && now < held_min_; }
  void hold(uint64_t now, uint32_t ref);
  void release(uint64_t before) {
    if (held_min_ < before) release_slow(before);
  }
  void release_slow(uint64_t before);
  uint64_t front_now() const { return head_ < held_.size() ? held_[head_].now : UINT64_MAX; }
  void deliver(const Key& k);
  void deliver_instr(const InstrRecord& r);
  void deliver_flag(const FlagEvent& f);
  void deliver_queue(isa::CoreId core, isa::Pipe pipe, uint64_t cycle, int delta);

  std::vector<Observer*> observers_;
  std::vector<Observer*> issue_observers_;  // of observers_, those that want issue events
  std::vector<const TimeSource*> sources_;
  size_t behind_ = 0;      // index in sources_ where horizon_above starts
  std::vector<Key> held_;  // [head_, end) sorted; [0, head_) delivered, reclaimed when half
  size_t head_ = 0;
  uint64_t held_min_ = UINT64_MAX;  // smallest `now` held (UINT64_MAX: none)
  Slab<HeldInstr> instrs_;
  Slab<FlagEvent> flags_;
  Slab<HeldQueue> queues_;
  bool wants_queue_ = false;
};

}  // namespace aicore::model
