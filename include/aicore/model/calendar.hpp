// A reservation calendar: the busy intervals of one shared resource (a port of an on-chip
// buffer bank) in simulated time. Pipes run ahead of SystemC time and of each other, so their
// requests arrive in host order, not time order; a calendar answers "the earliest interval of
// this length at or after t" from what is booked, so an early request that arrives late still
// gets the gap before a later booking (docs/decisions.md, "shared resources").
// SystemC-free: unit-tested on its own.
#pragma once
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace aicore::model {

class Calendar {
 public:
  // The earliest s >= t with [s, s + d) free. d = 0 fits anywhere: returns t.
  uint64_t earliest_fit(uint64_t t, uint64_t d) const;
  // Books [s, s + d); the interval must be free (earliest_fit said so). d = 0 books nothing.
  void reserve(uint64_t s, uint64_t d);
  // No request will ever start before `t` again: forget what ended by then.
  void forget_before(uint64_t t);
  size_t intervals() const { return busy_.size(); }
  uint64_t booked_cycles() const { return booked_; }

 private:
  std::vector<std::pair<uint64_t, uint64_t>> busy_;  // disjoint [begin, end), sorted; touching ones merged
  size_t first_ = 0;                                 // busy_[0, first_) are forgotten (erased lazily)
  uint64_t booked_ = 0;
};

// Books one interval of length d on every calendar in `cals` at once, at the earliest start
// >= t where all of them are free; returns that start.
uint64_t reserve_jointly(Calendar* const* cals, size_t n, uint64_t t, uint64_t d);

}  // namespace aicore::model
