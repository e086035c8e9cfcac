#include "aicore/model/engine.hpp"

#include <algorithm>
#include <array>

#include "aicore/common/log.hpp"
#include "aicore/isa/check.hpp"
#include "aicore/model/clock.hpp"
#include "aicore/model/timing.hpp"
#include "aicore/model/transport.hpp"
#include "aicore/semantics/execute.hpp"

namespace aicore::model {

Engine::Engine(sc_core::sc_module_name name, isa::Pipe pipe, uint32_t queue_depth, SimContext& ctx,
               SyncUnit& sync)
    : sc_core::sc_module(name),
      socket("socket"),
      pipe_(pipe),
      depth_(queue_depth),
      ctx_(ctx),
      sync_(sync),
      start_ring_(queue_depth, 0) {
  port_of_.fill(-1);
  trans_.set_extension(new PathExtension);
  SC_HAS_PROCESS(Engine);
  SC_THREAD(run);
}

void Engine::connect(Memory& m) {
  port_of_[static_cast<size_t>(m.space())] = static_cast<int>(socket.size());
  if (m.space() == isa::Space::GM) uses_gm_ = true;
  socket.bind(m.socket);
}

uint64_t Engine::horizon() const {
  if (finished_) return UINT64_MAX;
  // Nothing here can start before the pipe is free, nor before it is issued: the queued front
  // entry's issue cycle, or (queue empty) the scalar unit's next issue slot.
  if (!queue_.empty()) return std::max(local_, queue_.front().issue_cycle);
  return std::max(local_, issuer_ ? issuer_->horizon() : local_);
}

void Engine::push(QueueEntry&& e) {
  ctx_.dispatch.queue(pipe_, e.issue_cycle, +1, e.issue_cycle);
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
  ctx_.dispatch.queue(pipe_, start, -1, start);
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
    return ctx_.where(*current_) + " waiting for " + what;
  }
  if (!queue_.empty()) return ctx_.where(queue_.front().instr) + " queued";
  return "";
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
    if (ctx_.fault) return;
    current_ = nullptr;
    if (waiters_) progress_ev_.notify(sc_core::SC_ZERO_TIME);
  }
}

void Engine::record(InstrRecord& r) {
  r.pipe = pipe_;
  if (log().should_log(spdlog::level::debug))
    log().debug("{} #{} line {} {}: issue {} start {} busy until {} done {}", isa::to_string(pipe_),
                r.instr->index, r.instr->line, isa::mnemonic(r.instr->op), r.issue_cycle, r.start_cycle,
                r.busy_end, r.end_cycle);
  ++instructions_;
  busy_cycles_ += r.busy_end - r.start_cycle;
  stall_cycles_ += r.wait_cycles;
  local_ = r.busy_end;
  ctx_.dispatch.instruction(r);
}

void Engine::execute(const QueueEntry& e, uint64_t earliest) {
  const isa::Op& op = e.instr.op;
  InstrRecord r;
  r.instr = &e.instr;
  r.issue_cycle = e.issue_cycle;
  r.queue_wait_cycles = e.queue_wait_cycles;
  const uint64_t sync_cost = ctx_.cfg.issue.sync_cycles;
  const bool is_sync = std::holds_alternative<isa::SetFlag>(op) || std::holds_alternative<isa::WaitFlag>(op);
  if (is_sync) {
    try {
      isa::check_fields(op);
    } catch (const Fault& f) {
      ctx_.raise(f.kind(), f.what(), e.instr, earliest);
      return;
    }
  }
  uint64_t start = earliest;
  if (const auto* w = std::get_if<isa::WaitFlag>(&op)) {
    const auto released = sync_.wait(e.instr, w->event, w->id, earliest);
    if (!released) return;
    start = *released;
    if (start > earliest) r.wait_cause = WaitCause::Flag;
    r.flag_id = w->id;
  } else if (std::holds_alternative<isa::PipeBarrier>(op)) {
    if (last_completion_ > earliest) {
      start = last_completion_;
      r.wait_cause = WaitCause::Barrier;
    }
  } else if (const auto* s = std::get_if<isa::SetFlag>(&op)) {
    // Fires once every earlier instruction of this pipe has completed (latency included); it
    // does not hold later instructions of the pipe back.
    const uint64_t fire = std::max(earliest + sync_cost, last_completion_);
    if (!sync_.set(e.instr, s->event, s->id, earliest, fire)) return;
    started(earliest);
    r.start_cycle = earliest;
    r.busy_end = earliest + sync_cost;
    r.end_cycle = fire;
    record(r);
    return;
  } else {
    execute_data(e, earliest);
    return;
  }
  started(start);
  r.start_cycle = start;
  r.wait_cycles = start - earliest;
  r.busy_end = r.end_cycle = start + sync_cost;
  if (r.end_cycle > last_completion_) last_completion_ = r.end_cycle;
  record(r);
}

