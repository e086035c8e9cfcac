#include "aicore/model/gm_port.hpp"

#include <algorithm>

#include "aicore/model/clock.hpp"

namespace aicore::model {

namespace {
std::vector<double> capacities(const config::ChipConfig& chip, double port, uint32_t cores) {
  std::vector<double> c(cores, port);  // resources 0 .. cores-1: each core's GM port
  c.push_back(chip.hbm_capacity());
  c.push_back(chip.l2_read_capacity());
  c.push_back(chip.l2_write_capacity());
  return c;
}

// The L2 and HBM weight of an unaligned read: each range starting off the granule costs its first
// line's bytes unaligned_read_cost times (a long run pays once, a row of a tile every time).
double unaligned_weight(const config::L2& l2, const GmRequest& rq, uint64_t base) {
  if (rq.write || !rq.ranges || l2.unaligned_read_cost == 1.0) return 1.0;
  uint64_t extra = 0;
  for (const isa::ByteRange& r : *rq.ranges)
    if ((base + r.begin) % l2.unaligned_granule_bytes) extra += std::min<uint64_t>(r.size(), l2.line_bytes);
  return 1.0 + (l2.unaligned_read_cost - 1.0) * static_cast<double>(extra) / static_cast<double>(rq.bytes);
}
}  // namespace

GmPort::GmPort(const config::ChipConfig& chip, double core_port_bytes_per_cycle, uint32_t cores,
               const GlobalMemory& gm)
    : chip_(chip),
      gm_(gm),
      l2_(L2Geometry{chip.l2.bytes, chip.l2.line_bytes, chip.l2.sector_bytes, chip.l2.ways}, cores),
      share_(capacities(chip, core_port_bytes_per_cycle, cores)),
      hbm_(cores),
      l2_read_(cores + 1),
      l2_write_(cores + 2),
      read_(cores, 0),
      written_(cores, 0) {}

uint64_t GmPort::transfer(isa::CoreId core, const GmRequest& rq, L2Outcome& found) {
  (rq.write ? written_ : read_)[core.value] += rq.bytes;
  const uint64_t now = now_cycles();
  if (rq.bytes == 0) return now;
  share_.advance(now);
  // Transfers that end exactly now end before this one starts sharing (whatever the order in
  // which the threads of this cycle run).
  finish_served(nullptr);
  L2Outcome o;
  const uint64_t base = gm_.address(rq.tensor);
  if (rq.ranges)
    l2_.access(rq.ranges->data(), rq.ranges->size(), base, rq.write, core.value, now, now + rq.lone_cycles,
               o);
  const double bytes = static_cast<double>(rq.bytes);
  FluidShare::Use uses[4];
  size_t n = 0;
  const double unaligned = unaligned_weight(chip_.l2, rq, base);
  uses[n++] = {core.value, 1.0};
  uses[n++] = {rq.write ? l2_write_ : l2_read_,
               unaligned * (rq.write || !rq.nd2nz ? 1.0 : 1.0 / chip_.l2.nd2nz_read_share)};
  if (o.hbm_bytes()) uses[n++] = {hbm_, unaligned * static_cast<double>(o.hbm_bytes()) / bytes};
  // Under load a write meets the reads in the L2's one set of banks (chip.l2.write_read_cost).
  if (rq.write && chip_.l2.write_read_cost > 0) uses[n++] = {l2_read_, chip_.l2.write_read_cost};
  double cap = bytes / static_cast<double>(rq.lone_cycles);
  if (o.shared)  // reads of lines other cores read meanwhile are served one after the other
    cap /= 1.0 + chip_.l2.same_address_penalty * static_cast<double>(o.shared) / static_cast<double>(o.lines);
  found.lines += o.lines;
  found.hits += o.hits;
  found.misses += o.misses;
  found.shared += o.shared;
  found.fill_bytes += o.fill_bytes;
  found.writeback_bytes += o.writeback_bytes;

  const FluidShare::FlowId id = share_.add(cap, rq.bytes, uses, n);
  if (waiters_.size() <= id) waiters_.resize(id + 1, nullptr);
  Waiter w;
  waiters_[id] = &w;
  arm();
  while (!w.finished) {
    sc_core::wait(w.wake);
    share_.advance(now_cycles());
    finish_served(&w);
    if (!w.finished) arm();  // woken early: cannot happen at the rates' precision
  }
  return now_cycles();
}

void GmPort::finish_served(const Waiter* self) {
  const std::vector<FluidShare::FlowId>& done = share_.take_finished();
  if (done.empty()) return;
  for (FluidShare::FlowId id : done) {
    Waiter* w = waiters_[id];
    waiters_[id] = nullptr;
    w->finished = true;
    w->wake.cancel();
    if (armed_ == w) armed_ = nullptr;
    if (w != self) w->wake.notify(sc_core::SC_ZERO_TIME);
  }
  arm();  // the others now share more
}

void GmPort::arm() {
  FluidShare::FlowId id = 0;
  const uint64_t end = share_.next_finish(&id);
  Waiter* next = end == UINT64_MAX ? nullptr : waiters_[id];
  if (armed_ && armed_ != next) armed_->wake.cancel();
  armed_ = next;
  if (!next) return;
  // At the very start of the end cycle (phase 0), before any pipe's request of that cycle.
  const uint64_t now = sc_core::sc_time_stamp().value();
  const uint64_t at = end * time_units_per_cycle();
  next->wake.cancel();
  next->wake.notify(sc_core::sc_time::from_value(at > now ? at - now : 0));
}

}  // namespace aicore::model
