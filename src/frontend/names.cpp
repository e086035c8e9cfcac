#include "names.hpp"

#include <array>

namespace aicore::frontend {

const char* position_name(AscendC::TPosition p) {
  static constexpr std::array<const char*, 17> kNames = {
      "GM",    "A1",     "A2",      "B1",  "B2",   "C1",        "C2",           "CO1", "CO2",
      "VECIN", "VECOUT", "VECCALC", "SPM", "TSCM", "C2PIPE2GM", "C2PIPE2LOCAL", "MAX"};
  const auto i = static_cast<size_t>(p);
  return i < kNames.size() ? kNames[i] : "?";
}

const char* hard_event_name(AscendC::HardEvent e) {
  static constexpr std::array<const char*, 36> kNames = {
      "MTE2_MTE1", "MTE1_MTE2", "MTE1_M",  "M_MTE1",    "MTE2_V",    "V_MTE2", "MTE3_V", "V_MTE3",
      "M_V",       "V_M",       "V_V",     "MTE3_MTE1", "MTE1_MTE3", "MTE1_V", "MTE2_M", "M_MTE2",
      "V_MTE1",    "M_FIX",     "FIX_M",   "MTE3_MTE2", "MTE2_MTE3", "S_V",    "V_S",    "S_MTE2",
      "MTE2_S",    "S_MTE3",    "MTE3_S",  "MTE2_FIX",  "FIX_MTE2",  "FIX_S",  "M_S",    "FIX_MTE3",
      "MTE1_FIX",  "FIX_MTE1",  "FIX_FIX", "MAX"};
  const auto i = static_cast<size_t>(e);
  return i < kNames.size() ? kNames[i] : "?";
}

const char* buffer_state_name(BufferState s) {
  switch (s) {
    case BufferState::Free:
      return "free";
    case BufferState::Occupied:
      return "allocated";
    case BufferState::Enqueued:
      return "enqueued";
    case BufferState::Dequeued:
      return "dequeued";
  }
  return "?";
}

}  // namespace aicore::frontend
