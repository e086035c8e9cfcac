// Fixpipe's on-the-fly conversions of L0C cells (FixpipeParamsV220::quantPre), one element at a
// time, bit for bit (docs/semantics.md, "Fixpipe conversions"). Floating-point results follow
// the A2/A3 default saturation mode (CTRL[48] = 0): a result beyond the type's range, and an
// infinity, become the largest finite value of its sign; NaN becomes +0. Rounding is to nearest,
// ties to even (CAST_RINT), with gradual underflow. The scalar modes multiply by the scale of
// deqScalar in fp32, the scale taken as the hardware reads it: sign, exponent and the top 10
// mantissa bits.
#pragma once
#include <cstdint>

namespace aicore::sem {

float half_to_float(uint16_t h);              // exact (the bias table's convControl, the Cube's inputs)
uint16_t f32_to_f16_sat(uint32_t f32_bits);   // F322F16
uint16_t f32_to_bf16_sat(uint32_t f32_bits);  // F322BF16

// deqScalar of the scalar modes: bits 0-31 the scale (low 13 mantissa bits ignored), bits 37-45
// a 9-bit two's-complement offset added to the int8 modes' result, bit 46 set for a signed (int8)
// result, clear for uint8.
struct DeqScalar {
  float scale = 0;
  int32_t offset = 0;
  bool is_signed = false;
};
DeqScalar decode_deq_scalar(uint64_t bits);

// A negative input is multiplied by 0 instead of the scale when reluEn is set (the ReLU pre-stage).
uint16_t deqf16(int32_t cell, const DeqScalar& q, bool relu);       // DEQF16: int32 -> half
uint8_t req8(int32_t cell, const DeqScalar& q, bool relu);          // REQ8: int32 -> int8/uint8
uint8_t qf322b8(uint32_t f32_bits, const DeqScalar& q, bool relu);  // QF322B8_PRE: float -> int8/uint8

}  // namespace aicore::sem
