// Delivers model events to the observers in nondecreasing simulated time (the contract in
// observer.hpp), although the pipes run ahead of SystemC time and of each other (engine.hpp).
// Events wait in a min-heap until no thread can still produce an earlier one: every thread's
// future events happen at or after its own clock (TimeSource::horizon), so everything earlier
// than the smallest horizon is final and is passed on. The heap holds only the events of the
// window the threads are apart, so memory does not grow with the trace.
#pragma once
#include <cstdint>
#include <queue>
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

  // `now` is the simulated cycle the event belongs to (see observer.hpp).
  void instruction(const InstrRecord& r);  // now = r.start_cycle
  void flag(const FlagEvent& e, uint64_t now);
  void queue(isa::Pipe pipe, uint64_t cycle, int delta, uint64_t now);
  // Pass on everything still held (end of run, fault or not).
  void flush_all();

 private:
  struct Event {
    uint64_t now, seq;
    enum class Kind : uint8_t { Instr, Flag, Queue } kind;
    InstrRecord record;
    isa::Instruction instr;  // the record's instruction, owned here until delivered
    FlagEvent flag;
    isa::Pipe pipe;
    uint64_t cycle;
    int delta;
  };
  // The heap orders small keys; events stay put in a slab (reused slots), so reordering moves
  // 24 bytes instead of a whole record.
  struct Key {
    uint64_t now, seq;
    uint32_t slot;
  };
  struct Later {
    bool operator()(const Key& a, const Key& b) const { return a.now != b.now ? a.now > b.now : a.seq > b.seq; }
  };
  uint64_t horizon() const;
  void push(Event&& e);
  void deliver(const Event& e);
  void release(uint64_t before);

  std::vector<Observer*> observers_;
  std::vector<const TimeSource*> sources_;
  std::priority_queue<Key, std::vector<Key>, Later> heap_;
  std::vector<Event> slab_;
  std::vector<uint32_t> free_;
  uint64_t seq_ = 0;
  bool wants_queue_ = false;
};

}  // namespace aicore::model
