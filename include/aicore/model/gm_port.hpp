// The chip's GM path as seen by the cores' MTE2 reads and Fixpipe writes: a FluidShare
// (fluid_share.hpp) with one group per core (the core's own GM port, gm.shared_bytes_per_cycle)
// under the chip's aggregate bandwidth (chip.gm_bytes_per_cycle), advanced in SystemC time.
// Bandwidth, unlike a busy interval, is shared by whoever transfers at the same moment, so its
// users synchronise with SystemC time before they ask (engine.hpp) and wait for the end: each
// waiting thread is woken at its transfer's end, rescheduled whenever a start or an end
// elsewhere changes its rate.
#pragma once
#include <cstdint>
#include <systemc>
#include <vector>

#include "aicore/isa/types.hpp"
#include "aicore/model/fluid_share.hpp"

namespace aicore::model {

class GmPort {
 public:
  GmPort(uint32_t cores, double core_bytes_per_cycle, double chip_bytes_per_cycle);

  // Called by an SC_THREAD at SystemC time = the transfer's start: moves `bytes` at no more
  // than `cap` B/cycle and returns the cycle the last byte is through (blocks until then).
  uint64_t transfer(isa::CoreId core, bool write, uint64_t bytes, double cap);

  uint64_t bytes_read(isa::CoreId c) const { return read_[c.value]; }
  uint64_t bytes_written(isa::CoreId c) const { return written_[c.value]; }

 private:
  // The thread waiting for one transfer (on its own stack, so a reused FlowId never wakes it).
  struct Waiter {
    sc_core::sc_event wake;
    bool finished = false;
  };
  // Transfers served by now end: their threads are woken (except `self`, which is running).
  void finish_served(const Waiter* self);
  // Every waiting thread is woken at its transfer's end at the current rates.
  void reschedule();

  FluidShare share_;
  std::vector<Waiter*> waiters_;  // per FlowId in flight
  std::vector<uint64_t> read_, written_;
};

}  // namespace aicore::model
