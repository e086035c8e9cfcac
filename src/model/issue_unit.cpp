#include "aicore/model/issue_unit.hpp"

#include <algorithm>
#include <cmath>

#include "aicore/model/clock.hpp"
#include "aicore/model/core_barrier.hpp"

namespace aicore::model {

namespace {
// What an instruction's Ascend C call costs the scalar unit before the instruction is issued.
struct ScalarCost {
  const config::Scalar& s;
  uint32_t operator()(const isa::DataCopy&) const { return s.data_copy; }
  uint32_t operator()(const isa::DataCopyNd2Nz&) const { return s.data_copy_nd2nz; }
  uint32_t operator()(const isa::LoadData&) const { return s.load_data; }
  uint32_t operator()(const isa::LoadDataWithSparse&) const { return s.load_data_with_sparse; }
  uint32_t operator()(const isa::LoadData3DV2&) const { return s.load_data_3dv2; }
  uint32_t operator()(const isa::LoadDataWithTranspose&) const { return s.load_data_with_transpose; }
  uint32_t operator()(const isa::DataCopyL1ToBT&) const { return s.data_copy_l1_to_bt; }
  uint32_t operator()(const isa::Mmad&) const { return s.mmad; }
  uint32_t operator()(const isa::MmadWithSparse&) const { return s.mmad_with_sparse; }
  uint32_t operator()(const isa::Fixpipe&) const { return s.fixpipe; }
  uint32_t operator()(const isa::SetFlag&) const { return s.set_flag; }
  uint32_t operator()(const isa::WaitFlag&) const { return s.wait_flag; }
  uint32_t operator()(const isa::PipeBarrier&) const { return s.pipe_barrier; }
  uint32_t operator()(const isa::SyncAll&) const { return s.sync_all; }
  uint32_t operator()(const isa::SetAtomicAdd&) const { return s.set_atomic; }
  uint32_t operator()(const isa::SetAtomicNone&) const { return s.set_atomic; }
};
}  // namespace

IssueUnit::IssueUnit(sc_core::sc_module_name name, CoreContext& ctx, SyncUnit& sync,
                     InstructionSource& source, TensorRegistry& gm,
                     std::array<Engine*, isa::kPipeCount> engines, UnitFlags& unit)
    : sc_core::sc_module(name),
      ctx_(ctx),
      sync_(sync),
      source_(source),
      gm_(gm),
      engines_(engines),
      unit_(unit) {
  SC_HAS_PROCESS(IssueUnit);
  SC_THREAD(run);
}

uint64_t IssueUnit::horizon() const {
  if (finished_) return UINT64_MAX;
  // Blocked in WaitFlag<X_S> that no SetFlag answered yet: nothing is issued before pipe X gets
  // as far as its SetFlag (engine.cpp's horizon, the same rule).
  if (waiting_ && !in_horizon_ && !sync_.has_set(waiting_->event, waiting_->id))
    if (const Engine* setter = engines_[static_cast<size_t>(waiting_->event.src)]) {
      in_horizon_ = true;
      const uint64_t h = std::max(next_slot_, setter->horizon());
      in_horizon_ = false;
      return h;
    }
  return next_slot_;
}

std::string IssueUnit::blocked_on() const {
  if (finished_ || !current_) return "";
  // Built only when a deadlock is reported, from what the blocked instruction is.
  std::string what;
  if (const auto* w = std::get_if<isa::WaitFlag>(&current_->op))
    what = std::string("flag ") + isa::to_string(w->event.src) + "_S id " + std::to_string(w->id);
  else if (std::holds_alternative<isa::PipeBarrier>(current_->op))
    what = "every pipe to drain (PIPE_ALL)";
  else if (std::holds_alternative<isa::SyncAll>(current_->op))
    what = ctx_.chip.sync_all && !ctx_.chip.sync_all->waiting(ctx_.id.value).empty()
               ? ctx_.chip.sync_all->waiting(ctx_.id.value)
               : "every pipe to drain (SyncAll)";
  else
    what = std::string("space in the ") + isa::to_string(isa::pipe_of(current_->op)) + " queue";
  return ctx_.where(*current_) + " waiting for " + what;
}

bool IssueUnit::prime() {
  isa::Instruction first;
  const bool got = pull(first);
  primed_done_ = true;
  if (got) primed_ = first;
  return !ctx_.chip.input_error;
}

bool IssueUnit::pull(isa::Instruction& out) {
  if (ctx_.chip.input_error) return false;  // some core met bad input: nobody issues more
  try {
    return source_.next(out, gm_);
  } catch (const InputError& e) {
    // Stop issuing, but let what was issued before the bad line run: stats.json and instr.csv
    // then describe the kernel up to the error (a fault among those instructions still stops).
    if (!ctx_.chip.input_error) ctx_.chip.input_error = e;
    return false;
  }
}

void IssueUnit::run() {
  if (primed_) {
    const isa::Instruction first = *primed_;
    primed_.reset();
    issue(first);
  }
  isa::Instruction instr;
  while (!ctx_.chip.fault && pull(instr)) issue(instr);
  for (Engine* e : engines_)
    if (e) e->close();
  // A SyncAll of another core waiting for this one now waits in vain (core_barrier.hpp).
  if (ctx_.chip.sync_all) ctx_.chip.sync_all->ended(ctx_, next_slot_);
  finished_ = true;
}

std::optional<isa::Instruction> IssueUnit::next_wait(isa::EventPair e, uint8_t id) {
  // Only after the run has stopped (a deadlock report): the source is read on from where the
  // scalar unit stopped, and nothing is issued any more.
  isa::Instruction in;
  try {
    while (source_.next(in, gm_))
      if (const auto* w = std::get_if<isa::WaitFlag>(&in.op))
        if (w->event == e && w->id == id) return in;
  } catch (const InputError&) {
  }
  return std::nullopt;
}

void IssueUnit::issue(const isa::Instruction& instr) {
  // The scalar unit keeps its own time (the next issue slot) and never waits for SystemC time
  // (see engine.hpp): it only blocks while an engine has not yet started the entry whose start
  // makes room in its queue.
  // The call's scalar set-up comes first: the instruction is issued once it is done.
  const uint32_t setup = std::visit(ScalarCost{ctx_.cfg.scalar}, instr.op);
  uint64_t slot = static_cast<uint64_t>(std::ceil(next_issue_ - 1e-9)) + setup;
  busy_cycles_ += setup;
  current_ = &instr;
  const isa::Pipe pipe = isa::pipe_of(instr.op);
  if (pipe == isa::Pipe::S) {
    ctx_.chip.dispatch.issue(IssueRecord{&instr, ctx_.id, slot});
    slot = run_scalar(instr, slot);
  } else {
    Engine* e = engines_[static_cast<size_t>(pipe)];
    uint64_t issued_at = slot;
    const uint64_t seq = e->pushed();
    if (seq >= e->depth()) {  // room once the entry `depth` places ahead has started
      issued_at = std::max(slot, e->start_of(seq - e->depth()));
    }
    stall_cycles_ += issued_at - slot;
    if (pipe == isa::Pipe::M || pipe == isa::Pipe::FIX) unit_.at_issue(instr);
    ctx_.chip.dispatch.issue(IssueRecord{&instr, ctx_.id, issued_at});
    QueueEntry entry{instr, issued_at, issued_at - slot, std::nullopt};
    if (std::holds_alternative<isa::Fixpipe>(instr.op)) entry.atomic = atomic_;
    e->push(std::move(entry));
    slot = issued_at;
  }
  current_ = nullptr;
  ++issued_;
  next_issue_ = static_cast<double>(slot) + 1.0 / ctx_.cfg.issue.instructions_per_cycle;
  next_slot_ = static_cast<uint64_t>(std::ceil(next_issue_ - 1e-9));
}

uint64_t IssueUnit::run_scalar(const isa::Instruction& instr, uint64_t arrived) {
  InstrRecord r;
  r.instr = &instr;
  r.core = ctx_.id;
  r.pipe = isa::Pipe::S;
  r.issue_cycle = arrived;
  const uint64_t sync_cost = ctx_.cfg.issue.sync_cycles;
  try {
    isa::check_fields(instr.op);
  } catch (const Fault& f) {
    ctx_.raise(f.kind(), f.what(), instr, arrived);
    return arrived;
  }
  uint64_t start = arrived;
  uint64_t cost = sync_cost;
  if (const auto* a = std::get_if<isa::SetAtomicAdd>(&instr.op)) {
    atomic_ = a->dtype;  // the Fixpipes issued from now on (program order) add
  } else if (std::holds_alternative<isa::SetAtomicNone>(instr.op)) {
    atomic_.reset();
  } else if (std::holds_alternative<isa::SyncAll>(instr.op)) {
    const auto released = sync_all(instr, arrived);
    if (!released) return arrived;
    start = *released;
    cost = ctx_.cfg.issue.sync_all_cycles;
    if (start > arrived) r.wait_cause = WaitCause::Barrier;
  } else if (const auto* s = std::get_if<isa::SetFlag>(&instr.op)) {
    sync_.set(instr, s->event, s->id, arrived, arrived + sync_cost);
  } else if (const auto* w = std::get_if<isa::WaitFlag>(&instr.op)) {
    waiting_ = w;
    const auto released = sync_.wait(instr, w->event, w->id, arrived, &waiting_);
    if (!released) return arrived;
    start = *released;
    if (start > arrived) r.wait_cause = WaitCause::Flag;
  } else {  // PipeBarrier<PIPE_ALL>: nothing later issues before every pipe has drained
    for (Engine* e : engines_)
      if (e) start = std::max(start, e->drain());
    // ... and every held SetFlag has landed (sync_unit.hpp): one held until a WaitFlag after
    // this barrier clears its flag hangs here, as the SetFlag page says.
    start = std::max(start, sync_.drain_held(SyncUnit::kAllPipes));
    if (start > arrived) r.wait_cause = WaitCause::Barrier;
  }
  r.start_cycle = start;
  r.wait_cycles = start - arrived;
  r.busy_end = r.end_cycle = start + cost;
  busy_cycles_ += cost;
  stall_cycles_ += r.wait_cycles;
  if (r.end_cycle > last_completion_) last_completion_ = r.end_cycle;
  ctx_.chip.dispatch.instruction(r);
  return r.busy_end;
}

std::optional<uint64_t> IssueUnit::sync_all(const isa::Instruction& instr, uint64_t arrived) {
  // As PIPE_ALL: every pipe of this core drained and its held SetFlags landed, so everything
  // before the SyncAll is done (its GM writes visible) when the core arrives.
  uint64_t ready = arrived;
  for (Engine* e : engines_)
    if (e) ready = std::max(ready, e->drain());
  ready = std::max(ready, sync_.drain_held(SyncUnit::kAllPipes));
  if (!ctx_.chip.sync_all) return ready;  // a core alone: nobody to wait for
  return ctx_.chip.sync_all->arrive(ctx_, instr, ready);
}

}  // namespace aicore::model
