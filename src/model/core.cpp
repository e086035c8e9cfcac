#include "aicore/model/core.hpp"

#include <algorithm>
#include <cmath>

namespace aicore::model {

using isa::Pipe;
using isa::Space;

Core::Core(sc_core::sc_module_name name, ChipContext& chip, isa::CoreId id, const config::CoreConfig& cfg,
           bool timing_only, InstructionSource& source, TensorRegistry& gm_registry, GmPort& gm)
    : sc_core::sc_module(name), ctx_(chip, id, cfg, !timing_only), sync_(ctx_), unit_(cfg.buffers.l0c_bytes) {
  const config::Buffers& b = cfg.buffers;
  const bool alloc = !timing_only;
  l1_ = std::make_unique<Buffer>(BufferParams{Space::L1, b.l1_bytes, b.l1_banks, alloc});
  l0a_ = std::make_unique<Buffer>(BufferParams{Space::L0A, b.l0a_bytes, 1, alloc});
  l0b_ = std::make_unique<Buffer>(BufferParams{Space::L0B, b.l0b_bytes, 1, alloc});
  l0c_ = std::make_unique<Buffer>(BufferParams{Space::L0C, b.l0c_bytes, b.l0c_banks, alloc});
  idx_ = std::make_unique<Buffer>(BufferParams{Space::SparseIndex, b.sparse_index_bytes, 1, alloc});
  bt_ = std::make_unique<Buffer>(BufferParams{Space::BiasTable, b.bias_table_bytes, 1, alloc});
  for (Buffer* m : {l1_.get(), l0a_.get(), l0b_.get(), l0c_.get(), idx_.get(), bt_.get()})
    ctx_.view.attach(m->space(), m->data(), m->size());

  const config::Issue& q = cfg.issue;
  mte2_ = std::make_unique<Engine>("mte2", Pipe::MTE2, q.queue_depth_mte2, ctx_, sync_);
  mte1_ = std::make_unique<Engine>("mte1", Pipe::MTE1, q.queue_depth_mte1, ctx_, sync_);
  cube_ = std::make_unique<Engine>("cube", Pipe::M, q.queue_depth_m, ctx_, sync_);
  fix_ = std::make_unique<Engine>("fixpipe", Pipe::FIX, q.queue_depth_fix, ctx_, sync_);
  // MTE3 belongs to the Vector side; a Cube trace may still name it in flags, so it gets an
  // engine that only ever runs sync instructions.
  mte3_ = std::make_unique<Engine>("mte3", Pipe::MTE3, q.queue_depth_mte3, ctx_, sync_);
  mte2_->connect(gm);
  mte2_->connect(*l1_, false, true);
  mte1_->connect(*l1_, true, false);
  mte1_->watch_l1_writer(*mte2_);
  mte1_->connect(*l0a_, false, true);
  mte1_->connect(*l0b_, false, true);
  mte1_->connect(*idx_, false, true);
  mte1_->connect(*bt_, false, true);
  cube_->connect(*l0a_, true, false);
  cube_->connect(*l0b_, true, false);
  cube_->connect(*idx_, true, false);
  cube_->connect(*bt_, true, false);
  cube_->connect(*l0c_, true, true);  // reads L0C when it accumulates
  fix_->connect(*l0c_, true, false);
  fix_->connect(gm);
  cube_->connect(unit_);  // the unitFlag hand-off of L0C between them
  fix_->connect(unit_);

  std::array<Engine*, isa::kPipeCount> by_pipe{};
  for (Engine* e : engines()) by_pipe[static_cast<size_t>(e->pipe())] = e;
  issue_ = std::make_unique<IssueUnit>("scalar", ctx_, sync_, source, gm_registry, by_pipe, unit_);
  std::array<const TimeSource*, isa::kPipeCount> peers{};
  for (Engine* e : engines()) peers[static_cast<size_t>(e->pipe())] = e;
  peers[static_cast<size_t>(Pipe::S)] = issue_.get();
  for (Engine* e : engines()) {
    e->set_issuer(issue_.get());
    e->set_peers(peers);
  }
}

std::vector<const TimeSource*> Core::time_sources() const {
  std::vector<const TimeSource*> out{issue_.get()};
  for (Engine* e : engines()) out.push_back(e);
  return out;
}

bool Core::finished() const {
  bool done = issue_->finished();
  for (Engine* e : engines()) done = done && e->finished();
  return done;
}

namespace {
std::string at(uint32_t line, FileId file) {
  return source_file_name(file) + ":" + std::to_string(line);
}
std::string barrier_name(const isa::Instruction& b) {
  const auto& p = std::get<isa::PipeBarrier>(b.op);
  return std::string("PipeBarrier<PIPE_") + (p.all ? "ALL" : isa::to_string(p.pipe)) + ">";
}
}  // namespace

std::string Core::held_clause(const isa::Instruction& barrier, size_t pipe) {
  const auto h = sync_.held_set(pipe);
  if (!h) return "";
  // The WaitFlag that would clear the flag: one a pipe has queued, else the next one in the source.
  std::string wait = "a WaitFlag of it, and none follows";
  const isa::Instruction* queued = nullptr;
  for (Engine* e : engines())
    if (!queued && e->pipe() == h->event.dst) queued = e->queued_wait(h->event, h->id);
  if (queued) {
    wait = "the WaitFlag at " + at(queued->line, queued->file);
  } else if (const auto next = issue_->next_wait(h->event, h->id)) {
    wait = "the WaitFlag at " + at(next->line, next->file);
  }
  return "; SetFlag<" + std::string(isa::to_string(h->event.src)) + "_" + isa::to_string(h->event.dst) +
         ">(" + std::to_string(h->id) + ") at " + at(h->held_line, h->held_file) +
         " is held: the flag set at " + at(h->first_line, h->first_file) + " is cleared only by " + wait +
         ", after the " + barrier_name(barrier) + " at " + at(barrier.line, barrier.file);
}

std::string Core::blocked_on() {
  std::string msg;
  if (!issue_->blocked_on().empty()) {
    msg += "\n  S: " + issue_->blocked_on();
    if (const isa::Instruction* b = issue_->at_barrier()) msg += held_clause(*b, SyncUnit::kAllPipes);
  }
  for (Engine* e : engines()) {
    const std::string b = e->blocked_on();
    if (b.empty()) continue;
    msg += std::string("\n  ") + isa::to_string(e->pipe()) + ": " + b;
    if (const isa::Instruction* bar = e->at_barrier())
      msg += held_clause(*bar, static_cast<size_t>(e->pipe()));
  }
  return msg;
}

uint64_t Core::late_requests() const {
  return mte2_->late_requests() + cube_->late_requests() + fix_->late_requests();
}

CoreSummary Core::summary(const GmPort& gm) {
  CoreSummary out;
  out.core = ctx_.id;
  out.flags_left_set = sync_.flags_set();
  out.held_sets = sync_.held_sets();
  out.held_set_cycles = sync_.held_cycles();
  out.cycles = issue_->last_completion();
  out.instructions = issue_->instructions();
  PipeSummary& sp = out.pipes[static_cast<size_t>(Pipe::S)];
  sp.instructions = out.instructions;
  sp.busy_cycles =
      static_cast<uint64_t>(std::ceil(out.instructions / ctx_.cfg.issue.instructions_per_cycle)) +
      issue_->busy_cycles();
  sp.stall_cycles = issue_->stall_cycles();
  sp.active_cycles = sp.busy_cycles;
  sp.aic_time_cycles = sp.busy_cycles;
  for (Engine* e : engines()) {
    PipeSummary& p = out.pipes[static_cast<size_t>(e->pipe())];
    p.busy_cycles = e->busy_cycles();
    p.active_cycles = e->active_cycles();
    p.aic_time_cycles = e->aic_time_cycles();
    p.stall_cycles = e->stall_cycles();
    p.instructions = e->instructions();
    out.cycles = std::max(out.cycles, e->last_completion());
  }
  for (Buffer* m : {l1_.get(), l0a_.get(), l0b_.get(), l0c_.get(), idx_.get(), bt_.get()})
    out.memories[static_cast<size_t>(m->space())] = MemorySummary{m->bytes_read(), m->bytes_written()};
  out.memories[static_cast<size_t>(Space::GM)] =
      MemorySummary{gm.bytes_read(ctx_.id), gm.bytes_written(ctx_.id)};
  out.l2 = gm.l2().counts(ctx_.id.value);
  return out;
}

}  // namespace aicore::model
