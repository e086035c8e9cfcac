// The Ascend C enumerations a Cube kernel names: logical positions, hardware buffers and hardware
// events, with the enumerator names and order of the Ascend C API (arch 2201). The runtime
// library (src/frontend) includes this header too, so both sides share one definition.
#pragma once
#include <cstdint>

namespace AscendC {

// Logical tensor positions. LCM and SHM are the API's other names for VECCALC and SPM.
enum class TPosition : uint8_t {
  GM,
  A1,
  A2,
  B1,
  B2,
  C1,
  C2,
  CO1,
  CO2,
  VECIN,
  VECOUT,
  VECCALC,
  LCM = VECCALC,
  SPM,
  SHM = SPM,
  TSCM,
  C2PIPE2GM,
  C2PIPE2LOCAL,
  MAX,
};

// Physical buffers.
enum class Hardware : uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, MAX };

// Hardware events: X_Y is "pipe X signals pipe Y" (SetFlag runs on X, WaitFlag on Y).
enum class HardEvent : uint8_t {
  MTE2_MTE1,
  MTE1_MTE2,
  MTE1_M,
  M_MTE1,
  MTE2_V,
  V_MTE2,
  MTE3_V,
  V_MTE3,
  M_V,
  V_M,
  V_V,
  MTE3_MTE1,
  MTE1_MTE3,
  MTE1_V,
  MTE2_M,
  M_MTE2,
  V_MTE1,
  M_FIX,
  FIX_M,
  MTE3_MTE2,
  MTE2_MTE3,
  S_V,
  V_S,
  S_MTE2,
  MTE2_S,
  S_MTE3,
  MTE3_S,
  MTE2_FIX,
  FIX_MTE2,
  FIX_S,
  M_S,
  FIX_MTE3,
  MTE1_FIX,
  FIX_MTE1,
  FIX_FIX,
  MAX,
};

using TEventID = int8_t;

// The physical buffer behind a position on arch 2201 (CO2 is GM there: Fixpipe writes GM directly).
constexpr Hardware GetPhyType(TPosition pos) {
  switch (pos) {
    case TPosition::GM:
    case TPosition::CO2:
      return Hardware::GM;
    case TPosition::A1:
    case TPosition::B1:
    case TPosition::C1:
    case TPosition::TSCM:
    case TPosition::SPM:
      return Hardware::L1;
    case TPosition::A2:
      return Hardware::L0A;
    case TPosition::B2:
      return Hardware::L0B;
    case TPosition::CO1:
      return Hardware::L0C;
    case TPosition::C2:
      return Hardware::BIAS;
    case TPosition::C2PIPE2GM:
      return Hardware::FIXBUF;
    case TPosition::VECIN:
    case TPosition::VECOUT:
    case TPosition::VECCALC:
      return Hardware::UB;
    default:
      return Hardware::MAX;
  }
}

}  // namespace AscendC
