#include "aicore/isa/types.hpp"
#include "aicore/isa/instructions.hpp"

namespace aicore::isa {

const char* to_string(Pipe p) {
  switch (p) {
    case Pipe::S:
      return "S";
    case Pipe::MTE2:
      return "MTE2";
    case Pipe::MTE1:
      return "MTE1";
    case Pipe::M:
      return "M";
    case Pipe::FIX:
      return "FIX";
    case Pipe::MTE3:
      return "MTE3";
  }
  return "?";
}

std::optional<Pipe> pipe_from_string(std::string_view s) {
  for (int i = 0; i < kPipeCount; ++i) {
    const auto p = static_cast<Pipe>(i);
    if (s == to_string(p)) return p;
  }
  return std::nullopt;
}

const char* to_string(Space s) {
  switch (s) {
    case Space::GM:
      return "GM";
    case Space::L1:
      return "L1";
    case Space::L0A:
      return "L0A";
    case Space::L0B:
      return "L0B";
    case Space::L0C:
      return "L0C";
    case Space::SparseIndex:
      return "index buffer";
    case Space::BiasTable:
      return "BT";
  }
  return "?";
}

const char* to_string(DType t) {
  switch (t) {
    case DType::Int8:
      return "int8";
    case DType::Half:
      return "half";
    case DType::BF16:
      return "bf16";
    case DType::Int32:
      return "int32";
    case DType::Float:
      return "float";
    case DType::Int4:
      return "int4";
  }
  return "?";
}

std::optional<DType> dtype_from_string(const std::string& s) {
  for (auto t : kAllDTypes)
    if (s == to_string(t)) return t;
  if (s == "int4b_t") return DType::Int4;
  if (s == "fp16" || s == "float16") return DType::Half;
  if (s == "bfloat16") return DType::BF16;
  if (s == "fp32" || s == "float32") return DType::Float;
  return std::nullopt;
}

uint32_t bits_of(DType t) {
  switch (t) {
    case DType::Int4:
      return 4;
    case DType::Int8:
      return 8;
    case DType::Half:
    case DType::BF16:
      return 16;
    case DType::Int32:
    case DType::Float:
      return 32;
  }
  return 8;
}

uint64_t bytes_of(DType t, uint64_t elements) {
  return (elements * bits_of(t) + 7) / 8;
}

uint32_t byte_size(DType t) {
  return bits_of(t) / 8;
}

const char* to_string(QuantMode q) {
  switch (q) {
    case QuantMode::NoQuant:
      return "NoQuant";
    case QuantMode::F322F16:
      return "F322F16";
    case QuantMode::F322BF16:
      return "F322BF16";
    case QuantMode::DEQF16:
      return "DEQF16";
    case QuantMode::QF322B8_PRE:
      return "QF322B8_PRE";
    case QuantMode::REQ8:
      return "REQ8";
    case QuantMode::VDEQF16:
      return "VDEQF16";
    case QuantMode::VQF322B8_PRE:
      return "VQF322B8_PRE";
    case QuantMode::VREQ8:
      return "VREQ8";
  }
  return "?";
}

std::optional<QuantMode> quant_mode_from_string(std::string_view s) {
  for (auto q : {QuantMode::NoQuant, QuantMode::F322F16, QuantMode::F322BF16, QuantMode::DEQF16,
                 QuantMode::QF322B8_PRE, QuantMode::REQ8, QuantMode::VDEQF16, QuantMode::VQF322B8_PRE,
                 QuantMode::VREQ8})
    if (s == to_string(q)) return q;
  return std::nullopt;
}

bool is_legal_event(EventPair e) {
  using P = Pipe;
  struct Pair {
    P s, d;
  };
  // docs/semantics.md §8 (from [sync] in docs/sources.md): Cube-core pairs plus the scalar and MTE3 pairs;
  // MTE2_FIX / FIX_MTE2 too, which Huawei's own dav-2201 samples set and wait (FIX reads L1 through
  // the fixpipe buffer's table and writes GM, MTE2 writes L1 and reads GM; docs/decisions.md).
  static constexpr Pair kLegal[] = {
      {P::M, P::MTE1},    {P::M, P::MTE2},    {P::M, P::FIX},    {P::MTE1, P::M},    {P::MTE1, P::MTE2},
      {P::MTE1, P::MTE3}, {P::MTE1, P::FIX},  {P::MTE2, P::M},   {P::MTE2, P::MTE1}, {P::MTE2, P::MTE3},
      {P::MTE3, P::MTE1}, {P::MTE3, P::MTE2}, {P::FIX, P::M},    {P::FIX, P::MTE1},  {P::S, P::MTE2},
      {P::MTE2, P::S},    {P::S, P::MTE3},    {P::MTE3, P::S},   {P::M, P::S},       {P::FIX, P::S},
      {P::FIX, P::MTE3},  {P::FIX, P::FIX},   {P::MTE2, P::FIX}, {P::FIX, P::MTE2},
  };
  for (const auto& p : kLegal)
    if (p.s == e.src && p.d == e.dst) return true;
  return false;
}

std::optional<DType> quant_source(QuantMode q) {
  switch (scalar_of(q)) {
    case QuantMode::F322F16:
    case QuantMode::F322BF16:
    case QuantMode::QF322B8_PRE:
      return DType::Float;
    case QuantMode::DEQF16:
    case QuantMode::REQ8:
      return DType::Int32;
    default:  // NoQuant; scalar_of leaves no per-channel mode
      break;
  }
  return std::nullopt;
}

DType output_dtype(const Fixpipe& f) {
  switch (scalar_of(f.quantPre)) {
    case QuantMode::F322F16:
    case QuantMode::DEQF16:
      return DType::Half;
    case QuantMode::F322BF16:
      return DType::BF16;
    case QuantMode::QF322B8_PRE:
    case QuantMode::REQ8:
      return DType::Int8;
    default:  // NoQuant; scalar_of leaves no per-channel mode
      break;
  }
  return f.dtype;
}

bool output_unsigned(const Fixpipe& f) {
  // The per-channel modes take the sign per column (from each word): reported as int8 bytes.
  const bool b8 = f.quantPre == QuantMode::QF322B8_PRE || f.quantPre == QuantMode::REQ8;
  return b8 && !((f.deqScalar >> 46) & 1u);
}

uint32_t output_size(const Fixpipe& f) {
  return byte_size(output_dtype(f));  // never int4 (no quantPre makes it)
}

uint32_t nz_block_columns(const Fixpipe& f) {
  return f.channelSplit ? 8 : output_size(f) == 1 ? 32 : 16;
}

}  // namespace aicore::isa

namespace aicore::isa {

uint32_t transpose_fractals(DType t) {
  return bits_of(t) == 16 ? 1 : bits_of(t) == 4 ? 4 : 2;
}

}  // namespace aicore::isa
