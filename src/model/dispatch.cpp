#include "aicore/model/dispatch.hpp"

#include <algorithm>

namespace aicore::model {

void Dispatcher::add_observer(Observer* o) {
  observers_.push_back(o);
  wants_queue_ = wants_queue_ || o->wants_queue();
}

uint64_t Dispatcher::horizon() const {
  uint64_t h = UINT64_MAX;
  for (const TimeSource* s : sources_) h = std::min(h, s->horizon());
  return h;
}

void Dispatcher::instruction(const InstrRecord& r) {
  if (observers_.empty()) return;
  // Common case: nothing held and nothing earlier can come: deliver without copying.
  if (heap_.empty() && r.start_cycle < horizon()) {
    ++seq_;
    for (Observer* o : observers_) o->on_instruction(r);
    return;
  }
  Event e{};
  e.now = r.start_cycle;
  e.kind = Event::Kind::Instr;
  e.record = r;
  e.instr = *r.instr;
  push(std::move(e));
}

void Dispatcher::flag(const FlagEvent& f, uint64_t now) {
  if (observers_.empty()) return;
  if (heap_.empty() && now < horizon()) {  // nothing held, nothing earlier can come
    ++seq_;
    for (Observer* o : observers_) o->on_flag(f);
    return;
  }
  Event e{};
  e.now = now;
  e.kind = Event::Kind::Flag;
  e.flag = f;
  push(std::move(e));
}

void Dispatcher::queue(isa::Pipe pipe, uint64_t cycle, int delta, uint64_t now) {
  if (!wants_queue_) return;
  if (heap_.empty() && now < horizon()) {
    ++seq_;
    for (Observer* o : observers_)
      if (o->wants_queue()) o->on_queue(pipe, cycle, delta);
    return;
  }
  Event e{};
  e.now = now;
  e.kind = Event::Kind::Queue;
  e.pipe = pipe;
  e.cycle = cycle;
  e.delta = delta;
  push(std::move(e));
}

void Dispatcher::push(Event&& e) {
  const uint64_t horizon = this->horizon();
  e.seq = seq_++;
  if (e.now < horizon && (heap_.empty() || e.now < heap_.top().now)) {
    release(e.now);  // nothing held is earlier; this one is final already
    deliver(e);
  } else {
    uint32_t slot;
    if (free_.empty()) {
      slot = static_cast<uint32_t>(slab_.size());
      slab_.push_back(std::move(e));
    } else {
      slot = free_.back();
      free_.pop_back();
      slab_[slot] = std::move(e);
    }
    heap_.push(Key{slab_[slot].now, slab_[slot].seq, slot});
  }
  release(horizon);
}

void Dispatcher::release(uint64_t before) {
  while (!heap_.empty() && heap_.top().now < before) {
    const uint32_t slot = heap_.top().slot;
    heap_.pop();
    deliver(slab_[slot]);
    free_.push_back(slot);
  }
}

void Dispatcher::flush_all() { release(UINT64_MAX); }

void Dispatcher::deliver(const Event& e) {
  switch (e.kind) {
    case Event::Kind::Instr: {
      InstrRecord r = e.record;
      r.instr = &e.instr;
      for (Observer* o : observers_) o->on_instruction(r);
      break;
    }
    case Event::Kind::Flag:
      for (Observer* o : observers_) o->on_flag(e.flag);
      break;
    case Event::Kind::Queue:
      for (Observer* o : observers_)
        if (o->wants_queue()) o->on_queue(e.pipe, e.cycle, e.delta);
      break;
  }
}

}  // namespace aicore::model
