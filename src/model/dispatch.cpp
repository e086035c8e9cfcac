#include "aicore/model/dispatch.hpp"

#include <algorithm>

namespace aicore::model {

namespace {
// Delivery order: time, then arrival.
struct Earlier {
  template <class K>
  bool operator()(const K& a, const K& b) const {
    return a.now != b.now ? a.now < b.now : a.seq < b.seq;
  }
};
struct Later {
  template <class K>
  bool operator()(const K& a, const K& b) const {
    return Earlier()(b, a);
  }
};
}  // namespace

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
    ++seq_;
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
  held_.push_back(Key{now, seq_++, ref});
  if (held_is_heap_) {
    std::push_heap(held_.begin(), held_.end(), Later());
  } else if (held_.size() > kHeapAbove) {
    std::make_heap(held_.begin(), held_.end(), Later());
    held_is_heap_ = true;
  }
  held_min_ = std::min(held_min_, now);
}

void Dispatcher::release_slow(uint64_t before) {
  // Take out everything earlier than `before`, in delivery order, before delivering any.
  ready_.clear();
  if (held_is_heap_) {
    while (!held_.empty() && held_.front().now < before) {
      std::pop_heap(held_.begin(), held_.end(), Later());
      ready_.push_back(held_.back());
      held_.pop_back();
    }
    held_min_ = held_.empty() ? UINT64_MAX : held_.front().now;
    held_is_heap_ = held_.size() >= kArrayBelow;  // a heap is an unsorted array as well
  } else {
    uint64_t min = UINT64_MAX;
    size_t kept = 0;
    for (const Key& k : held_) {
      if (k.now < before) {
        ready_.push_back(k);
      } else {
        held_[kept++] = k;
        min = std::min(min, k.now);
      }
    }
    held_.resize(kept);
    held_min_ = min;
    if (ready_.size() <= 32) {  // insertion sort: few keys, often nearly in order
      for (size_t i = 1; i < ready_.size(); ++i) {
        const Key k = ready_[i];
        size_t j = i;
        for (; j > 0 && Earlier()(k, ready_[j - 1]); --j) ready_[j] = ready_[j - 1];
        ready_[j] = k;
      }
    } else {
      std::sort(ready_.begin(), ready_.end(), Earlier());
    }
  }
  for (const Key& k : ready_) deliver(k);
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
