#include "aicore/model/engine.hpp"

#include <array>

#include "aicore/common/log.hpp"
#include "aicore/isa/check.hpp"
#include "aicore/model/clock.hpp"
#include "aicore/model/timing.hpp"
#include "aicore/model/transport.hpp"
#include "aicore/semantics/execute.hpp"

namespace aicore::model {

Engine::Engine(sc_core::sc_module_name name, isa::Pipe pipe, uint32_t queue_depth, SimContext& ctx, SyncUnit& sync)
    : sc_core::sc_module(name), socket("socket"), pipe_(pipe), depth_(queue_depth), ctx_(ctx), sync_(sync) {
  port_of_.fill(-1);
  trans_.set_extension(new PathExtension);
  SC_HAS_PROCESS(Engine);
  SC_THREAD(run);
}

void Engine::connect(Memory& m) {
  port_of_[static_cast<size_t>(m.space())] = static_cast<int>(socket.size());
  socket.bind(m.socket);
}

void Engine::push(QueueEntry&& e) {
  queue_.push_back(std::move(e));
  if (waiting_push_) pushed_.notify(sc_core::SC_ZERO_TIME);
}

void Engine::wait_for_space() {
  while (full()) {
    ++space_waiters_;
    sc_core::wait(popped_);
    --space_waiters_;
  }
}

void Engine::wait_idle() {
  while (!idle()) {
    ++idle_waiters_;
    sc_core::wait(drained_);
    --idle_waiters_;
  }
}

void Engine::close() {
  closed_ = true;
  if (waiting_push_) pushed_.notify(sc_core::SC_ZERO_TIME);
}

std::string Engine::blocked_on() const {
  if (finished_) return "";
  if (current_) return ctx_.where(*current_) + " waiting for " + current_wait_;
  if (!queue_.empty()) return ctx_.where(queue_.front().instr) + " queued";
  return "";
}

void Engine::run() {
  for (;;) {
    while (queue_.empty()) {
      if (idle_waiters_) drained_.notify(sc_core::SC_ZERO_TIME);
      if (closed_) {
        finished_ = true;
        return;
      }
      waiting_push_ = true;
      sc_core::wait(pushed_);
      waiting_push_ = false;
    }
    const QueueEntry e = std::move(queue_.front());
    queue_.pop_front();
    if (space_waiters_) popped_.notify(sc_core::SC_ZERO_TIME);
    running_ = true;
    current_ = &e.instr;
    // The issue unit runs ahead of time (see IssueUnit::issue): never start before issue.
    if (e.issue_cycle > now_cycles()) {
      current_wait_ = "its issue cycle";
      sc_core::wait(cycles(e.issue_cycle - now_cycles()));
    }
    execute(e);
    current_ = nullptr;
    running_ = false;
    if (ctx_.fault) return;
  }
}

void Engine::record(InstrRecord& r) {
  r.pipe = pipe_;
  if (log().should_log(spdlog::level::debug))
    log().debug("{} #{} line {} {}: issue {} start {} busy until {} done {}", isa::to_string(pipe_), r.instr->index,
                r.instr->line, isa::mnemonic(r.instr->op), r.issue_cycle, r.start_cycle, r.busy_end, r.end_cycle);
  ++instructions_;
  busy_cycles_ += r.busy_end - r.start_cycle;
  stall_cycles_ += r.wait_cycles;
  if (r.end_cycle > last_completion_) last_completion_ = r.end_cycle;
  for (Observer* o : ctx_.observers) o->on_instruction(r);
}

void Engine::execute(const QueueEntry& e) {
  const isa::Op& op = e.instr.op;
  const uint64_t arrived = now_cycles();
  InstrRecord r;
  r.instr = &e.instr;
  r.issue_cycle = e.issue_cycle;
  r.queue_wait_cycles = e.queue_wait_cycles;
  const uint64_t sync_cost = ctx_.cfg.issue.sync_cycles;

  if (const auto* w = std::get_if<isa::WaitFlag>(&op)) {
    try {
      isa::check_fields(op);
    } catch (const Fault& f) {
      ctx_.raise(f.kind(), f.what(), e.instr, arrived);
      return;
    }
    current_wait_ = std::string("flag ") + isa::to_string(w->event.src) + "_" + isa::to_string(w->event.dst) +
                    " id " + std::to_string(w->id);
    if (!sync_.wait(e.instr, w->event, w->id)) return;
    r.wait_cause = now_cycles() > arrived ? WaitCause::Flag : WaitCause::None;
    r.flag_id = w->id;
  } else if (std::holds_alternative<isa::PipeBarrier>(op)) {
    current_wait_ = "barrier";
    if (last_completion_ > arrived) {
      sc_core::wait(cycles(last_completion_ - arrived));
      r.wait_cause = WaitCause::Barrier;
    }
  } else if (const auto* s = std::get_if<isa::SetFlag>(&op)) {
    try {
      isa::check_fields(op);
    } catch (const Fault& f) {
      ctx_.raise(f.kind(), f.what(), e.instr, arrived);
      return;
    }
    // Fires once every earlier instruction of this pipe has completed (latency included).
    const uint64_t fire = std::max(arrived + sync_cost, last_completion_);
    sync_.set(e.instr, s->event, s->id, fire);
    r.start_cycle = arrived;
    r.busy_end = arrived + sync_cost;
    r.end_cycle = fire;
    const uint64_t keep = last_completion_;
    record(r);
    last_completion_ = keep;  // a SetFlag's firing does not hold later instructions back
    if (sync_cost) sc_core::wait(cycles(sync_cost));
    return;
  } else {
    execute_data(e, arrived);
    return;
  }
  const uint64_t start = now_cycles();
  r.start_cycle = start;
  r.wait_cycles = start - arrived;
  r.busy_end = r.end_cycle = start + sync_cost;
  record(r);
  if (sync_cost) sc_core::wait(cycles(sync_cost));
}

void Engine::execute_data(const QueueEntry& e, uint64_t start) {
  const isa::Op& op = e.instr.op;
  try {
    if (ctx_.functional)
      sem::execute(op, ctx_.view);  // validates, then computes the bytes
    else
      isa::check(op, ctx_.view.limits());  // same faults, no data
  } catch (const Fault& f) {
    ctx_.raise(f.kind(), f.what(), e.instr, start);
    return;
  }
  const Cost c = cost_of(op, ctx_.cfg);
  InstrRecord r;
  r.instr = &e.instr;
  r.issue_cycle = e.issue_cycle;
  r.queue_wait_cycles = e.queue_wait_cycles;
  r.start_cycle = start;
  r.bytes = c.bytes;
  r.macs = c.macs;
  r.dense_macs = c.dense_macs;
  const uint64_t own_end = start + c.occupancy;
  const uint64_t port_end = transport(op, c.occupancy, c.bytes);
  r.busy_end = port_end > own_end ? port_end : own_end;
  if (port_end > own_end) {  // a shared port (GM) was busy with another pipe's traffic
    r.wait_cause = WaitCause::Port;
    r.wait_cycles = port_end - own_end;
  }
  r.end_cycle = r.busy_end + c.latency;
  record(r);
  if (r.busy_end > start) sc_core::wait(cycles(r.busy_end - start));
}

uint64_t Engine::transport(const isa::Op& op, uint64_t path_cycles, uint64_t moved) {
  uint64_t end = now_cycles() + path_cycles;
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
  for (const isa::Extent& x : isa::footprint(op)) {
    size_t i = 0;
    while (i < n && !(acc[i].space == x.space && acc[i].write == x.write && acc[i].tensor == x.tensor)) ++i;
    if (i == n) acc[n++] = Access{x.space, x.tensor, x.begin, 0, x.write};
    acc[i].bytes += x.size();
  }
  auto* ext = trans_.get_extension<PathExtension>();
  ext->path_cycles = path_cycles;
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
    const uint64_t done = now_cycles() + to_cycles(delay);
    if (done > end) end = done;
  }
  return end;
}

}  // namespace aicore::model
