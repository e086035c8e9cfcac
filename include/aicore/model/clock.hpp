// Simulated time is counted in Cube-core cycles: one cycle is one SystemC nanosecond. The
// configured clock only converts cycles to microseconds in reports, so a what-if on clock_mhz
// never changes cycle counts.
#pragma once
#include <systemc>

namespace aicore::model {

inline sc_core::sc_time cycles(uint64_t c) { return sc_core::sc_time(static_cast<double>(c), sc_core::SC_NS); }
inline uint64_t to_cycles(const sc_core::sc_time& t) {
  return static_cast<uint64_t>(t.to_seconds() * 1e9 + 0.5);
}
inline uint64_t now_cycles() { return to_cycles(sc_core::sc_time_stamp()); }

}  // namespace aicore::model
