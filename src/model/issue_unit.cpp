#include "aicore/model/issue_unit.hpp"

#include <algorithm>
#include <cmath>

#include "aicore/model/clock.hpp"
#include "aicore/trace/data_file.hpp"

namespace aicore::model {

IssueUnit::IssueUnit(sc_core::sc_module_name name, SimContext& ctx, SyncUnit& sync, trace::Reader& reader,
                     Memory& gm, std::array<Engine*, isa::kPipeCount> engines)
    : sc_core::sc_module(name), ctx_(ctx), sync_(sync), reader_(reader), gm_(gm), engines_(engines) {
  SC_HAS_PROCESS(IssueUnit);
  SC_THREAD(run);
}

std::string IssueUnit::blocked_on() const {
  if (finished_ || !current_) return "";
  return ctx_.where(*current_) + " waiting for " + current_wait_;
}

void IssueUnit::run() {
  trace::Statement st;
  try {
    while (!ctx_.fault && reader_.next(st)) {
      switch (st.kind) {
        case trace::Statement::Kind::Gm: declare_gm(st.gm); break;
        case trace::Statement::Kind::Out: outs_.push_back(st.out); break;
        case trace::Statement::Kind::Expect: expects_.push_back(st.expect); break;
        case trace::Statement::Kind::Instr: issue(st.instr); break;
      }
    }
  } catch (const InputError& e) {
    input_error_ = e;
    sc_core::sc_stop();
    return;
  }
  for (Engine* e : engines_)
    if (e) e->close();
  finished_ = true;
}

void IssueUnit::declare_gm(const trace::GmDecl& d) {
  // Refuse before allocating anything (in --timing-only nothing is ever allocated).
  gm_total_ += d.size;
  if (d.size > ctx_.cfg.buffers.gm_max_bytes || gm_total_ > ctx_.cfg.buffers.gm_max_bytes)
    throw InputError(d.loc, ".gm " + d.name + ": " + std::to_string(gm_total_) +
                                " bytes of GM tensors exceed buffers.gm_max_bytes = " +
                                std::to_string(ctx_.cfg.buffers.gm_max_bytes) + " (raise it with --set)");
  uint8_t* data = gm_.add_tensor(d.size);
  if (ctx_.functional && !d.file.empty()) {
    const std::vector<uint8_t> bytes = trace::load_tensor_file(d);
    std::copy(bytes.begin(), bytes.end(), data);
  }
  ctx_.view.attach_gm(d.id, data, d.size);
}

void IssueUnit::issue(const isa::Instruction& instr) {
  // Temporal decoupling: the scalar unit runs ahead of simulated time and stamps each
  // instruction with its issue cycle; the engine does not start it before that cycle. It only
  // synchronises (waits) when it must observe the present: a full queue or scalar-pipe work.
  uint64_t slot = static_cast<uint64_t>(std::ceil(next_issue_ - 1e-9));
  const auto sync_to_slot = [&] {
    const uint64_t now = now_cycles();
    if (slot > now) sc_core::wait(cycles(slot - now));
  };
  current_ = &instr;
  const isa::Pipe pipe = isa::pipe_of(instr.op);
  if (pipe == isa::Pipe::S) {
    sync_to_slot();
    run_scalar(instr);
    slot = now_cycles();
  } else {
    Engine* e = engines_[static_cast<size_t>(pipe)];
    uint64_t issued_at = slot;
    if (e->full()) {
      sync_to_slot();
      current_wait_ = std::string("space in the ") + isa::to_string(pipe) + " queue";
      e->wait_for_space();
      issued_at = std::max(slot, now_cycles());
    }
    stall_cycles_ += issued_at - slot;
    e->push(QueueEntry{instr, issued_at, issued_at - slot});
    slot = issued_at;
  }
  current_ = nullptr;
  ++issued_;
  next_issue_ = static_cast<double>(slot) + 1.0 / ctx_.cfg.issue.instructions_per_cycle;
}

void IssueUnit::drain_all() {
  current_wait_ = "every pipe to drain (PIPE_ALL)";
  uint64_t until = 0;
  for (Engine* e : engines_) {
    if (!e) continue;
    e->wait_idle();
    if (e->last_completion() > until) until = e->last_completion();
  }
  if (until > now_cycles()) sc_core::wait(cycles(until - now_cycles()));
}

void IssueUnit::run_scalar(const isa::Instruction& instr) {
  const uint64_t arrived = now_cycles();
  InstrRecord r;
  r.instr = &instr;
  r.pipe = isa::Pipe::S;
  r.issue_cycle = arrived;
  const uint64_t sync_cost = ctx_.cfg.issue.sync_cycles;
  try {
    isa::check_fields(instr.op);
  } catch (const Fault& f) {
    ctx_.raise(f.kind(), f.what(), instr, arrived);
    return;
  }
  if (const auto* s = std::get_if<isa::SetFlag>(&instr.op)) {
    sync_.set(instr, s->event, s->id, arrived + sync_cost);
  } else if (const auto* w = std::get_if<isa::WaitFlag>(&instr.op)) {
    current_wait_ = std::string("flag ") + isa::to_string(w->event.src) + "_S id " + std::to_string(w->id);
    if (!sync_.wait(instr, w->event, w->id)) return;
    r.wait_cause = now_cycles() > arrived ? WaitCause::Flag : WaitCause::None;
  } else {  // PipeBarrier<PIPE_ALL>
    drain_all();
    r.wait_cause = now_cycles() > arrived ? WaitCause::Barrier : WaitCause::None;
  }
  r.start_cycle = now_cycles();
  r.wait_cycles = r.start_cycle - arrived;
  r.busy_end = r.end_cycle = r.start_cycle + sync_cost;
  busy_cycles_ += sync_cost;
  stall_cycles_ += r.wait_cycles;
  if (r.end_cycle > last_completion_) last_completion_ = r.end_cycle;
  for (Observer* o : ctx_.observers) o->on_instruction(r);
  if (sync_cost) sc_core::wait(cycles(sync_cost));
}

}  // namespace aicore::model
