#include "aicore/model/issue_unit.hpp"

#include <unistd.h>
#include <algorithm>
#include <cmath>
#include <new>

#include "aicore/model/clock.hpp"
#include "aicore/trace/data_file.hpp"

namespace aicore::model {

namespace {
// Physical memory of the host in bytes (0 if unknown).
uint64_t host_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(page) : 0;
}
}  // namespace

IssueUnit::IssueUnit(sc_core::sc_module_name name, SimContext& ctx, SyncUnit& sync,
                     trace::PrefetchReader& reader, Memory& gm, std::array<Engine*, isa::kPipeCount> engines)
    : sc_core::sc_module(name), ctx_(ctx), sync_(sync), reader_(reader), gm_(gm), engines_(engines) {
  SC_HAS_PROCESS(IssueUnit);
  SC_THREAD(run);
}

uint64_t IssueUnit::horizon() const {
  return finished_ ? UINT64_MAX : next_slot_;
}

std::string IssueUnit::blocked_on() const {
  if (finished_ || !current_) return "";
  // Built only when a deadlock is reported, from what the blocked instruction is.
  std::string what;
  if (const auto* w = std::get_if<isa::WaitFlag>(&current_->op))
    what = std::string("flag ") + isa::to_string(w->event.src) + "_S id " + std::to_string(w->id);
  else if (std::holds_alternative<isa::PipeBarrier>(current_->op))
    what = "every pipe to drain (PIPE_ALL)";
  else
    what = std::string("space in the ") + isa::to_string(isa::pipe_of(current_->op)) + " queue";
  return ctx_.where(*current_) + " waiting for " + what;
}

void IssueUnit::run() {
  trace::Statement st;
  try {
    while (!ctx_.fault && reader_.next(st)) {
      switch (st.kind) {
        case trace::Statement::Kind::Gm:
          declare_gm(st.gm);
          break;
        case trace::Statement::Kind::Out:
          outs_.push_back(st.out);
          break;
        case trace::Statement::Kind::Expect:
          expects_.push_back(st.expect);
          break;
        case trace::Statement::Kind::Instr:
          issue(st.instr);
          break;
      }
    }
  } catch (const InputError& e) {
    // Stop issuing, but let what was issued before the bad line run: stats.json and instr.csv
    // then describe the trace up to the error (a fault among those instructions still stops).
    input_error_ = e;
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
  // A full run allocates every tensor: refuse what this machine cannot hold, before trying.
  const uint64_t host = host_memory_bytes();
  if (ctx_.functional && host && gm_total_ > host)
    throw InputError(d.loc, ".gm " + d.name + ": " + std::to_string(gm_total_) +
                                " bytes of GM tensors exceed this machine's memory (" + std::to_string(host) +
                                " bytes); --timing-only runs allocate no GM");
  uint8_t* data = nullptr;
  try {
    data = gm_.add_tensor(d.size);
  } catch (const std::bad_alloc&) {
    throw InputError(d.loc, ".gm " + d.name + ": cannot allocate " + std::to_string(d.size) +
                                " bytes of host memory; --timing-only runs allocate no GM");
  }
  if (ctx_.functional && !d.file.empty()) {
    const std::vector<uint8_t> bytes = trace::load_tensor_file(d);
    std::copy(bytes.begin(), bytes.end(), data);
  }
  ctx_.view.attach_gm(d.id, data, d.size);
  tensors_.push_back(d);
}

void IssueUnit::issue(const isa::Instruction& instr) {
  if (ctx_.issue_hook) ctx_.issue_hook->on_issue(instr);
  // The scalar unit keeps its own time (the next issue slot) and never waits for SystemC time
  // (see engine.hpp): it only blocks while an engine has not yet started the entry whose start
  // makes room in its queue.
  uint64_t slot = static_cast<uint64_t>(std::ceil(next_issue_ - 1e-9));
  current_ = &instr;
  const isa::Pipe pipe = isa::pipe_of(instr.op);
  if (pipe == isa::Pipe::S) {
    slot = run_scalar(instr, slot);
  } else {
    Engine* e = engines_[static_cast<size_t>(pipe)];
    uint64_t issued_at = slot;
    const uint64_t seq = e->pushed();
    if (seq >= e->depth()) {  // room once the entry `depth` places ahead has started
      issued_at = std::max(slot, e->start_of(seq - e->depth()));
    }
    stall_cycles_ += issued_at - slot;
    e->push(QueueEntry{instr, issued_at, issued_at - slot});
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
  if (const auto* s = std::get_if<isa::SetFlag>(&instr.op)) {
    if (!sync_.set(instr, s->event, s->id, arrived, arrived + sync_cost)) return arrived;
  } else if (const auto* w = std::get_if<isa::WaitFlag>(&instr.op)) {
    const auto released = sync_.wait(instr, w->event, w->id, arrived);
    if (!released) return arrived;
    start = *released;
    if (start > arrived) r.wait_cause = WaitCause::Flag;
  } else {  // PipeBarrier<PIPE_ALL>: nothing later issues before every pipe has drained
    for (Engine* e : engines_)
      if (e) start = std::max(start, e->drain());
    if (start > arrived) r.wait_cause = WaitCause::Barrier;
  }
  r.start_cycle = start;
  r.wait_cycles = start - arrived;
  r.busy_end = r.end_cycle = start + sync_cost;
  busy_cycles_ += sync_cost;
  stall_cycles_ += r.wait_cycles;
  if (r.end_cycle > last_completion_) last_completion_ = r.end_cycle;
  ctx_.dispatch.instruction(r);
  return r.busy_end;
}

}  // namespace aicore::model
