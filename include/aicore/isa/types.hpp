// Basic vocabulary of the Cube core: pipes, memories, element types and operand addresses.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace aicore::isa {

// Execution pipes. MTE3 exists on the Vector side only; it appears here because legal
// event pairs name it (docs/semantics.md §8) even though no v1 instruction runs on it.
enum class Pipe : uint8_t { S, MTE2, MTE1, M, FIX, MTE3 };
constexpr int kPipeCount = 6;
const char* to_string(Pipe p);
std::optional<Pipe> pipe_from_string(std::string_view s);  // "MTE2", "M", ...

// One AI Core of a chip (its block index in a multi-core kernel). A chip of one core has only
// core 0. A struct, not an integer, so a core id cannot be passed where a count or an index is meant.
struct CoreId {
  uint16_t value = 0;
  friend bool operator==(CoreId a, CoreId b) { return a.value == b.value; }
  friend bool operator!=(CoreId a, CoreId b) { return a.value != b.value; }
  friend bool operator<(CoreId a, CoreId b) { return a.value < b.value; }
};

// Memories ("positions"). SparseIndex is the hidden buffer written by LoadDataWithSparse;
// BiasTable (BT, Ascend C's C2) holds the bias a Mmad with cmatrixSource=1 starts C from.
enum class Space : uint8_t { GM, L1, L0A, L0B, L0C, SparseIndex, BiasTable };
constexpr int kSpaceCount = 7;
const char* to_string(Space s);

// Int4 is a signed 4-bit integer (Ascend C int4b_t), two to a byte: the element of even index in
// the low nibble (an assumption, docs/semantics.md "int4"). Sizes are therefore counted in bits.
enum class DType : uint8_t { Int8, Half, BF16, Int32, Float, Int4 };
// In the order messages and docs list them.
inline constexpr DType kAllDTypes[] = {DType::Int4, DType::Int8,  DType::Half,
                                       DType::BF16, DType::Int32, DType::Float};
const char* to_string(DType t);
// "int4", "int8", "half", "bf16", "int32", "float"
std::optional<DType> dtype_from_string(const std::string& s);
// Bits of one element: 4, 8, 16 or 32.
uint32_t bits_of(DType t);
// Bytes that `elements` elements fill: elements * bits / 8, a last half-filled byte counted whole.
uint64_t bytes_of(DType t, uint64_t elements);
// Bytes of one element for the types of whole bytes; 0 for int4 (callers that take int4 use
// bits_of / bytes_of: an element of int4 has no byte size).
uint32_t byte_size(DType t);

// Fixpipe's on-the-fly conversion (FixpipeParamsV220::quantPre, Ascend C QuantMode_t), the modes
// modelled (docs/semantics.md, Fixpipe): a cast, a scalar (de/re)quantisation by deqScalar, or
// the per-channel modes (VDEQF16, VQF322B8_PRE, VREQ8): one deqScalar-format word per column, read
// from L1 (Fixpipe quantAddr; Ascend C's cbufWorkspace).
enum class QuantMode : uint8_t {
  NoQuant,
  F322F16,
  F322BF16,
  DEQF16,
  QF322B8_PRE,
  REQ8,
  VDEQF16,
  VQF322B8_PRE,
  VREQ8
};
// True for the modes that read a word per column from L1.
constexpr bool per_channel(QuantMode q) {
  return q == QuantMode::VDEQF16 || q == QuantMode::VQF322B8_PRE || q == QuantMode::VREQ8;
}
// The scalar mode a per-channel mode applies to each column with its own word (q itself if scalar).
constexpr QuantMode scalar_of(QuantMode q) {
  return q == QuantMode::VDEQF16        ? QuantMode::DEQF16
         : q == QuantMode::VQF322B8_PRE ? QuantMode::QF322B8_PRE
         : q == QuantMode::VREQ8        ? QuantMode::REQ8
                                        : q;
}
const char* to_string(QuantMode q);
std::optional<QuantMode> quant_mode_from_string(std::string_view s);

// An operand address. For GM, `tensor` is the index of the `.gm` declaration and
// `offset` is the byte offset inside it; for on-chip spaces `tensor` is unused.
struct Addr {
  Space space = Space::L1;
  uint32_t tensor = 0;
  uint64_t offset = 0;
  friend bool operator==(const Addr& a, const Addr& b) {
    return a.space == b.space && a.tensor == b.tensor && a.offset == b.offset;
  }
  friend bool operator!=(const Addr& a, const Addr& b) { return !(a == b); }
};

}  // namespace aicore::isa
