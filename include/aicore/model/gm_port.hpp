// The chip's memory side as the cores' MTE2 reads and Fixpipe writes see it (docs/decisions.md,
// "L2 and HBM"): every transfer is looked up in the L2 (l2_cache.hpp) when it starts, then moves
// as one flow of a FluidShare (fluid_share.hpp) over the resources it uses — its core's GM port
// (gm.shared_bytes_per_cycle), the chip's L2 read or write bandwidth, and the HBM for what it
// fills and writes back — at no more than its lone rate (its bytes over the cycles it takes
// alone, so its fixed cycles overlap its data). Bandwidth, unlike a busy interval, is shared by
// whoever transfers at the same moment, so users synchronise with SystemC time before they ask
// (engine.hpp) and wait for the end. Only the thread whose transfer ends first has a timed
// wake-up; it finishes every transfer served by then and arms the next.
#pragma once
#include <cstdint>
#include <systemc>
#include <vector>

#include "aicore/config/config.hpp"
#include "aicore/isa/access.hpp"
#include "aicore/isa/types.hpp"
#include "aicore/model/fluid_share.hpp"
#include "aicore/model/global_memory.hpp"
#include "aicore/model/l2_cache.hpp"

namespace aicore::model {

// One GM transfer. The engine's cost (timing.hpp) says how long it takes alone; the port says
// what the memory side makes of it.
struct GmRequest {
  bool write = false;
  bool nd2nz = false;  // a DataCopyNd2Nz: the L2 serves it at chip.l2.nd2nz_read_share
  uint32_t tensor = 0;
  const std::vector<isa::ByteRange>* ranges = nullptr;  // the tensor's bytes it moves
  uint64_t bytes = 0;
  uint64_t lone_cycles = 0;  // cycles it takes alone (> 0 when bytes > 0)
};

class GmPort {
 public:
  GmPort(const config::ChipConfig& chip, double core_port_bytes_per_cycle, uint32_t cores,
         const GlobalMemory& gm);

  // Called by an SC_THREAD at SystemC time = the transfer's start: looks it up in the L2 (what
  // it found is added to `found`) and returns the cycle its last byte is through (blocks until
  // then).
  uint64_t transfer(isa::CoreId core, const GmRequest& rq, L2Outcome& found);

  uint64_t bytes_read(isa::CoreId c) const { return read_[c.value]; }
  uint64_t bytes_written(isa::CoreId c) const { return written_[c.value]; }
  const L2Cache& l2() const { return l2_; }

 private:
  // The thread waiting for one transfer (on its own stack, so a reused FlowId never wakes it).
  struct Waiter {
    sc_core::sc_event wake;
    bool finished = false;
  };
  // Transfers served by now end: their threads are woken (except `self`, which is running).
  void finish_served(const Waiter* self);
  // The thread of the transfer that ends first is woken at the start of its end cycle.
  void arm();

  const config::ChipConfig& chip_;
  const GlobalMemory& gm_;
  L2Cache l2_;
  FluidShare share_;
  uint32_t hbm_, l2_read_, l2_write_;  // resource ids after the cores' ports
  std::vector<Waiter*> waiters_;       // per FlowId in flight
  Waiter* armed_ = nullptr;
  std::vector<uint64_t> read_, written_;
};

}  // namespace aicore::model
