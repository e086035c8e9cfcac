#include "aicore/model/gm_port.hpp"

#include "aicore/model/clock.hpp"

namespace aicore::model {

GmPort::GmPort(uint32_t cores, double core_bytes_per_cycle, double chip_bytes_per_cycle)
    : share_(chip_bytes_per_cycle, std::vector<double>(cores, core_bytes_per_cycle)),
      read_(cores, 0),
      written_(cores, 0) {}

uint64_t GmPort::transfer(isa::CoreId core, bool write, uint64_t bytes, double cap) {
  (write ? written_ : read_)[core.value] += bytes;
  if (bytes == 0) return now_cycles();
  share_.advance(now_cycles());
  // Transfers that end exactly now end before this one starts sharing (whatever the order in
  // which the threads of this cycle run).
  finish_served(nullptr);
  const FluidShare::FlowId id = share_.add(core.value, cap, bytes);
  if (waiters_.size() <= id) waiters_.resize(id + 1, nullptr);
  Waiter w;
  waiters_[id] = &w;
  reschedule();
  while (!w.finished) {
    sc_core::wait(w.wake);
    share_.advance(now_cycles());
    finish_served(&w);
    if (!w.finished) reschedule();  // woken early: cannot happen at the rates' precision
  }
  return now_cycles();
}

void GmPort::finish_served(const Waiter* self) {
  const std::vector<FluidShare::FlowId>& done = share_.take_finished();
  if (done.empty()) return;
  for (FluidShare::FlowId id : done) {
    Waiter* w = waiters_[id];
    waiters_[id] = nullptr;
    w->finished = true;
    w->wake.cancel();
    if (w != self) w->wake.notify(sc_core::SC_ZERO_TIME);
  }
  reschedule();  // the others now share more
}

void GmPort::reschedule() {
  // At the very start of the end cycle (phase 0), before any pipe's request of that cycle.
  const uint64_t now = sc_core::sc_time_stamp().value();
  for (FluidShare::FlowId id = 0; id < waiters_.size(); ++id) {
    Waiter* w = waiters_[id];
    if (!w || !share_.live(id)) continue;
    const uint64_t at = share_.finish_of(id) * time_units_per_cycle();
    w->wake.cancel();
    w->wake.notify(sc_core::sc_time::from_value(at > now ? at - now : 0));
  }
}

}  // namespace aicore::model
