// GM atomic adds (SetAtomicAdd): what a Fixpipe under the atomic mode does to each element it
// writes, bit for bit (docs/semantics.md §9). Each element is one IEEE add of the value already
// in GM and the value written, rounded to nearest, ties to even, in the element's own type:
// float as fp32 (subnormals kept, an overflow is infinity), half as fp16 (the exact sum rounded
// once to fp16), int32 wrapping (two's complement). A NaN operand gives the default NaN.
#pragma once
#include <cstddef>
#include <cstdint>

#include "aicore/isa/instructions.hpp"

namespace aicore::sem {

uint32_t f32_add(uint32_t a_bits, uint32_t b_bits);
uint16_t f16_add(uint16_t a_bits, uint16_t b_bits);
// A Fixpipe under SetAtomicAdd dtype=`added`: throws aicore::Fault unless it writes `added`
// elements (float: NoQuant float cells; half: F322F16; int32: NoQuant int32 cells).
void check_atomic_type(const isa::Fixpipe& f, isa::DType added);
// dst[i] = dst[i] + src[i] for `count` elements of type t (float, half or int32), little-endian.
void atomic_add(isa::DType t, uint8_t* dst, const uint8_t* src, size_t count);

}  // namespace aicore::sem
