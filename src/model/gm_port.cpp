#include "aicore/model/gm_port.hpp"

#include "aicore/model/clock.hpp"

namespace aicore::model {

GmPort::GmPort(sc_core::sc_module_name name, uint32_t cores, double core_bytes_per_cycle,
               double chip_bytes_per_cycle)
    : sc_core::sc_module(name),
      share_(chip_bytes_per_cycle, std::vector<double>(cores, core_bytes_per_cycle)),
      read_(cores, 0),
      written_(cores, 0) {
  SC_HAS_PROCESS(GmPort);
  SC_METHOD(tick);
  sensitive << wake_;
  dont_initialize();
}

uint64_t GmPort::transfer(isa::CoreId core, bool write, uint64_t bytes, double cap) {
  (write ? written_ : read_)[core.value] += bytes;
  const uint64_t now = now_cycles();
  if (bytes == 0) return now;
  share_.advance(now);
  // Transfers that end exactly now end before this one starts sharing (whatever the order in
  // which the threads of this cycle run).
  finish_served();
  const FluidShare::FlowId id = share_.add(core.value, cap, bytes);
  if (waiters_.size() <= id) waiters_.resize(id + 1, nullptr);
  Waiter w;
  waiters_[id] = &w;
  reschedule();
  while (!w.finished) sc_core::wait(w.done);
  return now_cycles();
}

void GmPort::finish_served() {
  for (FluidShare::FlowId id : share_.take_finished()) {
    Waiter* w = waiters_[id];
    waiters_[id] = nullptr;
    w->finished = true;
    w->done.notify(sc_core::SC_ZERO_TIME);
  }
}

void GmPort::tick() {
  share_.advance(now_cycles());
  finish_served();
  reschedule();
}

void GmPort::reschedule() {
  const uint64_t next = share_.next_finish();
  if (next == UINT64_MAX) return;
  // At the very start of the end cycle (phase 0), before any pipe's request of that cycle.
  const uint64_t at = next * time_units_per_cycle(), now = sc_core::sc_time_stamp().value();
  wake_.cancel();
  wake_.notify(sc_core::sc_time::from_value(at > now ? at - now : 0));
}

}  // namespace aicore::model
