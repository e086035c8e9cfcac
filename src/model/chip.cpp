#include "aicore/model/chip.hpp"

#include <algorithm>
#include <systemc>

#include "aicore/model/clock.hpp"
#include "aicore/model/core_barrier.hpp"
#include "aicore/model/gm_port.hpp"

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

uint32_t checked_core_count(const config::Config& cfg, size_t sources) {
  if (sources == 0) throw InputError(SourceLoc{}, "a kernel needs at least one core's instructions");
  if (sources > cfg.chip.cores)
    throw InputError(SourceLoc{}, "the kernel uses " + std::to_string(sources) +
                                      " cores but chip.cores = " + std::to_string(cfg.chip.cores) +
                                      " (raise it with --set chip.cores=" + std::to_string(sources) + ")");
  return static_cast<uint32_t>(sources);
}
}  // namespace

struct Chip::Impl {
  Impl(const config::Config& c, const std::vector<InstructionSource*>& sources, bool timing_only)
      : cfg(c),
        ctx(checked_core_count(c, sources.size())),
        gm(cfg.buffers.gm_max_bytes, cfg.chip.hbm.bytes, !timing_only),
        port(cfg.chip, cfg.gm.shared_bytes_per_cycle, ctx.core_count, gm),
        barrier(ctx.core_count) {
    ctx.sync_all = &barrier;
    for (size_t i = 0; i < sources.size(); ++i) {
      const isa::CoreId id{static_cast<uint16_t>(i)};
      cores.push_back(std::make_unique<Core>(("core" + std::to_string(i)).c_str(), ctx, id, cfg.core(),
                                             timing_only, *sources[i], gm, port));
      gm.add_view(&cores.back()->view());
      for (const TimeSource* t : cores.back()->time_sources()) ctx.dispatch.add_source(t);
    }
  }

  const config::Config cfg;  // a copy: the cores keep references into it
  ChipContext ctx;
  GlobalMemory gm;
  GmPort port;
  CoreBarrier barrier;  // SyncAll
  std::vector<std::unique_ptr<Core>> cores;
  bool ran = false;
};

Chip::Chip(const config::Config& cfg, const std::vector<InstructionSource*>& sources, bool timing_only)
    : impl_(std::make_unique<Impl>(cfg, sources, timing_only)) {}

Chip::~Chip() = default;

void Chip::add_observer(Observer* o) {
  impl_->ctx.dispatch.add_observer(o);
}

size_t Chip::core_count() const {
  return impl_->cores.size();
}

ChipSummary Chip::run() {
  Impl& s = *impl_;
  if (s.ran) throw std::logic_error("Chip::run called twice");
  s.ran = true;
  ChipSummary out;
  // Every core's leading declarations first: no core may read a tensor before the core whose
  // trace gives its data has declared it.
  bool primed = true;
  for (auto& c : s.cores) primed = c->prime() && primed;
  s.gm.seal_contents();
  if (primed) {
    sc_core::sc_start();
    restore_asan_stack_bounds();
  }
  s.ctx.dispatch.flush_all();  // events still held for time order
  out.input_error = s.ctx.input_error;

  bool all_done = primed;
  for (auto& c : s.cores) all_done = all_done && c->finished();
  const bool clean = !s.ctx.fault && !out.input_error;
  for (auto& c : s.cores) {
    out.cores.push_back(c->summary(s.port));
    out.cycles = std::max(out.cycles, out.cores.back().cycles);
    out.instructions += out.cores.back().instructions;
    out.flags_left_set += out.cores.back().flags_left_set;
    out.held_sets += out.cores.back().held_sets;
    out.held_set_cycles += out.cores.back().held_set_cycles;
    out.late_requests += c->late_requests();
  }
  if (clean && !all_done) {
    // Pipes run ahead of SystemC time: the furthest any of them got is where the run ended.
    const uint64_t end = std::max(out.cycles, now_cycles());
    std::string msg = "deadlock at cycle " + std::to_string(end) + ": no pipe can make progress:";
    for (auto& c : s.cores) {
      const std::string b = c->blocked_on();
      if (b.empty()) continue;
      if (s.cores.size() > 1) msg += "\n core " + std::to_string(c->id().value) + ":";
      msg += b;
    }
    s.ctx.raise(FaultKind::Deadlock, msg, end);
  }
  const L2Cache& l2 = s.port.l2();
  out.l2.counts = l2.total();
  out.l2.evictions = l2.evictions();
  out.l2.valid_lines = l2.valid_lines();
  out.l2.dirty_lines = l2.dirty_lines();
  out.fault = s.ctx.fault;
  out.completed = !out.fault && !out.input_error;
  if (out.fault && out.fault->cycle() > out.cycles) out.cycles = out.fault->cycle();
  return out;
}

const std::vector<TensorInfo>& Chip::tensors() const {
  return impl_->gm.tensors();
}

const uint8_t* Chip::tensor_data(uint32_t id) const {
  return impl_->gm.data(id);
}

}  // namespace aicore::model
