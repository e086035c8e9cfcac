// Data-free validation of an instruction: field ranges, operand spaces, alignment and the
// byte extents it touches. Both the semantics layer (before touching bytes) and the timing
// model in --timing-only mode (which has no bytes) call it, so both report the same faults.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "aicore/isa/instructions.hpp"

namespace aicore::isa {

// A byte range [begin, end) of one memory that an instruction reads or writes.
struct Extent {
  Space space = Space::L1;
  uint32_t tensor = 0;  // GM only
  uint64_t begin = 0, end = 0;
  bool write = false;
  const char* what = nullptr;  // names the operand in an out-of-bounds fault, when not obvious
  uint64_t size() const { return end - begin; }
};

// Every range an instruction touches (at most 5: an accumulating Mmad reads 3 and writes L0C).
struct Footprint {
  std::array<Extent, 5> extents{};
  uint8_t count = 0;
  void add(Space s, uint32_t tensor, uint64_t begin, uint64_t end, bool write, const char* what = nullptr) {
    extents[count++] = Extent{s, tensor, begin, end, write, what};
  }
  const Extent* begin() const { return extents.data(); }
  const Extent* end() const { return extents.data() + count; }
};

// Capacity of each memory. GM capacity is per declared tensor.
struct Limits {
  std::array<uint64_t, kSpaceCount> space_bytes{};
  std::vector<uint64_t> gm_tensor_bytes;
  uint64_t capacity(Space s, uint32_t tensor) const;
};

// Ranges the op touches (empty for no-ops such as repeatTimes=0 and for sync ops).
// Call only on an op that passed check_fields(), which keeps the arithmetic in range.
Footprint footprint(const Op& op);

// Bytes the op moves through its pipe's data path (for timing and statistics): the data, not
// the span it lands in (gaps between blocks or fractals move nothing).
uint64_t bytes_moved(const Op& op);
uint64_t bytes_moved(const Op& op, const Footprint& fp);  // the same; callers that hold fp pass it

// Field ranges, operand spaces, alignment; throws aicore::Fault. Needs no memory sizes.
void check_fields(const Op& op);
// check_fields + every extent inside its memory; throws aicore::Fault naming the operand.
void check(const Op& op, const Limits& limits);
// The bounds part of check() on a footprint already computed (after check_fields).
void check_bounds(const Footprint& fp, const Limits& limits);

// The rules of a word in deqScalar's format: Fixpipe's deqScalar (checked with the fields) and each
// word of a per-channel table in L1 (checked as the Fixpipe reads it, by the semantics layer). The
// scale (bits 0-31) must be a normal float or 0; bit 36 (shift int32 cells right before the scale)
// is not modelled, and is ignored by the float-cell mode QF322B8_PRE (docs/semantics.md, "Fixpipe
// conversions"). `mode` is the Fixpipe's quantPre, scalar or per-channel.
enum class QuantWordFault : uint8_t { None, ScaleInfNaN, ScaleSubnormal, Shift };
QuantWordFault quant_word_fault(uint64_t word, QuantMode mode);
// What is wrong with the word, worded to follow its name ("deqScalar has a scale ..."); "" for None.
const char* describe(QuantWordFault f);

// Fractal geometry shared by check, semantics and the generators (docs/semantics.md §2).
constexpr uint32_t kFractalBytes = 512;       // one L0A/L0B/L1 input fractal
constexpr uint32_t kCFractalBytes = 1024;     // one 16x16 int32/fp32 L0C fractal
constexpr uint32_t kIndexFractalBytes = 128;  // one 4:2 index fractal
inline constexpr uint64_t ceil_div(uint64_t a, uint64_t b) {
  return (a + b - 1) / b;
}
// K elements per fractal row for a dtype, C0 = 256 bits / bits_of (64 for int4, 32 for int8, 16 for
// b16, 8 for float).
uint32_t k0_of(DType t);
// Fractals a 16-row block of a Mmad's A takes in L0A: ceil(k / K0), rounded up to even (K to 16)
// with kDirectionAlign (float).
uint64_t mmad_a_k_fractals(const Mmad& o);
// LoadDataWithTranspose: the bytes of one source square (transpose_fractals fractals), and where
// fractal `fractal` of repeat `repeat` lands (docs/semantics.md, "LoadDataWithTranspose").
uint64_t transpose_square_bytes(DType t);
uint64_t transpose_dst_fractal(const LoadDataWithTranspose& o, uint64_t repeat, uint64_t fractal);
// The byte offset, in its source square, of element (row, col) of destination fractal `fractal`
// (rows of 32 bytes, col < k0_of(t)); for int4 the nibble index (byte index / 2, low nibble even).
uint64_t transpose_source(DType t, uint32_t fractal, uint32_t row, uint32_t col);

}  // namespace aicore::isa
