#include "aicore/model/simulation.hpp"

#include <algorithm>
#include <cmath>
#include <systemc>

#include "aicore/model/clock.hpp"
#include "aicore/model/context.hpp"
#include "aicore/model/engine.hpp"
#include "aicore/model/issue_unit.hpp"
#include "aicore/model/memory.hpp"
#include "aicore/model/sync_unit.hpp"
#include "aicore/trace/prefetch_reader.hpp"

#if defined(__SANITIZE_ADDRESS__)
#define AICORE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define AICORE_ASAN 1
#endif
#endif
#ifdef AICORE_ASAN
#include <pthread.h>
#include <sanitizer/common_interface_defs.h>
#endif

namespace aicore::model {

using isa::Pipe;
using isa::Space;

namespace {
// Sanitizer builds only: libsystemc announces its coroutine stack switches to ASan, but after
// sc_start() returns ASan still takes the last coroutine's stack for the thread's, so the next
// exception thrown on the real stack makes it report false stack errors. Re-announce the stack.
void restore_asan_stack_bounds() {
#ifdef AICORE_ASAN
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return;
  void* base = nullptr;
  size_t size = 0;
  const bool ok = pthread_attr_getstack(&attr, &base, &size) == 0;
  pthread_attr_destroy(&attr);
  if (!ok) return;
  void* fake_stack = nullptr;
  __sanitizer_start_switch_fiber(&fake_stack, base, size);
  __sanitizer_finish_switch_fiber(fake_stack, nullptr, nullptr);
#endif
}
}  // namespace

struct Simulation::Impl {
  Impl(const config::Config& cfg, const std::string& path, bool timing_only)
      : ctx(cfg, !timing_only, path), reader(std::make_unique<trace::Reader>(path)), sync(ctx) {
    const config::Buffers& b = cfg.buffers;
    const bool alloc = !timing_only;
    gm = std::make_unique<Memory>("gm", MemoryParams{Space::GM, 0, cfg.gm.shared_bytes_per_cycle, alloc});
    l1 = std::make_unique<Memory>("l1", MemoryParams{Space::L1, b.l1_bytes, 0, alloc});
    l0a = std::make_unique<Memory>("l0a", MemoryParams{Space::L0A, b.l0a_bytes, 0, alloc});
    l0b = std::make_unique<Memory>("l0b", MemoryParams{Space::L0B, b.l0b_bytes, 0, alloc});
    l0c = std::make_unique<Memory>("l0c", MemoryParams{Space::L0C, b.l0c_bytes, 0, alloc});
    idx = std::make_unique<Memory>("index_buffer",
                                   MemoryParams{Space::SparseIndex, b.sparse_index_bytes, 0, alloc});
    for (Memory* m : {l1.get(), l0a.get(), l0b.get(), l0c.get(), idx.get()})
      ctx.view.attach(m->space(), m->data(), m->size());

    const config::Issue& q = cfg.issue;
    mte2 = std::make_unique<Engine>("mte2", Pipe::MTE2, q.queue_depth_mte2, ctx, sync);
    mte1 = std::make_unique<Engine>("mte1", Pipe::MTE1, q.queue_depth_mte1, ctx, sync);
    cube = std::make_unique<Engine>("cube", Pipe::M, q.queue_depth_m, ctx, sync);
    fix = std::make_unique<Engine>("fixpipe", Pipe::FIX, q.queue_depth_fix, ctx, sync);
    // MTE3 belongs to the Vector side; a Cube trace may still name it in flags, so it gets an
    // engine that only ever runs sync instructions.
    mte3 = std::make_unique<Engine>("mte3", Pipe::MTE3, q.queue_depth_fix, ctx, sync);
    mte2->connect(*gm);
    mte2->connect(*l1);
    mte1->connect(*l1);
    mte1->connect(*l0a);
    mte1->connect(*l0b);
    mte1->connect(*idx);
    cube->connect(*l0a);
    cube->connect(*l0b);
    cube->connect(*idx);
    cube->connect(*l0c);
    fix->connect(*l0c);
    fix->connect(*gm);
    mte3->connect(*l1);  // a multi-socket must be bound; MTE3 never sends on it

    std::array<Engine*, isa::kPipeCount> engines{};
    for (Engine* e : {mte2.get(), mte1.get(), cube.get(), fix.get(), mte3.get()})
      engines[static_cast<size_t>(e->pipe())] = e;
    issue = std::make_unique<IssueUnit>("scalar", ctx, sync, reader, *gm, engines);
    ctx.dispatch.add_source(issue.get());
    for (Engine* e : {mte2.get(), mte1.get(), cube.get(), fix.get(), mte3.get()}) {
      e->set_issuer(issue.get());
      ctx.dispatch.add_source(e);
    }
  }

