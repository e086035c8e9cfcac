#include "aicore/report/signals.hpp"

#include <algorithm>
#include <cstring>

#include "aicore/report/stats.hpp"

namespace aicore::report {

using isa::Pipe;

namespace {
const Pipe kPipes[] = {Pipe::S, Pipe::MTE2, Pipe::MTE1, Pipe::M, Pipe::FIX, Pipe::MTE3};
const char* kPathNames[] = {"GM_to_L1",         "L1_to_L0A", "L1_to_L0B",
                            "L1_to_L0B_sparse", "L0C_to_GM", "L1_to_BT"};
size_t pipe_index(Pipe p) {
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

SignalTracker::SignalTracker(CycleWindow window, bool waves, uint32_t cores)
    : window_(window), waves_(waves), cores_(std::max<uint32_t>(cores, 1)) {
  wants_queue_ = true;
  const size_t slots = cores_ * isa::kPipeCount;
  busy_.assign(slots, -1);
  index_.assign(slots, -1);
  line_.assign(slots, -1);
  queue_.assign(slots, -1);
  path_.assign(cores_ * kPathCount, -1);
  l2_hit_.assign(cores_ * kGmPathCount, -1);
  hbm_.assign(cores_ * kGmPathCount, -1);
  flag_.assign(cores_ * isa::kPipeCount * isa::kPipeCount * isa::kEventIds, -1);
  pending_.resize(slots);
  pipe_free_.assign(slots, 0);
  issued_.assign(cores_, 0);
  for (uint16_t c = 0; c < cores_; ++c) {
    const isa::CoreId core{c};
    for (Pipe p : kPipes) {
      const std::string sc = scope(c, lane_name(p));
      if (waves_) {
        busy_[at(core, p)] = static_cast<int>(add(c, sc, "busy", SignalKind::Bit, 1, 0));
        index_[at(core, p)] = static_cast<int>(add(c, sc, "instr_index", SignalKind::Vector, 64, kUnknown));
        line_[at(core, p)] = static_cast<int>(add(c, sc, "instr_line", SignalKind::Vector, 32, kUnknown));
      }
      // The scalar unit runs its own instructions and has no queue.
      if (p != Pipe::S)
        queue_[at(core, p)] = static_cast<int>(add(c, sc, "queue_depth", SignalKind::Vector, 32, 0));
    }
    for (int i = 0; i < kPathCount; ++i)
      path_[c * kPathCount + static_cast<size_t>(i)] =
          static_cast<int>(add(c, scope(c, "paths"), kPathNames[i], SignalKind::Real, 64, real_bits(0)));
    for (size_t g = 0; g < kGmPathCount; ++g) {
      const std::string name = kPathNames[static_cast<size_t>(kGmPaths[g])];
      l2_hit_[c * kGmPathCount + g] =
          static_cast<int>(add(c, scope(c, "l2"), name + "_hit_rate", SignalKind::Real, 64, real_bits(0)));
      hbm_[c * kGmPathCount + g] =
          static_cast<int>(add(c, scope(c, "l2"), name + "_HBM", SignalKind::Real, 64, real_bits(0)));
    }
    if (!waves_) continue;
    for (Pipe src : kPipes)
      for (Pipe dst : kPipes) {
        if (!isa::is_legal_event(isa::EventPair{src, dst})) continue;
        for (int id = 0; id < isa::kEventIds; ++id) {
          const std::string name =
              std::string(isa::to_string(src)) + "_" + isa::to_string(dst) + "_" + std::to_string(id);
          flag_[((c * isa::kPipeCount + pipe_index(src)) * isa::kPipeCount + pipe_index(dst)) *
                    isa::kEventIds +
                static_cast<size_t>(id)] =
              static_cast<int>(add(c, scope(c, "flags"), name, SignalKind::Bit, 1, 0, true));
        }
      }
  }
  touched_.assign(info_.size(), 0);
}

std::string SignalTracker::scope(uint16_t core, const std::string& inner) const {
  return cores_ > 1 ? "core" + std::to_string(core) + "/" + inner : inner;
}

int SignalTracker::queue_signal(Pipe p, isa::CoreId c) const {
  return c.value < cores_ ? queue_[at(c, p)] : -1;
}
int SignalTracker::path_signal(Path p, isa::CoreId c) const {
  return c.value < cores_ ? path_[c.value * kPathCount + static_cast<size_t>(p)] : -1;
}
int SignalTracker::l2_signal(Path p, bool hbm, isa::CoreId c) const {
  for (size_t g = 0; g < kGmPathCount; ++g)
    if (kGmPaths[g] == p && c.value < cores_) return (hbm ? hbm_ : l2_hit_)[c.value * kGmPathCount + g];
  return -1;
}

uint32_t SignalTracker::add(uint16_t core, const std::string& scope, const std::string& name, SignalKind kind,
                            uint32_t width, uint64_t init, bool flag) {
  info_.push_back(SignalInfo{scope, name, kind, width});
  core_of_.push_back(core);
  is_flag_.push_back(flag ? 1 : 0);
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
  if (r.core.value >= cores_) return;  // a core the tracker was not told about: nothing to draw
  const size_t p = at(r.core, r.pipe);
  now_ = std::max(now_, r.start_cycle);
  if (r.pipe == Pipe::S) {
    // The scalar unit issues nothing before it is free.
    issued_[r.core.value] = std::max(issued_[r.core.value], r.busy_end);
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
      const int sig = path_signal(*path, r.core);
      const double rate = static_cast<double>(r.bytes) / static_cast<double>(r.busy_end - r.start_cycle);
      push(r.start_cycle, sig, real_bits(rate));
      push(r.busy_end, sig, real_bits(0));
      if (const uint64_t lines = r.l2_hits + r.l2_misses) {  // a GM transfer: what the L2 did
        const double span = static_cast<double>(r.busy_end - r.start_cycle);
        const int hit = l2_signal(*path, false, r.core), hbm = l2_signal(*path, true, r.core);
        push(r.start_cycle, hit, real_bits(static_cast<double>(r.l2_hits) / static_cast<double>(lines)));
        push(r.busy_end, hit, real_bits(0));
        push(r.start_cycle, hbm, real_bits(static_cast<double>(r.hbm_bytes) / span));
        push(r.busy_end, hbm, real_bits(0));
      }
    }
  }
  advance();
}

void SignalTracker::on_flag(const model::FlagEvent& e) {
  if (!e.set) now_ = std::max(now_, e.cycle);
  if (!waves_ || e.core.value >= cores_) return;
  const size_t i = ((e.core.value * isa::kPipeCount + pipe_index(e.event.src)) * isa::kPipeCount +
                    pipe_index(e.event.dst)) *
                       isa::kEventIds +
                   e.id;
  push(e.cycle, i < flag_.size() ? flag_[i] : -1, e.set ? 1 : ~uint64_t{0}, Op::Add);
}

void SignalTracker::on_queue(isa::CoreId core, Pipe pipe, uint64_t cycle, int delta) {
  if (core.value >= cores_) return;
  if (delta > 0) {
    pending_[at(core, pipe)].push_back(cycle);
    issued_[core.value] = std::max(issued_[core.value], cycle);
  } else {
    now_ = std::max(now_, cycle);
  }
  push(cycle, queue_[at(core, pipe)], static_cast<uint64_t>(static_cast<int64_t>(delta)), Op::Add);
  advance();
}

void SignalTracker::advance() {
  // No later callback carries a cycle below this (see the header): per core, the least of its
  // scalar unit's issue point and each pipe's next possible start; over the chip, the least of
  // those. On a chip of several cores that bound stalls once one core has issued its last
  // instruction, so there the time the callbacks have reached (their global time order,
  // observer.hpp) bounds it from below too.
  uint64_t bound = UINT64_MAX;
  for (uint16_t c = 0; c < cores_; ++c) {
    uint64_t b = issued_[c];
    for (Pipe p : kPipes) {
      const size_t i = at(isa::CoreId{c}, p);
      if (!pending_[i].empty()) b = std::min(b, std::max(pipe_free_[i], pending_[i].front()));
    }
    bound = std::min(bound, b);
  }
  if (cores_ > 1) bound = std::max(bound, now_);
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
    case Op::Start:  // c.signal is at(core, pipe) here
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