void Engine::execute_data(const QueueEntry& e, uint64_t start) {
  const isa::Op& op = e.instr.op;
  isa::Footprint fp;
  try {
    isa::check_fields(op);
    fp = isa::footprint(op);  // computed once: bounds, cost and transactions all use it
    isa::check_bounds(fp, ctx_.view.limits());
    if (ctx_.functional) sem::execute(op, ctx_.view);  // the bytes (--timing-only: none)
  } catch (const Fault& f) {
    ctx_.raise(f.kind(), f.what(), e.instr, start);
    return;
  }
  // A port shared with another pipe must see requests in time order: catch up with SystemC
  // time first (only MTE2 and FIX, whose GM port is shared, ever wait here).
  if (uses_gm_ && start > now_cycles()) {
    sc_core::wait(cycles(start - now_cycles()));
  }
  started(start);
  const Cost c = cost_of(op, ctx_.cfg, isa::bytes_moved(op, fp));
  InstrRecord r;
  r.instr = &e.instr;
  r.issue_cycle = e.issue_cycle;
  r.queue_wait_cycles = e.queue_wait_cycles;
  r.start_cycle = start;
  r.bytes = c.bytes;
  r.macs = c.macs;
  r.dense_macs = c.dense_macs;
  const uint64_t own_end = start + c.occupancy;
  const uint64_t port_end = transport(fp, start, c.occupancy, c.bytes);
  r.busy_end = std::max(port_end, own_end);
  if (port_end > own_end) {  // a shared port (GM) was busy with another pipe's traffic
    r.wait_cause = WaitCause::Port;
    r.wait_cycles = port_end - own_end;
  }
  r.end_cycle = r.busy_end + c.latency;
  if (r.end_cycle > last_completion_) last_completion_ = r.end_cycle;
  record(r);
}

uint64_t Engine::transport(const isa::Footprint& fp, uint64_t start, uint64_t path_cycles, uint64_t moved) {
  uint64_t end = start + path_cycles;
  // One transaction per (memory, direction): the parts of one instruction move together, so
  // they must not queue behind each other on a port (LoadDataWithSparse reads weights and
  // indexes from L1 at once).
  struct Access {
    isa::Space space;
    uint32_t tensor;
    uint64_t begin, bytes;
    bool write;
  };
  std::array<Access, 5> acc{};
  size_t n = 0;
  for (const isa::Extent& x : fp) {
    size_t i = 0;
    while (i < n && !(acc[i].space == x.space && acc[i].write == x.write && acc[i].tensor == x.tensor)) ++i;
    if (i == n) acc[n++] = Access{x.space, x.tensor, x.begin, 0, x.write};
    acc[i].bytes += x.size();
  }
  auto* ext = trans_.get_extension<PathExtension>();
  ext->path_cycles = path_cycles;
  ext->start_cycle = start;
  for (size_t i = 0; i < n; ++i) {
    const int port = port_of_[static_cast<size_t>(acc[i].space)];
    if (port < 0) continue;
    // A strided GM access spans more bytes than it moves; the shared GM port carries only the
    // moved ones (DataCopy with gaps, ND2NZ rows, Fixpipe rows).
    if (acc[i].space == isa::Space::GM && moved < acc[i].bytes) acc[i].bytes = moved;
    trans_.set_command(acc[i].write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    trans_.set_address(encode_address(acc[i].space, acc[i].tensor, acc[i].begin));
    trans_.set_data_ptr(nullptr);  // bytes move through DMI + semantics, see transport.hpp
    trans_.set_data_length(static_cast<unsigned>(acc[i].bytes));
    trans_.set_streaming_width(static_cast<unsigned>(acc[i].bytes));
    trans_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    socket[port]->b_transport(trans_, delay);
    end = std::max(end, start + to_cycles(delay));
  }
  return end;
}

}  // namespace aicore::model
