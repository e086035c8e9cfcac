#include "aicore/model/core_barrier.hpp"

#include <algorithm>

#include "aicore/model/context.hpp"

namespace aicore::model {

CoreBarrier::Round& CoreBarrier::round(uint64_t n) {
  while (first_ + rounds_.size() <= n) rounds_.emplace_back();
  return rounds_[n - first_];
}

void CoreBarrier::drop_left_rounds() {
  // Round n is forgotten once every core has left it (memory stays bounded however many
  // SyncAlls a kernel makes). A core that ended left every round it arrived at.
  const uint64_t all_left = *std::min_element(left_.begin(), left_.end());
  while (!rounds_.empty() && first_ < all_left) {
    rounds_.pop_front();
    ++first_;
  }
}

std::optional<uint64_t> CoreBarrier::arrive(const CoreContext& ctx, const isa::Instruction& instr,
                                            uint64_t cycle) {
  const uint16_t me = ctx.id.value;
  const uint64_t n = arrived_[me]++;
  Round& r = round(n);
  r.count += 1;
  r.last = std::max(r.last, cycle);
  r.waiters.emplace_back(&ctx, &instr);
  r.arrivals.push_back(cycle);
  // A core that already ended with fewer SyncAlls will never come.
  for (uint16_t c = 0; c < ended_.size(); ++c)
    if (ended_[c] && arrived_[c] <= n) fail(r, n, c, cycle);
  if (r.count == arrived_.size()) changed_.notify();
  while (!failed_ && !ctx.chip.stopping() && round(n).count < arrived_.size()) sc_core::wait(changed_);
  if (failed_ || ctx.chip.stopping()) return std::nullopt;
  const uint64_t release = round(n).last;
  left_[me] = n + 1;
  drop_left_rounds();
  return release;
}

void CoreBarrier::ended(const CoreContext& ctx, uint64_t cycle) {
  const uint16_t me = ctx.id.value;
  ended_[me] = true;
  const uint64_t done = arrived_[me];
  for (uint64_t n = std::max(done, first_); n < first_ + rounds_.size(); ++n) {
    const Round& r = rounds_[n - first_];
    if (r.count > 0 && r.count < arrived_.size()) return fail(r, n, me, cycle);
  }
  left_[me] = done;
  drop_left_rounds();
}

void CoreBarrier::fail(const Round& r, uint64_t n, uint16_t missing, uint64_t cycle) {
  if (failed_) return;
  failed_ = true;
  changed_.notify();
  const CoreContext& waiter = *r.waiters.front().first;
  if (waiter.chip.input_error) return;  // issuing stopped at bad input: that is the error
  const uint64_t done = arrived_[missing];
  waiter.raise(FaultKind::Deadlock,
               "SyncAll #" + std::to_string(n + 1) + " can never complete: core " + std::to_string(missing) +
                   "'s program ended after " + std::to_string(done) + " SyncAll" + (done == 1 ? "" : "s") +
                   " (every core of the launch must call SyncAll the same number of times)",
               *r.waiters.front().second, std::max(cycle, r.arrivals.front()));
}

std::string CoreBarrier::waiting(uint16_t core) const {
  if (arrived_[core] == 0) return "";
  const uint64_t n = arrived_[core] - 1;
  if (n < first_ || n >= first_ + rounds_.size()) return "";
  const Round& r = rounds_[n - first_];
  if (r.count >= arrived_.size()) return "";
  std::string missing;
  for (uint16_t c = 0; c < arrived_.size(); ++c)
    if (arrived_[c] <= n) missing += (missing.empty() ? "" : ", ") + std::to_string(c);
  return "SyncAll #" + std::to_string(n + 1) + " (cores " + missing + " not there yet)";
}

}  // namespace aicore::model
