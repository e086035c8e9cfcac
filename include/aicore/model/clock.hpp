// Simulated time is counted in Cube-core cycles: one cycle is one SystemC nanosecond. The
// configured clock only converts cycles to microseconds in reports, so a what-if on clock_mhz
// never changes cycle counts. Conversions use the kernel's integer time value (no doubles on
// the hot path).
#pragma once
#include <systemc>

namespace aicore::model {

// Phases of a cycle per pipe: one per core (engine.cpp catch_up; chip.cores is at most this).
constexpr uint64_t kCorePhases = 128;

// SystemC time units (the kernel's resolution, 1 ps by default) in one cycle.
inline uint64_t time_units_per_cycle() {
  static const uint64_t units = sc_core::sc_time(1, sc_core::SC_NS).value();
  return units;
}
inline sc_core::sc_time cycles(uint64_t c) {
  return sc_core::sc_time::from_value(c * time_units_per_cycle());
}
inline uint64_t to_cycles(const sc_core::sc_time& t) {
  return t.value() / time_units_per_cycle();
}
inline uint64_t now_cycles() {
  return to_cycles(sc_core::sc_time_stamp());
}

}  // namespace aicore::model
