#include "aicore/model/engine.hpp"

#include <algorithm>
#include <cmath>

#include "aicore/common/log.hpp"
#include "aicore/isa/check.hpp"
#include "aicore/model/clock.hpp"
#include "aicore/semantics/atomic.hpp"
#include "aicore/semantics/execute.hpp"

namespace aicore::model {

Engine::Engine(sc_core::sc_module_name name, isa::Pipe pipe, uint32_t queue_depth, CoreContext& ctx,
               SyncUnit& sync)
    : sc_core::sc_module(name),
      pipe_(pipe),
      depth_(queue_depth),
      ctx_(ctx),
      sync_(sync),
      start_ring_(queue_depth, 0) {
  const config::Issue& is = ctx_.cfg.issue;
  switch (pipe) {
    case isa::Pipe::MTE2:
      min_interval_ = is.min_interval_mte2;
      window_bytes_ = ctx_.cfg.gm.read.window_bytes;
      break;
    case isa::Pipe::MTE1:
      min_interval_ = is.min_interval_mte1;
      break;
    case isa::Pipe::M:
      min_interval_ = is.min_interval_m;
      break;
    case isa::Pipe::FIX:
      min_interval_ = is.min_interval_fix;
      window_bytes_ = ctx_.cfg.gm.write.window_bytes;
      break;
    default:
      break;
  }
  SC_HAS_PROCESS(Engine);
  SC_THREAD(run);
}

namespace {
// Whole cycles from exact ones: a value within rounding noise of a whole cycle is that cycle.
uint64_t whole(double exact) {
  return static_cast<uint64_t>(std::ceil(exact - 1e-9));
}
bool is_cube(const isa::Op& op) {
  return std::holds_alternative<isa::Mmad>(op) || std::holds_alternative<isa::MmadWithSparse>(op);
}
}  // namespace

void Engine::connect(Buffer& b, bool reads, bool writes) {
  buffers_[static_cast<size_t>(b.space())] = &b;
  if (reads) b.add_user(false, this);
  if (writes) b.add_user(true, this);
}

uint64_t Engine::horizon() const {
  if (finished_) return UINT64_MAX;
  if (in_flight_) return in_flight_start_;
  // Nothing here can start before the pipe is free, nor before it is issued: the queued front
  // entry's issue cycle, or (queue empty) the scalar unit's next issue slot.
  if (queue_.empty()) return std::max(local_, issuer_ ? issuer_->horizon() : local_);
  uint64_t h = std::max(local_, queue_.front().issue_cycle);
  // Waiting for a unit-flag producer that has not run yet: it starts no earlier than its pipe's
  // horizon, and this instruction no earlier than that less its lead (it may start before the
  // producer does, touching each granule once the producer has made it). Once the producer has
  // run (this engine wakes a delta later), its pipe's horizon says nothing about it any more.
  if (waiting_unit_ != isa::Pipe::S && !in_horizon_ && !unit_->known(waiting_unit_for_)) {
    if (const TimeSource* producer = peers_[static_cast<size_t>(waiting_unit_)]) {
      in_horizon_ = true;
      const uint64_t p = producer->horizon();
      h = std::max(h, p > waiting_unit_lead_ ? p - waiting_unit_lead_ : 0);
      in_horizon_ = false;
    }
  }
  // Blocked in a WaitFlag no SetFlag has answered yet: it is released no earlier than the
  // setting pipe's own horizon (its SetFlag fires after it executes).
  if (waiting_ && !in_horizon_ && !sync_.has_set(waiting_->event, waiting_->id)) {
    const TimeSource* setter = peers_[static_cast<size_t>(waiting_->event.src)];
    if (setter) {
      in_horizon_ = true;
      h = std::max(h, setter->horizon());
      in_horizon_ = false;
    }
  }
  return h;
}

void Engine::push(QueueEntry&& e) {
  ctx_.chip.dispatch.queue(ctx_.id, pipe_, e.issue_cycle, +1, e.issue_cycle);
  queue_.push_back(std::move(e));
  ++pushed_count_;
  if (waiting_push_) pushed_ev_.notify(sc_core::SC_ZERO_TIME);
}

void Engine::close() {
  closed_ = true;
  if (waiting_push_) pushed_ev_.notify(sc_core::SC_ZERO_TIME);
}

uint64_t Engine::start_of(uint64_t seq) {
  while (started_count_ <= seq) {
    ++waiters_;
    sc_core::wait(progress_ev_);
    --waiters_;
  }
  return start_ring_[seq % depth_];
}

uint64_t Engine::drain() {
  while (started_count_ < pushed_count_ || current_) {
    ++waiters_;
    sc_core::wait(progress_ev_);
    --waiters_;
  }
  return last_completion_;
}

void Engine::started(uint64_t start) {
  ctx_.chip.dispatch.queue(ctx_.id, pipe_, start, -1, start);
  start_ring_[started_count_ % depth_] = start;
  ++started_count_;
  queue_.pop_front();
  if (waiters_) progress_ev_.notify(sc_core::SC_ZERO_TIME);
}

std::string Engine::blocked_on() const {
  if (finished_) return "";
  if (current_) {
    // Built only when a deadlock is reported: the hot path records nothing but current_.
    std::string what = "its start cycle";
    if (const auto* w = std::get_if<isa::WaitFlag>(&current_->op))
      what = std::string("flag ") + isa::to_string(w->event.src) + "_" + isa::to_string(w->event.dst) +
             " id " + std::to_string(w->id);
    if (waiting_unit_ != isa::Pipe::S)
      what = std::string("the unit flags of L0C cells that ") + isa::to_string(waiting_unit_) +
             " instruction #" + std::to_string(waiting_unit_for_) + " hands over (unitFlag)";
    return ctx_.where(*current_) + " waiting for " + what;
  }
  if (!queue_.empty()) return ctx_.where(queue_.front().instr) + " queued";
  return "";
}

const isa::Instruction* Engine::queued_wait(isa::EventPair e, uint8_t id) const {
  auto is = [&](const isa::Instruction* in) {
    const auto* w = in ? std::get_if<isa::WaitFlag>(&in->op) : nullptr;
    return w && w->event == e && w->id == id;
  };
  if (is(current_)) return current_;
  for (const QueueEntry& q : queue_)
    if (is(&q.instr)) return &q.instr;
  return nullptr;
}

void Engine::run() {
  for (;;) {
    while (queue_.empty()) {
      if (closed_) {
        finished_ = true;
        return;
      }
      waiting_push_ = true;
      sc_core::wait(pushed_ev_);
      waiting_push_ = false;
    }
    const QueueEntry e = queue_.front();  // stays queued (counts as occupying it) until it starts
    current_ = &e.instr;
    execute(e, std::max(local_, e.issue_cycle));
    if (ctx_.chip.fault) return;
    current_ = nullptr;
    if (waiters_) progress_ev_.notify(sc_core::SC_ZERO_TIME);
  }
}

void Engine::record(InstrRecord& r) {
  r.core = ctx_.id;
  r.pipe = pipe_;
  if (log().should_log(spdlog::level::debug))
    log().debug("core {} {} #{} line {} {}: issue {} start {} busy until {} done {}", r.core.value,
                isa::to_string(pipe_), r.instr->index, r.instr->line, isa::mnemonic(r.instr->op),
                r.issue_cycle, r.start_cycle, r.busy_end, r.end_cycle);
  ++instructions_;
  // Waiting for a shared port is stall, not busy time (the pipe moved nothing meanwhile).
  busy_cycles_ += r.busy_end - r.start_cycle - r.port_stall_cycles;
  stall_cycles_ += r.wait_cycles;
  local_ = r.busy_end;
  free_exact_ = static_cast<double>(r.busy_end);  // a data instruction refines it (execute_data)
  if (r.end_cycle > last_completion_) last_completion_ = r.end_cycle;
  in_flight_ = false;
  ctx_.chip.dispatch.instruction(r);
}

void Engine::execute(const QueueEntry& e, uint64_t earliest) {
  const isa::Op& op = e.instr.op;
  if (isa::is_sync(op)) {
    execute_sync(e, earliest);
  } else {
    execute_data(e, earliest);
  }
}

void Engine::execute_sync(const QueueEntry& e, uint64_t earliest) {
  const isa::Op& op = e.instr.op;
  InstrRecord r;
  r.instr = &e.instr;
  r.issue_cycle = e.issue_cycle;
  r.queue_wait_cycles = e.queue_wait_cycles;
  const uint64_t sync_cost = ctx_.cfg.issue.sync_cycles;
  try {
    isa::check_fields(op);
  } catch (const Fault& f) {
    ctx_.raise(f.kind(), f.what(), e.instr, earliest);
    return;
  }
  uint64_t start = earliest;
  if (const auto* s = std::get_if<isa::SetFlag>(&op)) {
    // Fires once every earlier instruction of this pipe has completed (latency included); it
    // does not hold later instructions of the pipe back.
    const uint64_t fire = std::max(earliest + sync_cost, last_completion_);
    sync_.set(e.instr, s->event, s->id, earliest, fire);
    started(earliest);
    r.start_cycle = earliest;
    r.busy_end = earliest + sync_cost;
    r.end_cycle = fire;
    record(r);
    return;
  }
  if (const auto* w = std::get_if<isa::WaitFlag>(&op)) {
    waiting_ = w;
    const auto released = sync_.wait(e.instr, w->event, w->id, earliest, &waiting_);
    if (!released) return;
    start = *released;
    if (start > earliest) r.wait_cause = WaitCause::Flag;
    r.flag_id = w->id;
  } else {  // PipeBarrier of this pipe: its earlier instructions, held SetFlags included, done
    const uint64_t done = std::max(last_completion_, sync_.drain_held(static_cast<size_t>(pipe_)));
    if (done > earliest) {
      start = done;
      r.wait_cause = WaitCause::Barrier;
    }
  }
  started(start);
  r.start_cycle = start;
  r.wait_cycles = start - earliest;
  r.busy_end = r.end_cycle = start + sync_cost;
  record(r);
}

void Engine::execute_data(const QueueEntry& e, uint64_t earliest) {
  const isa::Op& op = e.instr.op;
  isa::Footprint fp;
  try {
    isa::check_fields(op);
    fp = isa::footprint(op);  // computed once: bounds, cost and port bookings all use it
    isa::check_bounds(fp, ctx_.view.limits());
    if (e.atomic) sem::check_atomic_type(std::get<isa::Fixpipe>(op), *e.atomic);
  } catch (const Fault& f) {
    ctx_.raise(f.kind(), f.what(), e.instr, earliest);
    return;
  }
  const Cost c = cost_of(op, ctx_.cfg, isa::bytes_moved(op, fp), e.atomic.has_value());
  InstrRecord r;
  // unitFlag: no granule is touched before the instruction that hands it over is done with it.
  // This waits until that instruction has run, bytes included, so it comes before our bytes.
  const uint64_t unit_start = unit_ ? unit_flag_start(e, c, r.unit_flag_from) : 0;
  if (ctx_.chip.fault) return;
  try {
    // The bytes (--timing-only: none). An atomic add adds at its GM transfer's start instead
    // (gm_transfer), so that the adds of all cores happen in simulated-time order.
    if (ctx_.functional && !e.atomic) sem::execute(op, ctx_.view);
  } catch (const Fault& f) {
    ctx_.raise(f.kind(), f.what(), e.instr, earliest);
    return;
  }
  r.instr = &e.instr;
  r.issue_cycle = e.issue_cycle;
  r.queue_wait_cycles = e.queue_wait_cycles;
  r.bytes = c.bytes;
  r.macs = c.macs;
  r.dense_macs = c.dense_macs;
  // Exact start: when the pipe is free and the instruction issued, no earlier than the minimum
  // interval after the previous data instruction's start (pacing rules: engine.hpp).
  const double ready = std::max(static_cast<double>(e.issue_cycle), free_exact_);
  double exact_start = std::max(ready, allowed_);
  const uint64_t first = whole(exact_start);
  double occupancy = static_cast<double>(c.occupancy);
  if (is_cube(op)) {
    // The head is hidden by as much as the Cube was kept busy: min(head, idle cycles).
    const double head = static_cast<double>(c.head);
    const double idle = last_mmad_end_ < 0 ? head : std::max(ready - last_mmad_end_, 0.0);
    occupancy = static_cast<double>(c.occupancy - c.head) + std::min(head, idle) + c.extra;
  }
  const bool gm = c.gm_rate > 0;
  uint64_t t = std::max(first, unit_start);
  if (l1_writer_) occupancy /= l1_read_share(fp, t);
  const uint64_t hold = gm ? c.port_cycles : whole(exact_start + occupancy) - first;
  r.unit_flag_cycles = t - first;
  if (gm && window_bytes_) t = window_start(t, c.gm_bytes);
  // A port another pipe also uses may be booked at `t`: start when every port is free.
  const uint64_t start = book_ports(fp, t, hold);
  if (start > first) {
    r.wait_cause = r.unit_flag_cycles ? WaitCause::UnitFlag : WaitCause::Port;
    r.wait_cycles = start - first;
  }
  exact_start += static_cast<double>(start - first);  // a delay keeps the fractional phase
  r.start_cycle = start;
  if (gm) {
    // The memory side serves the transfer at no more than its lone rate (gm_port.hpp): alone it
    // ends at start + occupancy; sharing the L2, HBM or the core's port makes it later.
    r.busy_end = std::max(start + c.occupancy, gm_transfer(op, fp, start, c, r, e.atomic.has_value()));
    r.port_stall_cycles = r.busy_end - (start + c.occupancy);
    if (r.port_stall_cycles) r.wait_cause = WaitCause::Port;
    r.wait_cycles += r.port_stall_cycles;
  } else {
    r.busy_end = start + hold;
    started(start);
  }
  r.end_cycle = r.busy_end + c.latency;
  count_active(r.start_cycle, r.end_cycle);
  count_aic(r.start_cycle - (r.wait_cycles - r.port_stall_cycles), r.end_cycle);
  record(r);
  if (unit_ && unit_->producer(e.instr.index))
    unit_->publish(e.instr.index, r.start_cycle, r.busy_end, gm ? r.busy_end : r.start_cycle);
  if (!gm) free_exact_ = exact_start + occupancy;
  if (is_cube(op)) last_mmad_end_ = free_exact_;
  allowed_ = exact_start + min_interval_;
  if (gm && window_bytes_ && c.gm_bytes) {
    in_flight_gm_.emplace_back(r.end_cycle, c.gm_bytes);
    in_flight_bytes_ += c.gm_bytes;
  }
}

uint64_t Engine::unit_flag_start(const QueueEntry& e, const Cost& c, uint64_t& from) {
  const std::vector<UnitFlags::Link>& links = unit_->links(e.instr.index);
  if (links.empty()) return 0;
  // A Fixpipe waits for Mmads (M), a Mmad for Fixpipes (FIX).
  const isa::Pipe producers = pipe_ == isa::Pipe::FIX ? isa::Pipe::M : isa::Pipe::FIX;
  // Fixpipe touches its first granule after its head; a Mmad spends its occupancy past the head.
  const bool cube = pipe_ == isa::Pipe::M;
  const uint64_t offset = cube ? 0 : c.fixed;
  const uint64_t duration = cube ? c.occupancy - c.head : c.occupancy - c.fixed;
  waiting_unit_lead_ = offset + duration;
  for (const UnitFlags::Link& l : links)
    while (!unit_->known(l.producer)) {
      waiting_unit_ = producers;
      waiting_unit_for_ = l.producer;
      sc_core::wait(unit_->published());
      if (ctx_.chip.fault) return 0;
    }
  waiting_unit_ = isa::Pipe::S;
  from = links.back().producer;
  const uint64_t s = unit_->earliest_start(links, offset, duration);
  unit_->consumed(e.instr.index);
  return s;
}

bool Engine::writing_l1_at(uint64_t cycle) const {
  return (l1_write_open_ && l1_write_start_ < cycle) || (l1_last_start_ < cycle && cycle < l1_last_end_);
}

double Engine::l1_read_share(const isa::Footprint& fp, uint64_t t) {
  const double share = ctx_.cfg.mte1.share_during_l1_write;
  if (share >= 1.0) return 1.0;
  bool reads_l1 = false;
  for (const isa::Extent& x : fp) reads_l1 = reads_l1 || (x.space == isa::Space::L1 && !x.write);
  if (!reads_l1) return 1.0;
  // MTE2 idle and unable to start before t: what it did is history, no need to wait for time.
  if (l1_writer_->in_flight_ || l1_writer_->horizon() < t) catch_up(t);
  return l1_writer_->writing_l1_at(t) ? share : 1.0;
}

uint64_t Engine::window_start(uint64_t t, uint64_t bytes) {
  // Transfers leave the window when their data is usable; the pipe is in order, so the oldest
  // leaves first (ends of one GM path grow with the start).
  auto drop_done = [&] {
    while (!in_flight_gm_.empty() && in_flight_gm_.front().first <= t) {
      in_flight_bytes_ -= in_flight_gm_.front().second;
      in_flight_gm_.pop_front();
    }
  };
  drop_done();
  while (!in_flight_gm_.empty() && in_flight_bytes_ + bytes > window_bytes_) {
    t = std::max(t, in_flight_gm_.front().first);
    drop_done();
  }
  return t;
}

void Engine::count_active(uint64_t start, uint64_t end) {
  if (end <= active_until_) return;
  active_cycles_ += end - std::max(start, active_until_);
  active_until_ = end;
}

void Engine::count_aic(uint64_t from, uint64_t end) {
  if (end <= aic_until_) return;
  aic_cycles_ += end - std::max(from, aic_until_);
  aic_until_ = end;
}

void Engine::catch_up(uint64_t cycle) {
  // Phases order the requests of one cycle: by pipe (numbered 1.., S is 0), then by core
  // (chip.cores <= 128), so that shared resources see them in the same order however SystemC
  // runs the threads of a cycle. Phase 0 is the GM port's (gm_port.cpp).
  const uint64_t target =
      cycle * time_units_per_cycle() + static_cast<uint64_t>(pipe_) * kCorePhases + ctx_.id.value;
  const uint64_t now = sc_core::sc_time_stamp().value();
  if (target > now)
    sc_core::wait(sc_core::sc_time::from_value(target - now));
  else if (cycle < now_cycles())
    ++late_;
}

uint64_t Engine::book_ports(const isa::Footprint& fp, uint64_t t, uint64_t cycles) {
  cals_.clear();
  for (const isa::Extent& x : fp) {
    Buffer* b = x.space == isa::Space::GM ? nullptr : buffers_[static_cast<size_t>(x.space)];
    if (!b) continue;
    b->count(x.write, x.size());
    b->calendars(x.write, x.begin, x.end, cals_);
  }
  if (cals_.empty()) return t;
  // Another pipe shares one of these ports: ask in time order.
  bool sharer_behind = false;
  for (const isa::Extent& x : fp)
    if (x.space != isa::Space::GM && buffers_[static_cast<size_t>(x.space)])
      sharer_behind =
          sharer_behind || buffers_[static_cast<size_t>(x.space)]->sharer_before(x.write, this, t);
  if (sharer_behind) catch_up(t);
  const uint64_t s = reserve_jointly(cals_.data(), cals_.size(), t, cycles);
  for (const isa::Extent& x : fp)
    if (x.space != isa::Space::GM && buffers_[static_cast<size_t>(x.space)])
      buffers_[static_cast<size_t>(x.space)]->forget_old();
  return s;
}

uint64_t Engine::gm_transfer(const isa::Op& op, const isa::Footprint& fp, uint64_t start, const Cost& c,
                             InstrRecord& r, bool atomic) {
  // GM bandwidth is shared with whoever transfers at the same moment (gm_port.hpp): catch up
  // with SystemC time, then leave the queue (the issue unit may go on) and wait for the end.
  catch_up(start);
  // An atomic add adds here: every FIX pipe of the chip catches up to its phase of the cycle
  // (the core's id orders the phases of one cycle), so the adds to one element happen in the
  // order of their transfers' start cycles, ties by core id, however SystemC runs the threads.
  if (atomic && ctx_.functional) sem::fixpipe_atomic_add(std::get<isa::Fixpipe>(op), ctx_.view);
  in_flight_ = true;
  in_flight_start_ = start;
  started(start);
  GmRequest rq;
  for (const isa::Extent& x : fp)
    if (x.space == isa::Space::GM) {
      rq.write = x.write;
      rq.tensor = x.tensor;
    }
  rq.nd2nz = std::holds_alternative<isa::DataCopyNd2Nz>(op);
  rq.bytes = c.gm_bytes;
  // Alone, its data moves at its own rate or its core's GM port, whichever is lower.
  const double rate = std::min(c.gm_rate, ctx_.cfg.gm.shared_bytes_per_cycle);
  const auto data = static_cast<uint64_t>(std::ceil(static_cast<double>(c.gm_bytes) / rate));
  rq.lone_cycles = c.fixed + std::max(c.occupancy - c.fixed, data);
  if (c.gm_bytes) {
    isa::exact_accesses(op, gm_access_);  // the L2 is looked up by the GM bytes actually moved
    for (const isa::OperandAccess& a : gm_access_)
      if (a.space == isa::Space::GM) rq.ranges = &a.ranges;
  }
  bool to_l1 = false;
  for (const isa::Extent& x : fp) to_l1 = to_l1 || (x.space == isa::Space::L1 && x.write);
  l1_write_open_ = to_l1;
  l1_write_start_ = start;
  L2Outcome found;
  const uint64_t through = gm_->transfer(ctx_.id, rq, found);
  if (to_l1) {
    l1_write_open_ = false;
    l1_last_start_ = start;
    l1_last_end_ = through;
  }
  r.l2_hits = found.hits;
  r.l2_misses = found.misses;
  r.hbm_bytes = found.hbm_bytes();
  return through;
}

}  // namespace aicore::model
