// Bandwidth shared as a fluid: every transfer in flight gets a rate, and rates are max-min
// fair (progressive filling) under three kinds of limit — the transfer's own path rate, its
// group's capacity (one core's GM port) and the total capacity (the chip's GM bandwidth).
// Rates are recomputed whenever a transfer starts or ends, so the answer depends only on which
// transfers overlap in simulated time, never on the order requests arrived in.
// SystemC-free; model::GmPort drives it from SystemC time.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace aicore::model {

class FluidShare {
 public:
  using FlowId = uint32_t;
  FluidShare(double total_capacity, std::vector<double> group_capacity);

  // Moves the clock to `now` (>= the last call's), serving bytes at the current rates.
  void advance(uint64_t now);
  // Starts a transfer of `bytes` at the current clock; `cap` is its own path rate (B/cycle).
  FlowId add(uint32_t group, double cap, uint64_t bytes);
  // The transfers whose bytes are all served by the current clock; they are removed. The
  // vector is reused by the next call.
  const std::vector<FlowId>& take_finished();
  // The first cycle at which a transfer in flight will have been served (UINT64_MAX: none).
  uint64_t next_finish() const;
  size_t in_flight() const { return live_; }
  double rate_of(FlowId id) const { return flows_[id].rate; }
  bool live(FlowId id) const { return id < flows_.size() && flows_[id].live; }
  // The cycle flow `id` will have been served by at the current rates.
  uint64_t finish_of(FlowId id) const;

 private:
  struct Flow {
    uint32_t group = 0;
    double cap = 0, left = 0, rate = 0;
    bool live = false;
  };
  void share();  // recomputes every live flow's rate
  // The cycle flow f will have been served by at the current rates.

  double total_;
  std::vector<double> group_cap_;
  std::vector<Flow> flows_;  // indexed by FlowId; dead slots are reused
  std::vector<FlowId> free_;
  // Scratch of share() and take_finished(): no allocation per transfer.
  std::vector<FlowId> open_, still_, done_;
  std::vector<double> group_used_;
  std::vector<uint32_t> per_group_;
  size_t live_ = 0;
  uint64_t now_ = 0;
};

}  // namespace aicore::model