  std::vector<Engine*> engines() const { return {mte2.get(), mte1.get(), cube.get(), fix.get(), mte3.get()}; }

  SimContext ctx;
  trace::PrefetchReader reader;
  SyncUnit sync;
  std::unique_ptr<Memory> gm, l1, l0a, l0b, l0c, idx;
  std::unique_ptr<Engine> mte2, mte1, cube, fix, mte3;
  std::unique_ptr<IssueUnit> issue;
  bool ran = false;
};

Simulation::Simulation(const config::Config& cfg, const std::string& trace_path, bool timing_only)
    : impl_(std::make_unique<Impl>(cfg, trace_path, timing_only)) {}

Simulation::~Simulation() = default;

void Simulation::add_observer(Observer* o) {
  impl_->ctx.dispatch.add_observer(o);
}

void Simulation::set_issue_hook(IssueHook* h) {
  impl_->ctx.issue_hook = h;
}

RunSummary Simulation::run() {
  Impl& s = *impl_;
  RunSummary out;
  if (s.ran) throw std::logic_error("Simulation::run called twice");
  s.ran = true;
  sc_core::sc_start();
  restore_asan_stack_bounds();
  s.ctx.dispatch.flush_all();  // events still held for time order
  // Pipes run ahead of SystemC time: the furthest any of them got is where the run ended.
  uint64_t end = std::max(now_cycles(), s.issue->last_completion());
  for (Engine* e : s.engines()) end = std::max(end, e->local_time());

  if (s.issue->input_error()) out.input_error = s.issue->input_error();
  if (!s.ctx.fault && !out.input_error) {
    bool all_done = s.issue->finished();
    for (Engine* e : s.engines()) all_done = all_done && e->finished();
    if (!all_done) {
      std::string msg =
          s.ctx.trace_name + ": deadlock at cycle " + std::to_string(end) + ": no pipe can make progress:";
      if (!s.issue->blocked_on().empty()) msg += "\n  S: " + s.issue->blocked_on();
      for (Engine* e : s.engines()) {
        const std::string b = e->blocked_on();
        if (!b.empty()) msg += std::string("\n  ") + isa::to_string(e->pipe()) + ": " + b;
      }
      s.ctx.raise(FaultKind::Deadlock, msg, end);
    } else {
      out.flags_left_set = s.sync.finish();
    }
  }
  out.fault = s.ctx.fault;
  out.completed = !out.fault && !out.input_error;

  out.cycles = s.issue->last_completion();
  out.instructions = s.issue->instructions();
  PipeSummary& sp = out.pipes[static_cast<size_t>(Pipe::S)];
  sp.instructions = out.instructions;
  sp.busy_cycles =
      static_cast<uint64_t>(std::ceil(out.instructions / s.ctx.cfg.issue.instructions_per_cycle)) +
      s.issue->busy_cycles();
  sp.stall_cycles = s.issue->stall_cycles();
  for (Engine* e : s.engines()) {
    PipeSummary& p = out.pipes[static_cast<size_t>(e->pipe())];
    p.busy_cycles = e->busy_cycles();
    p.stall_cycles = e->stall_cycles();
    p.instructions = e->instructions();
    if (e->last_completion() > out.cycles) out.cycles = e->last_completion();
  }
  for (Memory* m : {s.gm.get(), s.l1.get(), s.l0a.get(), s.l0b.get(), s.l0c.get(), s.idx.get()})
    out.memories[static_cast<size_t>(m->space())] = MemorySummary{m->bytes_read(), m->bytes_written()};
  if (out.fault && out.fault->cycle() > out.cycles) out.cycles = out.fault->cycle();
  return out;
}

const std::vector<trace::GmDecl>& Simulation::tensors() const {
  return impl_->issue->tensors();
}
const uint8_t* Simulation::tensor_data(uint32_t id) const {
  return impl_->gm->tensor_data(id);
}
const std::vector<trace::OutDecl>& Simulation::outs() const {
  return impl_->issue->outs();
}
const std::vector<trace::ExpectDecl>& Simulation::expects() const {
  return impl_->issue->expects();
}

}  // namespace aicore::model
