#include "aicore/model/dispatch.hpp"

#include <algorithm>

namespace aicore::model {

void Dispatcher::add_observer(Observer* o) {
  observers_.push_back(o);
  wants_queue_ = wants_queue_ || o->wants_queue();
  if (o->wants_issue()) issue_observers_.push_back(o);
}

uint64_t Dispatcher::horizon_above(uint64_t floor) {
  const size_t n = sources_.size();
  if (n == 0) return UINT64_MAX;
  uint64_t h = sources_[behind_]->horizon();
  if (h <= floor) return h;
  for (size_t i = 0; i < n; ++i) {
    if (i == behind_) continue;
    const uint64_t s = sources_[i]->horizon();
    if (s <= floor) {
      behind_ = i;
      return s;
    }
    h = std::min(h, s);
  }
  return h;
}

template <class Deliver, class Keep>
void Dispatcher::accept(uint64_t now, Deliver&& deliver_now, Keep&& keep) {
  // Below min(now, held_min_) the horizon changes nothing: the event is held (not final, or
  // something held comes first) and nothing held is final. Above it, the exact value counts.
  const uint64_t h = horizon_above(std::min(now, held_min_));
  if (direct(now, h)) {
    deliver_now();
  } else {
    keep();
  }
  release(h);
}

void Dispatcher::instruction(const InstrRecord& r) {
  if (observers_.empty()) return;
  accept(
      r.start_cycle, [&] { deliver_instr(r); },
      [&] {
        const uint32_t slot = instrs_.take();
        HeldInstr& held = instrs_.items[slot];
        held.record = r;
        held.instr = *r.instr;
        hold(r.start_cycle, slot << kKindBits | kInstr);
      });
}

void Dispatcher::flag(const FlagEvent& f, uint64_t now) {
  if (observers_.empty()) return;
  accept(
      now, [&] { deliver_flag(f); },
      [&] {
        const uint32_t slot = flags_.take();
        flags_.items[slot] = f;
        hold(now, slot << kKindBits | kFlag);
      });
}

void Dispatcher::queue(isa::CoreId core, isa::Pipe pipe, uint64_t cycle, int delta, uint64_t now) {
  if (!wants_queue_) return;
  accept(
      now, [&] { deliver_queue(core, pipe, cycle, delta); },
      [&] {
        // Core (16 bits), pipe (3) and sign (1) fit in the key's 29 bits beside the kind.
        if (cycle == now && (delta == 1 || delta == -1)) {
          const uint32_t packed =
              uint32_t{core.value} << 4 | static_cast<uint32_t>(pipe) << 1 | (delta > 0 ? 1u : 0u);
          hold(now, packed << kKindBits | kQueueNow);
        } else {
          const uint32_t slot = queues_.take();
          queues_.items[slot] = HeldQueue{core, pipe, delta, cycle};
          hold(now, slot << kKindBits | kQueue);
        }
      });
}

void Dispatcher::issue(const IssueRecord& r) {
  // Not held nor ordered: program order per core is all its observers need (observer.hpp).
  for (Observer* o : issue_observers_) o->on_issue(r);
}

void Dispatcher::hold(uint64_t now, uint32_t ref) {
  const Key k{now, ref};  // after every key held with the same or an earlier `now`: arrival order
  const auto later = [](const Key& a, uint64_t t) { return a.now > t; };
  size_t pos = held_.size();
  while (pos > head_ && held_.size() - pos < kScan && later(held_[pos - 1], now)) --pos;
  if (pos > head_ && later(held_[pos - 1], now))  // far back: search the rest
    pos = static_cast<size_t>(std::upper_bound(held_.begin() + static_cast<std::ptrdiff_t>(head_),
                                               held_.begin() + static_cast<std::ptrdiff_t>(pos), now,
                                               [](uint64_t t, const Key& a) { return t < a.now; }) -
                              held_.begin());
  held_.insert(held_.begin() + static_cast<std::ptrdiff_t>(pos), k);
  held_min_ = held_[head_].now;
}

void Dispatcher::release_slow(uint64_t before) {
  // Front to back: the sorted keys are the delivery order. Nothing is held meanwhile
  // (observers make no events), so each key is delivered as it is taken.
  while (head_ < held_.size() && held_[head_].now < before) deliver(held_[head_++]);
  if (head_ == held_.size()) {
    held_.clear();
    head_ = 0;
  } else if (head_ > held_.size() / 2) {
    held_.erase(held_.begin(), held_.begin() + static_cast<std::ptrdiff_t>(head_));
    head_ = 0;
  }
  held_min_ = front_now();
}

void Dispatcher::flush_all() {
  release(UINT64_MAX);
}

void Dispatcher::deliver(const Key& k) {
  const uint32_t slot = k.ref >> kKindBits;
  switch (k.ref & ((1u << kKindBits) - 1)) {
    case kInstr: {
      HeldInstr& held = instrs_.items[slot];
      held.record.instr = &held.instr;
      deliver_instr(held.record);
      instrs_.free.push_back(slot);
      break;
    }
    case kFlag:
      deliver_flag(flags_.items[slot]);
      flags_.free.push_back(slot);
      break;
    case kQueue: {
      const HeldQueue& q = queues_.items[slot];
      deliver_queue(q.core, q.pipe, q.cycle, q.delta);
      queues_.free.push_back(slot);
      break;
    }
    case kQueueNow:
      deliver_queue(isa::CoreId{static_cast<uint16_t>(slot >> 4)}, static_cast<isa::Pipe>((slot >> 1) & 7),
                    k.now, slot & 1 ? 1 : -1);
      break;
  }
}

void Dispatcher::deliver_instr(const InstrRecord& r) {
  for (Observer* o : observers_) o->on_instruction(r);
}

void Dispatcher::deliver_flag(const FlagEvent& f) {
  for (Observer* o : observers_) o->on_flag(f);
}

void Dispatcher::deliver_queue(isa::CoreId core, isa::Pipe pipe, uint64_t cycle, int delta) {
  for (Observer* o : observers_)
    if (o->wants_queue()) o->on_queue(core, pipe, cycle, delta);
}

}  // namespace aicore::model
