#include "aicore/report/signals.hpp"

#include <algorithm>
#include <cstring>

#include "aicore/report/stats.hpp"

namespace aicore::report {

using isa::Pipe;

namespace {
const Pipe kPipes[] = {Pipe::S, Pipe::MTE2, Pipe::MTE1, Pipe::M, Pipe::FIX, Pipe::MTE3};
const char* kPathNames[] = {"GM_to_L1", "L1_to_L0A", "L1_to_L0B", "L1_to_L0B_sparse", "L0C_to_GM"};
size_t at(Pipe p) {
  return static_cast<size_t>(p);
}
}  // namespace

uint64_t real_bits(double v) {
  uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

double real_value(uint64_t bits) {
  double v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

const char* lane_name(Pipe p) {
  switch (p) {
    case Pipe::S:
      return "SCALAR";
    case Pipe::MTE2:
      return "MTE2";
    case Pipe::MTE1:
      return "MTE1";
    case Pipe::M:
      return "CUBE";
    case Pipe::FIX:
      return "FIXP";
    case Pipe::MTE3:
      return "MTE3";
  }
  return "?";
}

SignalTracker::SignalTracker(CycleWindow window, bool waves) : window_(window), waves_(waves) {
  wants_queue_ = true;
  busy_.fill(-1);
  index_.fill(-1);
  line_.fill(-1);
  queue_.fill(-1);
  for (Pipe p : kPipes) {
    if (waves_) {
      busy_[at(p)] = static_cast<int>(add(lane_name(p), "busy", SignalKind::Bit, 1, 0));
      index_[at(p)] = static_cast<int>(add(lane_name(p), "instr_index", SignalKind::Vector, 64, kUnknown));
      line_[at(p)] = static_cast<int>(add(lane_name(p), "instr_line", SignalKind::Vector, 32, kUnknown));
    }
    // The scalar unit runs its own instructions and has no queue.
    if (p != Pipe::S)
      queue_[at(p)] = static_cast<int>(add(lane_name(p), "queue_depth", SignalKind::Vector, 32, 0));
  }
  for (int i = 0; i < kPathCount; ++i)
    path_[static_cast<size_t>(i)] =
        static_cast<int>(add("paths", kPathNames[i], SignalKind::Real, 64, real_bits(0)));
  flag_.assign(isa::kPipeCount * isa::kPipeCount * isa::kEventIds, -1);
  if (waves_)
    for (Pipe s : kPipes)
      for (Pipe d : kPipes) {
        if (!isa::is_legal_event(isa::EventPair{s, d})) continue;
        for (int id = 0; id < isa::kEventIds; ++id) {
          const std::string name =
              std::string(isa::to_string(s)) + "_" + isa::to_string(d) + "_" + std::to_string(id);
          flag_[(at(s) * isa::kPipeCount + at(d)) * isa::kEventIds + static_cast<size_t>(id)] =
              static_cast<int>(add("flags", name, SignalKind::Bit, 1, 0));
        }
      }
  touched_.assign(info_.size(), 0);
}

int SignalTracker::queue_signal(Pipe p) const {
  return queue_[at(p)];
}
int SignalTracker::path_signal(Path p) const {
  return path_[static_cast<size_t>(p)];
}

uint32_t SignalTracker::add(const std::string& scope, const std::string& name, SignalKind kind,
                            uint32_t width, uint64_t init) {
  info_.push_back(SignalInfo{scope, name, kind, width});
  is_flag_.push_back(scope == "flags" ? 1 : 0);
  value_.push_back(init);
  shown_.push_back(init);
  return static_cast<uint32_t>(info_.size() - 1);
}

void SignalTracker::push(uint64_t cycle, int signal, uint64_t value, Op op, uint32_t line) {
  if (signal < 0 || done_) return;
  if (cycle < released_) {  // cannot happen while the model keeps the observer contract
    ++late_;
    cycle = released_;
  }
  uint32_t slot;
  if (free_.empty()) {
    slot = static_cast<uint32_t>(slab_.size());
    slab_.push_back(Change{});
  } else {
    slot = free_.back();
    free_.pop_back();
  }
  slab_[slot] = Change{value, static_cast<uint32_t>(signal), line, op};
  heap_.push(Key{cycle, seq_++, slot});
}

// Flags count pending sets (a flag set again before it is consumed is a fault, but the wave
// must stay right up to it); queues count entries.
uint64_t SignalTracker::shown(uint32_t s) const {
  return is_flag_[s] ? (value_[s] != 0 ? 1 : 0) : value_[s];
}

void SignalTracker::on_instruction(const model::InstrRecord& r) {
  const size_t p = at(r.pipe);
  if (r.pipe == Pipe::S) {
    issued_ = std::max(issued_, r.busy_end);  // the scalar unit issues nothing before it is free
  } else {
    if (!pending_[p].empty()) pending_[p].pop_front();
    pipe_free_[p] = std::max(pipe_free_[p], r.busy_end);
  }
  // Zero-length occupancy cannot show in a waveform; its queue and flag effects still do.
  if (r.busy_end > r.start_cycle) {
    if (waves_) {
      push(r.start_cycle, static_cast<int>(p), r.instr->index, Op::Start, r.instr->line);
      push(r.busy_end, static_cast<int>(p), 0, Op::End);
    }
    if (const auto path = path_of(r.instr->op)) {
      const double rate = static_cast<double>(r.bytes) / static_cast<double>(r.busy_end - r.start_cycle);
      push(r.start_cycle, path_[static_cast<size_t>(*path)], real_bits(rate));
      push(r.busy_end, path_[static_cast<size_t>(*path)], real_bits(0));
    }
  }
  advance();
}

void SignalTracker::on_flag(const model::FlagEvent& e) {
  if (!waves_) return;
  const size_t i = (at(e.event.src) * isa::kPipeCount + at(e.event.dst)) * isa::kEventIds + e.id;
  push(e.cycle, i < flag_.size() ? flag_[i] : -1, e.set ? 1 : ~uint64_t{0}, Op::Add);
}

void SignalTracker::on_queue(isa::CoreId /*core*/, Pipe pipe, uint64_t cycle, int delta) {
  if (delta > 0) {
    pending_[at(pipe)].push_back(cycle);
    issued_ = std::max(issued_, cycle);
  }
  push(cycle, queue_[at(pipe)], static_cast<uint64_t>(static_cast<int64_t>(delta)), Op::Add);
  advance();
}

void SignalTracker::advance() {
  // No later callback carries a cycle below this (see the header).
  uint64_t bound = issued_;
  for (Pipe p : kPipes)
    if (!pending_[at(p)].empty())
      bound = std::min(bound, std::max(pipe_free_[at(p)], pending_[at(p)].front()));
  if (bound > released_) release(bound);
}

void SignalTracker::touch(int signal, uint64_t value) {
  const auto s = static_cast<uint32_t>(signal);
  value_[s] = value;
  if (!touched_[s]) {
    touched_[s] = 1;
    touched_list_.push_back(s);
  }
}

void SignalTracker::apply(const Change& c) {
  switch (c.op) {
    case Op::Set:
      touch(static_cast<int>(c.signal), c.value);
      break;
    case Op::Add:
      touch(static_cast<int>(c.signal), value_[c.signal] + c.value);
      break;
    case Op::Start:
      touch(busy_[c.signal], 1);
      touch(index_[c.signal], c.value);
      touch(line_[c.signal], c.line);
      break;
    case Op::End:
      touch(busy_[c.signal], 0);
      touch(index_[c.signal], kUnknown);
      touch(line_[c.signal], kUnknown);
      break;
  }
}

void SignalTracker::send_initial(uint64_t cycle) {
  started_ = true;
  batch_.clear();
  for (uint32_t s = 0; s < info_.size(); ++s) {
    shown_[s] = shown(s);
    batch_.push_back(SignalValue{s, shown_[s]});
  }
  send(cycle, true);
}

void SignalTracker::send(uint64_t cycle, bool initial) {
  for (SignalSink* s : sinks_) s->on_values(cycle, batch_, initial);
  last_cycle_ = cycle;
}

void SignalTracker::release(uint64_t before) {
  while (!done_ && !heap_.empty() && heap_.top().cycle < before) {
    const uint64_t t = heap_.top().cycle;
    if (!started_ && t > window_.begin) send_initial(window_.begin);  // the values holding at begin
    if (t >= window_.end) {
      done_ = true;  // nothing after the window is written
      heap_ = {};
      slab_.clear();
      free_.clear();
      break;
    }
    while (!heap_.empty() && heap_.top().cycle == t) {
      const uint32_t slot = heap_.top().slot;
      heap_.pop();
      apply(slab_[slot]);
      free_.push_back(slot);
    }
    if (started_) {
      batch_.clear();
      for (uint32_t s : touched_list_) {
        const uint64_t v = shown(s);
        if (v != shown_[s]) batch_.push_back(SignalValue{s, shown_[s] = v});
      }
      if (!batch_.empty()) send(t, false);
    } else if (t == window_.begin) {
      send_initial(t);
    }
    for (uint32_t s : touched_list_) touched_[s] = 0;
    touched_list_.clear();
  }
  released_ = std::max(released_, before);
}

void SignalTracker::finish(uint64_t end_cycle) {
  release(~uint64_t{0});
  if (!started_ && window_.begin <= end_cycle) send_initial(window_.begin);
}

}  // namespace aicore::report
