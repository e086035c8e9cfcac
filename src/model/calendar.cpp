#include "aicore/model/calendar.hpp"

#include <algorithm>

namespace aicore::model {

uint64_t Calendar::earliest_fit(uint64_t t, uint64_t d) const {
  if (d == 0) return t;
  // The first interval that ends after t; walk the gaps from there.
  auto it =
      std::upper_bound(busy_.begin() + static_cast<std::ptrdiff_t>(first_), busy_.end(), t,
                       [](uint64_t v, const std::pair<uint64_t, uint64_t>& iv) { return v < iv.second; });
  uint64_t s = t;
  for (; it != busy_.end(); ++it) {
    if (s + d <= it->first) return s;
    s = std::max(s, it->second);
  }
  return s;
}

void Calendar::reserve(uint64_t s, uint64_t d) {
  if (d == 0) return;
  const uint64_t e = s + d;
  booked_ += d;
  // Requests mostly come in time order: append, or extend the last interval.
  if (busy_.size() == first_ || busy_.back().second <= s) {
    if (busy_.size() > first_ && busy_.back().second == s)
      busy_.back().second = e;
    else
      busy_.emplace_back(s, e);
    return;
  }
  auto it =
      std::upper_bound(busy_.begin() + static_cast<std::ptrdiff_t>(first_), busy_.end(), s,
                       [](uint64_t v, const std::pair<uint64_t, uint64_t>& iv) { return v < iv.first; });
  // it: first interval starting after s; the gap before it holds [s, e).
  const bool join_prev =
      it != busy_.begin() + static_cast<std::ptrdiff_t>(first_) && std::prev(it)->second == s;
  const bool join_next = it != busy_.end() && it->first == e;
  if (join_prev && join_next) {
    std::prev(it)->second = it->second;
    busy_.erase(it);
  } else if (join_prev) {
    std::prev(it)->second = e;
  } else if (join_next) {
    it->first = s;
  } else {
    busy_.insert(it, {s, e});
  }
}

void Calendar::forget_before(uint64_t t) {
  while (first_ < busy_.size() && busy_[first_].second <= t) ++first_;
  // Erase in bulk once the dead prefix is as long as the live part: amortised O(1) per interval.
  if (first_ > 32 && first_ * 2 > busy_.size()) {
    busy_.erase(busy_.begin(), busy_.begin() + static_cast<std::ptrdiff_t>(first_));
    first_ = 0;
  }
}

uint64_t reserve_jointly(Calendar* const* cals, size_t n, uint64_t t, uint64_t d) {
  uint64_t s = t;
  // Each pass moves s to where one more calendar fits; a fixed point fits them all. It ends:
  // s only grows, and past the last booking of every calendar everything fits.
  for (bool moved = true; moved;) {
    moved = false;
    for (size_t i = 0; i < n; ++i) {
      const uint64_t fit = cals[i]->earliest_fit(s, d);
      if (fit != s) {
        s = fit;
        moved = true;
      }
    }
  }
  for (size_t i = 0; i < n; ++i) cals[i]->reserve(s, d);
  return s;
}

}  // namespace aicore::model
