// Independent test-side reference of Fixpipe's conversions (docs/semantics.md, "Fixpipe
// conversions"), written from the rules, not from src/semantics/convert.cpp: a float is rounded
// by searching the sorted list of every finite half/bf16 value for the nearest one (ties: the
// even encoding), and the scalar modes compute in exact double arithmetic before one rounding.
#pragma once
#include <cstdint>

namespace ref {

uint16_t to_half(uint32_t f32_bits);  // nearest finite half, saturating; NaN -> +0
uint16_t to_bf16(uint32_t f32_bits);  // nearest finite bf16, saturating; NaN -> +0

struct Deq {
  double scale;  // bits 0-31 with the low 13 mantissa bits cleared
  int offset;    // bits 37-45, two's complement
  bool is_signed;
};
Deq decode(uint64_t deq_scalar);

uint16_t deqf16(int32_t v, const Deq& q, bool relu);
uint8_t req8(int32_t v, const Deq& q, bool relu);
uint8_t qf322b8(uint32_t f32_bits, const Deq& q, bool relu);

}  // namespace ref
