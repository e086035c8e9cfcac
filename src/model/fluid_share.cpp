#include "aicore/model/fluid_share.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace aicore::model {

namespace {
// Bytes (or B/cycle) below this are rounding noise of the double arithmetic, not data.
constexpr double kEps = 1e-6;
}  // namespace

FluidShare::FluidShare(std::vector<double> capacity)
    : capacity_(std::move(capacity)), used_(capacity_.size(), 0.0), weight_(capacity_.size(), 0.0) {}

void FluidShare::advance(uint64_t now) {
  if (now <= now_) return;
  const double dt = static_cast<double>(now - now_);
  for (Flow& f : flows_)
    if (f.live) f.left -= f.rate * dt;
  now_ = now;
}

FluidShare::FlowId FluidShare::add(double cap, uint64_t bytes, const Use* uses, size_t n) {
  FlowId id;
  if (!free_.empty()) {
    id = free_.back();
    free_.pop_back();
  } else {
    id = static_cast<FlowId>(flows_.size());
    flows_.emplace_back();
  }
  Flow f;
  f.cap = cap;
  f.left = static_cast<double>(bytes);
  f.live = true;
  for (size_t i = 0; i < n && i < kMaxUses; ++i)
    if (uses[i].per_byte > 0) f.uses[f.n++] = uses[i];
  flows_[id] = f;
  ++live_;
  share();
  return id;
}

// Served when no byte is left, or what is left would take under a billionth of a cycle (the
// tolerance finish_of rounds with, so a flow due now is always taken now).
bool FluidShare::served(const Flow& f) const {
  return f.left <= kEps || (f.rate > 0 && f.left / f.rate <= 1e-9);
}

const std::vector<FluidShare::FlowId>& FluidShare::take_finished() {
  done_.clear();
  for (FlowId id = 0; id < flows_.size(); ++id) {
    Flow& f = flows_[id];
    if (f.live && served(f)) {
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
  if (f.rate <= 0) return UINT64_MAX;  // cannot happen with positive capacities
  // The cycle by which `left` bytes are served at `rate` (a lone flow at its own cap takes
  // exactly ceil(bytes / cap) cycles, the published single-transfer formula).
  const double cycles = std::ceil(f.left / f.rate - 1e-9);
  return now_ + static_cast<uint64_t>(std::max(cycles, 0.0));
}

uint64_t FluidShare::next_finish(FlowId* which) const {
  uint64_t best = UINT64_MAX;
  for (FlowId id = 0; id < flows_.size(); ++id) {
    if (!flows_[id].live) continue;
    const uint64_t t = finish_of(id);
    if (t < best) {
      best = t;
      if (which) *which = id;
    }
  }
  return best;
}

bool FluidShare::feasible_alone() {
  std::fill(used_.begin(), used_.end(), 0.0);
  for (Flow& f : flows_) {
    if (!f.live) continue;
    double r = f.cap;
    for (uint8_t i = 0; i < f.n; ++i) r = std::min(r, capacity_[f.uses[i].resource] / f.uses[i].per_byte);
    f.rate = r;
    for (uint8_t i = 0; i < f.n; ++i) used_[f.uses[i].resource] += r * f.uses[i].per_byte;
  }
  for (size_t r = 0; r < capacity_.size(); ++r)
    if (used_[r] > capacity_[r] + kEps) return false;
  return true;
}

void FluidShare::share() {
  // The usual case: nothing shared is oversubscribed, every flow runs at its own limit.
  if (feasible_alone()) return;
  // Progressive filling: raise every unfrozen flow's rate by the same step until a resource is
  // full or a flow reaches its cap; those flows freeze; repeat. Each round freezes at least one.
  open_.clear();
  for (FlowId id = 0; id < flows_.size(); ++id)
    if (flows_[id].live) {
      flows_[id].rate = 0;
      open_.push_back(id);
    }
  std::fill(used_.begin(), used_.end(), 0.0);
  while (!open_.empty()) {
    std::fill(weight_.begin(), weight_.end(), 0.0);
    double step = std::numeric_limits<double>::infinity();
    for (FlowId id : open_) {
      const Flow& f = flows_[id];
      step = std::min(step, f.cap - f.rate);
      for (uint8_t i = 0; i < f.n; ++i) weight_[f.uses[i].resource] += f.uses[i].per_byte;
    }
    for (size_t r = 0; r < capacity_.size(); ++r)
      if (weight_[r] > 0) step = std::min(step, (capacity_[r] - used_[r]) / weight_[r]);
    step = std::max(step, 0.0);
    for (FlowId id : open_) {
      Flow& f = flows_[id];
      f.rate += step;
      for (uint8_t i = 0; i < f.n; ++i) used_[f.uses[i].resource] += step * f.uses[i].per_byte;
    }
    still_.clear();
    for (FlowId id : open_) {
      const Flow& f = flows_[id];
      bool frozen = f.rate >= f.cap - kEps;
      for (uint8_t i = 0; i < f.n && !frozen; ++i)
        frozen = used_[f.uses[i].resource] >= capacity_[f.uses[i].resource] - kEps;
      if (!frozen) still_.push_back(id);
    }
    if (still_.size() == open_.size()) break;  // cannot happen with positive capacities; never loop
    open_.swap(still_);
  }
}

}  // namespace aicore::model
