#include "aicore/model/fluid_share.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace aicore::model {

namespace {
// Bytes (or B/cycle) below this are rounding noise of the double arithmetic, not data.
constexpr double kEps = 1e-6;
}  // namespace

FluidShare::FluidShare(double total_capacity, std::vector<double> group_capacity)
    : total_(total_capacity), group_cap_(std::move(group_capacity)) {}

void FluidShare::advance(uint64_t now) {
  if (now <= now_) return;
  const double dt = static_cast<double>(now - now_);
  for (Flow& f : flows_)
    if (f.live) f.left -= f.rate * dt;
  now_ = now;
}

FluidShare::FlowId FluidShare::add(uint32_t group, double cap, uint64_t bytes) {
  FlowId id;
  if (!free_.empty()) {
    id = free_.back();
    free_.pop_back();
  } else {
    id = static_cast<FlowId>(flows_.size());
    flows_.emplace_back();
  }
  flows_[id] = Flow{group, cap, static_cast<double>(bytes), 0, true};
  ++live_;
  share();
  return id;
}

const std::vector<FluidShare::FlowId>& FluidShare::take_finished() {
  done_.clear();
  for (FlowId id = 0; id < flows_.size(); ++id) {
    Flow& f = flows_[id];
    if (f.live && f.left <= kEps) {
      f.live = false;
      --live_;
      free_.push_back(id);
      done_.push_back(id);
    }
  }
  if (!done_.empty()) share();
  return done_;
}

uint64_t FluidShare::finish_of(FlowId id) const {
  const Flow& f = flows_[id];
  // The cycle by which `left` bytes are served at `rate` (a lone flow at its own cap takes
  // exactly ceil(bytes / cap) cycles, the published single-transfer formula).
  const double cycles = std::ceil(f.left / f.rate - 1e-9);
  return now_ + static_cast<uint64_t>(std::max(cycles, 0.0));
}

uint64_t FluidShare::next_finish() const {
  uint64_t best = UINT64_MAX;
  for (FlowId id = 0; id < flows_.size(); ++id)
    if (flows_[id].live) best = std::min(best, finish_of(id));
  return best;
}

void FluidShare::share() {
  // Progressive filling: raise every unfrozen flow's rate by the same step until a limit is
  // reached; flows at a reached limit freeze; repeat. Each round freezes at least one flow.
  open_.clear();
  for (FlowId id = 0; id < flows_.size(); ++id)
    if (flows_[id].live) {
      flows_[id].rate = 0;
      open_.push_back(id);
    }
  if (open_.size() == 1) {  // the usual case: one transfer alone
    Flow& f = flows_[open_[0]];
    f.rate = std::min({f.cap, group_cap_[f.group], total_});
    return;
  }
  group_used_.assign(group_cap_.size(), 0.0);
  double used = 0;
  while (!open_.empty()) {
    per_group_.assign(group_cap_.size(), 0);
    for (FlowId id : open_) ++per_group_[flows_[id].group];
    double step = (total_ - used) / static_cast<double>(open_.size());
    for (FlowId id : open_) step = std::min(step, flows_[id].cap - flows_[id].rate);
    for (size_t g = 0; g < group_cap_.size(); ++g)
      if (per_group_[g]) step = std::min(step, (group_cap_[g] - group_used_[g]) / per_group_[g]);
    step = std::max(step, 0.0);
    for (FlowId id : open_) {
      flows_[id].rate += step;
      group_used_[flows_[id].group] += step;
      used += step;
    }
    const bool total_full = used >= total_ - kEps;
    still_.clear();
    for (FlowId id : open_) {
      const Flow& f = flows_[id];
      const bool frozen =
          total_full || f.rate >= f.cap - kEps || group_used_[f.group] >= group_cap_[f.group] - kEps;
      if (!frozen) still_.push_back(id);
    }
    if (still_.size() == open_.size()) break;  // cannot happen with positive capacities; never loop
    open_.swap(still_);
  }
}

}  // namespace aicore::model
