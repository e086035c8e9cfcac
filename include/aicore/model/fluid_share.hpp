// Bandwidth shared as a fluid: every transfer in flight gets a rate (bytes/cycle), and rates are
// max-min fair (progressive filling) under the transfer's own cap and the capacity of every
// resource it uses. A transfer uses a resource at some units per byte: a core's GM port at 1, the
// HBM at (bytes it fills or writes back) / (bytes it moves), the L2 at 1 (or more for copies the
// L2 serves less well). Rates are recomputed whenever a transfer starts or ends, so the answer
// depends only on which transfers overlap in simulated time, never on the order requests arrived
// in. SystemC-free; model::GmPort drives it from SystemC time.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace aicore::model {

class FluidShare {
 public:
  using FlowId = uint32_t;
  // One resource a transfer uses, and how many of its units each byte of the transfer takes.
  struct Use {
    uint32_t resource = 0;
    double per_byte = 0;
  };
  static constexpr size_t kMaxUses = 4;

  explicit FluidShare(std::vector<double> capacity);

  // Moves the clock to `now` (>= the last call's), serving bytes at the current rates.
  void advance(uint64_t now);
  // Starts a transfer of `bytes` at the current clock at no more than `cap` B/cycle, using
  // `uses` (at most kMaxUses; a per_byte of 0 is ignored).
  FlowId add(double cap, uint64_t bytes, const Use* uses, size_t n);
  // The transfers whose bytes are all served by the current clock; they are removed. The
  // vector is reused by the next call.
  const std::vector<FlowId>& take_finished();
  // The first cycle at which a transfer in flight will have been served (UINT64_MAX: none), and
  // which one (the lowest id among equals).
  uint64_t next_finish(FlowId* which = nullptr) const;
  size_t in_flight() const { return live_; }
  double rate_of(FlowId id) const { return flows_[id].rate; }
  bool live(FlowId id) const { return id < flows_.size() && flows_[id].live; }
  // The cycle flow `id` will have been served by at the current rates.
  uint64_t finish_of(FlowId id) const;

 private:
  struct Flow {
    double cap = 0, left = 0, rate = 0;
    std::array<Use, kMaxUses> uses{};
    uint8_t n = 0;
    bool live = false;
  };
  void share();           // recomputes every live flow's rate
  bool feasible_alone();  // every flow at its own limit fits every resource: rates set, true
  bool served(const Flow& f) const;

  std::vector<double> capacity_;
  std::vector<Flow> flows_;  // indexed by FlowId; dead slots are reused
  std::vector<FlowId> free_;
  // Scratch of share() and take_finished(): no allocation per transfer.
  std::vector<FlowId> open_, still_, done_;
  std::vector<double> used_, weight_;
  size_t live_ = 0;
  uint64_t now_ = 0;
};

}  // namespace aicore::model
