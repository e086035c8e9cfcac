// The Cube intrinsics of arch 2201: DataCopy GM -> L1 (DataCopyParams, element count, Nd2NzParams),
// LoadData 2D, Load3Dv2 and LoadDataWithTranspose (L1 -> L0A/L0B, picked by the destination's position),
// LoadDataWithSparse, Mmad
// (dense, and with a bias that is the L0C destination itself), MmadWithSparse, and Fixpipe L0C -> GM
// (row-major or NZ; preceded by the PipeBarrier<PIPE_FIX> the library inserts). Each call
// records one instruction at the caller's line. The operands and element types come from the
// tensors; every other field is copied from the parameter struct member of the same name by the
// instruction's descriptor (isa::fill_from_params). The overloads not supported yet are in
// unsupported.hpp.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "aicore/frontend/pipe_core.hpp"
#include "aicore/frontend/runtime.hpp"
#include "aicore/isa/descriptors.hpp"
#include "ascendc/detail/params.hpp"
#include "ascendc/detail/soft_float.hpp"
#include "ascendc/detail/tensor.hpp"

namespace AscendC {

using aicore::frontend::CallSite;

namespace detail {

template <class T>
struct unsupported : std::false_type {};

using aicore::isa::DType;
using aicore::isa::Space;

// Element type -> isa dtype (Int32 stands for "no Cube input type" where that matters).
template <class T>
constexpr DType dtype_of() {
  if constexpr (std::is_same<T, half>::value) return DType::Half;
  if constexpr (std::is_same<T, bfloat16_t>::value) return DType::BF16;
  if constexpr (std::is_same<T, float>::value) return DType::Float;
  if constexpr (std::is_same<T, int4b_t>::value) return DType::Int4;
  if constexpr (sizeof(T) == 4) return DType::Int32;
  return DType::Int8;
}

template <class T>
aicore::isa::Addr operand(const LocalTensor<T>& t, Space want1, Space want2, const char* what, CallSite site,
                          const char* api) {
  const aicore::isa::Addr a = t.address(site, api);
  if (a.space != want1 && a.space != want2) {
    std::string want = aicore::isa::to_string(want1);
    if (want2 != want1) want += std::string(" or ") + aicore::isa::to_string(want2);
    aicore::frontend::fail(
        site, api,
        std::string(what) + " must be a tensor in " + want + ", not " + aicore::isa::to_string(a.space));
  }
  return a;
}

template <class T>
aicore::isa::Addr gm_operand(const GlobalTensor<T>& t, CallSite site, const char* api) {
  return aicore::frontend::gm_address(t.GetPhyAddr(), site, api);
}

// The dense Mmad input type of (dst, fm, filter), or Int32 when the triple is not supported.
template <class T, class U, class S>
constexpr DType mmad_dtype() {
  if constexpr (std::is_same<T, int32_t>::value && std::is_same<U, int8_t>::value &&
                std::is_same<S, int8_t>::value)
    return DType::Int8;
  if constexpr (std::is_same<T, int32_t>::value && std::is_same<U, int4b_t>::value &&
                std::is_same<S, int4b_t>::value)
    return DType::Int4;
  if constexpr (std::is_same<T, float>::value && std::is_same<U, half>::value && std::is_same<S, half>::value)
    return DType::Half;
  if constexpr (std::is_same<T, float>::value && std::is_same<U, bfloat16_t>::value &&
                std::is_same<S, bfloat16_t>::value)
    return DType::BF16;
  if constexpr (std::is_same<T, float>::value && std::is_same<U, float>::value &&
                std::is_same<S, float>::value)
    return DType::Float;
  return DType::Int32;
}

template <class Op>
void fill_mmad(Op& op, const MmadParams& p, CallSite site, const char* api) {
  // Mmad takes kDirectionAlign from the struct (float only, checked with the instruction);
  // MmadWithSparse (int8) has no such field.
  if (std::is_same<Op, aicore::isa::MmadWithSparse>::value && p.kDirectionAlign)
    aicore::frontend::fail(site, api, "kDirectionAlign = true is not modelled for MmadWithSparse (int8)");
  aicore::isa::fill_from_params(op, p);
}

}  // namespace detail

// ---- DataCopy: GM -> L1 ------------------------------------------------------------------------

template <typename T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& params,
              CallSite site = CallSite::here()) {
  const char* api = "DataCopy";
  aicore::isa::DataCopy op;
  op.dst = detail::operand(dst, detail::Space::L1, detail::Space::L1, "dst", site, api);
  op.src = detail::gm_operand(src, site, api);
  aicore::isa::fill_from_params(op, params);
  aicore::frontend::issue(op, site, api);
}

// `count` elements in one block run; the bytes must be whole 32-byte blocks (int4b_t: count / 2
// bytes, so count a multiple of 64).
template <typename T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const uint32_t count,
              CallSite site = CallSite::here()) {
  constexpr uint32_t bits = aicore_ascendc::element_bits<T>();
  const uint64_t bits_total = uint64_t{count} * bits;
  const uint64_t bytes = bits_total / 8;
  if (bits_total % 256 != 0 || bytes / 32 > 65535)
    aicore::frontend::fail(
        site, "DataCopy",
        "count " + std::to_string(count) + " x " +
            (bits == 4 ? std::string("half a byte (int4b_t)") : std::to_string(bits / 8) + " bytes") +
            " must be a whole number of 32-byte blocks, at most 65535 of them");
  DataCopy(dst, src, DataCopyParams(1, static_cast<uint16_t>(bytes / 32), 0, 0), site);
}

template <typename T, bool enableSmallC0 = false>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const Nd2NzParams& params,
              CallSite site = CallSite::here()) {
  static_assert(!enableSmallC0, "DataCopy ND2NZ with enableSmallC0 is not supported yet by aicore-sim");
  const char* api = "DataCopy (Nd2NzParams)";
  aicore::isa::DataCopyNd2Nz op;
  op.dst = detail::operand(dst, detail::Space::L1, detail::Space::L1, "dst", site, api);
  op.src = detail::gm_operand(src, site, api);
  // The ND2NZ copy has b8, b16 and b32 forms and no b4 one: int4b_t data moves by the b8 form with
  // the parameters as they are, so dValue, srcDValue and the matrix strides count bytes (element
  // pairs), as Huawei's int4 samples set them (docs/ascendc.md, "int4").
  op.dtype = std::is_same<T, int4b_t>::value ? aicore::isa::DType::Int8 : detail::dtype_of<T>();
  aicore::isa::fill_from_params(op, params);
  aicore::frontend::issue(op, site, api);
}

// ---- DataCopy: L1 -> bias table (C1 -> C2) -------------------------------------------------------

// blockLen and dstGap in 64-byte units of the table, srcGap in 32-byte units of L1 (as documented
// for Atlas A2/A3). dst float and src half converts each half to a float (the intrinsic's
// convControl); otherwise the types match: int32_t or float. A local -> local copy into any
// other position is not supported yet (a runtime error at the call's line).
template <typename T, typename U>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyParams& params,
              CallSite site = CallSite::here());
// The copy into the bias table.
template <typename T, typename U>
void copy_to_bias_table(const LocalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyParams& params,
                        CallSite site) {
  const char* api = "DataCopy (L1 -> bias table)";
  constexpr bool convert = std::is_same<T, float>::value && std::is_same<U, half>::value;
  constexpr bool same =
      std::is_same<T, U>::value && (std::is_same<T, float>::value || std::is_same<T, int32_t>::value);
  if constexpr (!convert && !same) {
    aicore::frontend::fail(
        site, api, "(dst, src) element types must be (float, half), (float, float) or (int32_t, int32_t)");
  } else {
    aicore::isa::DataCopyL1ToBT op;
    op.dst = detail::operand(dst, detail::Space::BiasTable, detail::Space::BiasTable, "dst", site, api);
    op.src = detail::operand(src, detail::Space::L1, detail::Space::L1, "src", site, api);
    aicore::isa::fill_from_params(op, params);
    op.convControl = convert;
    aicore::frontend::issue(op, site, api);
  }
}

// `count` elements of T in one block: count * sizeof(T) must be whole 64-byte units of the table.
template <typename T>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count,
              CallSite site = CallSite::here()) {
  const uint64_t bytes = uint64_t{count} * sizeof(T);
  if (bytes % aicore::isa::kBiasBlockBytes != 0 || bytes / aicore::isa::kBiasBlockBytes > 65535)
    aicore::frontend::fail(site, "DataCopy (L1 -> bias table)",
                           "count " + std::to_string(count) + " x " + std::to_string(sizeof(T)) +
                               " bytes must be whole 64-byte units of the bias table, at most 65535 of them");
  DataCopy(dst, src, DataCopyParams(1, static_cast<uint16_t>(bytes / aicore::isa::kBiasBlockBytes), 0, 0),
           site);
}

// ---- LoadData: L1 -> L0A / L0B -----------------------------------------------------------------

template <typename T>
void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2DParams& params,
              CallSite site = CallSite::here()) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4,
                "LoadData: aicore-sim supports int4b_t, int8, uint8, half, bfloat16_t, float, int32 and "
                "uint32 tensors");
  const char* api = "LoadData";
  aicore::isa::LoadData op;
  op.dst = detail::operand(dst, detail::Space::L0A, detail::Space::L0B, "dst", site, api);
  op.src = detail::operand(src, detail::Space::L1, detail::Space::L1, "src", site, api);
  op.dtype =
      sizeof(T) == 1 && !std::is_same<T, int4b_t>::value ? aicore::isa::DType::Int8 : detail::dtype_of<T>();
  aicore::isa::fill_from_params(op, params);
  aicore::frontend::issue(op, site, api);
}

// Load3Dv2: image to column of an NC1HWC0 feature map in L1 into L0A (A2) or L0B (B2), one
// instruction (docs/semantics.md, "LoadData3DV2"). padList and padValue are set here, the other
// members by name; only the default IsResetLoad3dConfig (the call sets the registers) is modelled.
template <typename T, const IsResetLoad3dConfig& defaultConfig = IS_RESER_LOAD3D_DEFAULT_CONFIG,
          typename U = T, typename std::enable_if<std::is_same<T, U>::value, bool>::type = true>
void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData3DParamsV2<U>& params,
              CallSite site = CallSite::here()) {
  static_assert(defaultConfig.isSetFMatrix && defaultConfig.isSetPadding,
                "LoadData (Load3Dv2): an IsResetLoad3dConfig that leaves the FMATRIX or padding registers to "
                "SetFmatrix / SetLoadDataPaddingValue is not supported yet by aicore-sim");
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4,
                "LoadData (Load3Dv2) takes 1-, 2- or 4-byte elements");
  const char* api = "LoadData (Load3Dv2)";
  aicore::isa::LoadData3DV2 op;
  op.dst = detail::operand(dst, detail::Space::L0A, detail::Space::L0B, "dst", site, api);
  op.src = detail::operand(src, detail::Space::L1, detail::Space::L1, "src", site, api);
  op.dtype = detail::dtype_of<T>();
  op.padLeft = params.padList[0];
  op.padRight = params.padList[1];
  op.padTop = params.padList[2];
  op.padBottom = params.padList[3];
  unsigned char bytes[sizeof(T)];
  std::memcpy(bytes, &params.padValue, sizeof(T));  // the element as it is stored in L1
  op.padValue = 0;
  for (size_t b = 0; b < sizeof(T); ++b) op.padValue |= uint32_t{bytes[b]} << (8 * b);
  if (std::is_same<T, int4b_t>::value) op.padValue &= 0xF;  // int4b_t keeps its nibble in a byte
  aicore::isa::fill_from_params(op, params);
  aicore::frontend::issue(op, site, api);
}

// L1 (A1/B1) -> L0A (A2) or L0B (B2), each square transposed: b4 (int4b_t, into L0B) four 16 x 64
// fractals as a 64 x 64 square, b8 two 16 x 32 fractals as a
// 32 x 32 square, b16 one 16 x 16 fractal, b32 two 16 x 8 fractals as a 16 x 16 square
// (docs/semantics.md, "LoadDataWithTranspose"). The fields are copied by name.
template <typename T>
void LoadDataWithTranspose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                           const LoadData2dTransposeParams& params, CallSite site = CallSite::here()) {
  static_assert(
      sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4,
      "LoadDataWithTranspose takes int8_t/uint8_t, half/bfloat16_t or float/int32_t/uint32_t tensors");
  const char* api = "LoadDataWithTranspose";
  aicore::isa::LoadDataWithTranspose op;
  op.dst = detail::operand(dst, detail::Space::L0A, detail::Space::L0B, "dst", site, api);
  op.src = detail::operand(src, detail::Space::L1, detail::Space::L1, "src", site, api);
  op.dtype = detail::dtype_of<T>();
  aicore::isa::fill_from_params(op, params);
  aicore::frontend::issue(op, site, api);
}

// Dense 4:2 weights to L0B and their indexes to the hidden index buffer; only startIndex and
// repeatTimes are used (the other fields must be 0).
template <typename T = int8_t, typename U = uint8_t>
void LoadDataWithSparse(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<U>& idx,
                        const LoadData2dParams& params, CallSite site = CallSite::here()) {
  static_assert(std::is_same<T, int8_t>::value && std::is_same<U, uint8_t>::value,
                "LoadDataWithSparse takes int8_t weights and uint8_t indexes");
  const char* api = "LoadDataWithSparse";
  aicore::isa::LoadDataWithSparse op;
  op.dst = detail::operand(dst, detail::Space::L0B, detail::Space::L0B, "dst", site, api);
  op.src = detail::operand(src, detail::Space::L1, detail::Space::L1, "src", site, api);
  op.idx = detail::operand(idx, detail::Space::L1, detail::Space::L1, "idx", site, api);
  aicore::isa::fill_from_params(op, params);
  aicore::frontend::issue(op, site, api);
}

// ---- Mmad, MmadWithSparse -----------------------------------------------------------------------

template <typename T, typename U, typename S>
void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter,
          const MmadParams& params, CallSite site = CallSite::here()) {
  constexpr aicore::isa::DType dtype = detail::mmad_dtype<T, U, S>();
  static_assert(dtype != aicore::isa::DType::Int32,
                "Mmad: aicore-sim supports (int32_t, int8_t, int8_t), (int32_t, int4b_t, int4b_t), (float, "
                "half, half), "
                "(float, bfloat16_t, bfloat16_t) and (float, float, float) as (dst, fm, filter)");
  const char* api = "Mmad";
  aicore::isa::Mmad op;
  op.dst = detail::operand(dst, detail::Space::L0C, detail::Space::L0C, "dst", site, api);
  op.fm = detail::operand(fm, detail::Space::L0A, detail::Space::L0A, "fm", site, api);
  op.filter = detail::operand(filter, detail::Space::L0B, detail::Space::L0B, "filter", site, api);
  op.dtype = dtype;
  detail::fill_mmad(op, params, site, api);
  aicore::frontend::issue(op, site, api);
}

// With a bias: a bias in C2 (the bias table) is C's first value, cell n for column n of every
// row (cmatrixSource = 1; C = bias + A x B); a bias in CO1 is the initial C, so it must be the
// destination itself (C += A x B).
template <typename T, typename U, typename S, typename V>
void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter,
          const LocalTensor<V>& bias, const MmadParams& params, CallSite site = CallSite::here()) {
  const char* api = "Mmad (bias)";
  static_assert(std::is_same<T, V>::value, "Mmad: the bias has the type of dst's cells (int32_t or float)");
  if (bias.GetPosition() == TPosition::C2) {
    constexpr aicore::isa::DType dtype = detail::mmad_dtype<T, U, S>();
    static_assert(dtype != aicore::isa::DType::Int32, "Mmad: unsupported (dst, fm, filter) types");
    aicore::isa::Mmad op;
    op.dst = detail::operand(dst, detail::Space::L0C, detail::Space::L0C, "dst", site, api);
    op.fm = detail::operand(fm, detail::Space::L0A, detail::Space::L0A, "fm", site, api);
    op.filter = detail::operand(filter, detail::Space::L0B, detail::Space::L0B, "filter", site, api);
    op.biasAddr = static_cast<uint32_t>(
        detail::operand(bias, detail::Space::BiasTable, detail::Space::BiasTable, "bias", site, api).offset);
    op.dtype = dtype;
    detail::fill_mmad(op, params, site, api);
    op.cmatrixSource = true;
    op.cmatrixInitVal = false;
    aicore::frontend::issue(op, site, api);
    return;
  }
  if (bias.GetPosition() != TPosition::CO1)
    aicore::frontend::fail(site, api, "the bias must be a tensor in C2 (the bias table) or CO1");
  if (bias.byte_addr() != dst.byte_addr())
    aicore::frontend::fail(site, api,
                           "a CO1 bias must be the destination itself (C += A x B): bias at " +
                               std::to_string(bias.byte_addr()) + ", dst at " +
                               std::to_string(dst.byte_addr()));
  MmadParams p = params;
  p.cmatrixInitVal = false;
  p.cmatrixSource = false;
  Mmad(dst, fm, filter, p, site);
}

template <typename T = int32_t, typename U = int8_t>
void MmadWithSparse(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<U>& filter,
                    const MmadParams& params, CallSite site = CallSite::here()) {
  static_assert(std::is_same<T, int32_t>::value && std::is_same<U, int8_t>::value,
                "MmadWithSparse takes an int32_t dst and int8_t fm and filter");
  const char* api = "MmadWithSparse";
  aicore::isa::MmadWithSparse op;
  op.dst = detail::operand(dst, detail::Space::L0C, detail::Space::L0C, "dst", site, api);
  op.fm = detail::operand(fm, detail::Space::L0A, detail::Space::L0A, "fm", site, api);
  op.filter = detail::operand(filter, detail::Space::L0B, detail::Space::L0B, "filter", site, api);
  detail::fill_mmad(op, params, site, api);
  aicore::frontend::issue(op, site, api);
}

// ---- Fixpipe: L0C -> GM ---------------------------------------------------------------------------

namespace detail {

// Fixpipe's isChannelSplit / DataCopyCO12DstParams' channelSplit (docs/semantics.md, "Fixpipe NZ
// output"): a float NZ output in 8-column blocks; a row-major output cannot be split.
inline void channel_split(aicore::isa::Fixpipe& op, bool split, CallSite site, const char* api) {
  if (!split) return;
  if (!op.nz)
    aicore::frontend::fail(site, api,
                           "isChannelSplit splits the blocks of an NZ output: it needs CFG_NZ (DataCopy: "
                           "nz2ndEn false)");
  op.channelSplit = true;
}

// quantPre as the simulator's mode, and whether dst's element type T is what it writes. The
// per-channel modes read their words from a quantisation table: only a call that can have one
// (`workspace`: Fixpipe with a cbufWorkspace, or DataCopy(GM, CO1) after SetFixPipeConfig, which
// checks that itself) may name them.
template <typename T>
aicore::isa::QuantMode quant_mode(QuantMode_t q, bool workspace, CallSite site, const char* api) {
  using aicore::isa::QuantMode;
  const auto want = [&](bool ok, const char* type) {
    if (!ok) aicore::frontend::fail(site, api, std::string("this quantPre writes ") + type + " to dst");
  };
  switch (q) {
    case QuantMode_t::NoQuant:
      return QuantMode::NoQuant;
    case QuantMode_t::F322F16:
      want(std::is_same<T, half>::value, "half");
      return QuantMode::F322F16;
    case QuantMode_t::F322BF16:
      want(std::is_same<T, bfloat16_t>::value, "bfloat16_t");
      return QuantMode::F322BF16;
    case QuantMode_t::DEQF16:
      want(std::is_same<T, half>::value, "half");
      return QuantMode::DEQF16;
    case QuantMode_t::QF322B8_PRE:
      want(sizeof(T) == 1, "int8_t or uint8_t");
      return QuantMode::QF322B8_PRE;
    case QuantMode_t::REQ8:
      want(sizeof(T) == 1, "int8_t or uint8_t");
      return QuantMode::REQ8;
    default:
      break;
  }
  if (!workspace)
    aicore::frontend::fail(
        site, api,
        "a per-channel quantPre (VDEQF16, VQF322B8_PRE, VREQ8) reads one uint64_t per column "
        "from L1: call the Fixpipe overload with a cbufWorkspace tensor");
  switch (q) {
    case QuantMode_t::VDEQF16:
      want(std::is_same<T, half>::value, "half");
      return QuantMode::VDEQF16;
    case QuantMode_t::VQF322B8_PRE:
      want(sizeof(T) == 1, "int8_t or uint8_t");
      return QuantMode::VQF322B8_PRE;
    default:
      want(sizeof(T) == 1, "int8_t or uint8_t");
      return QuantMode::VREQ8;
  }
}

// The Fixpipe instruction of a Fixpipe call (with a cbufWorkspace when `workspace`).
template <typename T, typename U, const FixpipeConfig& config>
aicore::isa::Fixpipe fixpipe_op(const GlobalTensor<T>& dst, const LocalTensor<U>& src,
                                const FixpipeParamsV220& params, bool workspace, CallSite site,
                                const char* api) {
  static_assert(config.format == CO2Layout::ROW_MAJOR || config.format == CO2Layout::NZ,
                "Fixpipe with CFG_COLUMN_MAJOR is not supported by arch 2201 (CFG_ROW_MAJOR and CFG_NZ are)");
  static_assert(std::is_same<U, int32_t>::value || std::is_same<U, float>::value,
                "Fixpipe: the L0C source holds int32_t or float cells");
  aicore::isa::Fixpipe op;
  op.quantPre = quant_mode<T>(params.quantPre, workspace, site, api);
  if (op.quantPre == aicore::isa::QuantMode::NoQuant && !std::is_same<T, U>::value)
    aicore::frontend::fail(site, api, "with quantPre NoQuant, dst has the type of the L0C cells (src)");
  op.src = operand(src, Space::L0C, Space::L0C, "src", site, api);
  op.dst = gm_operand(dst, site, api);
  op.dtype = std::is_same<U, float>::value ? aicore::isa::DType::Float : aicore::isa::DType::Int32;
  aicore::isa::fill_from_params(op, params);  // quantPre is set above: not a number
  op.nz = config.format == CO2Layout::NZ;     // the layout is the template's, not a member
  channel_split(op, params.isChannelSplit, site, api);
  return op;
}

}  // namespace detail

template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParamsV220& params,
             CallSite site = CallSite::here()) {
  const char* api = "Fixpipe";
  const aicore::isa::Fixpipe op = detail::fixpipe_op<T, U, config>(dst, src, params, false, site, api);
  // The library drains the FIX pipe before every L0C -> GM copy.
  aicore::frontend::pipe_barrier(aicore::isa::Pipe::FIX, false, site, api, aicore::isa::Origin::Library);
  aicore::frontend::issue(op, site, api);
}

// Fixpipe with the quantisation tensor of the per-channel modes: cbufWorkspace, in L1, holds one
// uint64_t per column in deqScalar's format (docs/semantics.md, "Fixpipe conversions"); the FIX
// pipe reads it (the library's L1 -> fixpipe-buffer copy is not a separate instruction here).
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR, typename S>
void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const LocalTensor<S>& cbufWorkspace,
             const FixpipeParamsV220& params, CallSite site = CallSite::here()) {
  static_assert(sizeof(S) == 8, "Fixpipe: cbufWorkspace holds uint64_t words, one per column");
  const char* api = "Fixpipe";
  aicore::isa::Fixpipe op = detail::fixpipe_op<T, U, config>(dst, src, params, true, site, api);
  const aicore::isa::Addr q =
      detail::operand(cbufWorkspace, detail::Space::L1, detail::Space::L1, "cbufWorkspace", site, api);
  op.quantAddr = static_cast<uint32_t>(q.offset);
  aicore::frontend::pipe_barrier(aicore::isa::Pipe::FIX, false, site, api, aicore::isa::Origin::Library);
  aicore::frontend::issue(op, site, api);
}

// ---- DataCopy: L0C -> GM (the FIX registers' form of Fixpipe) --------------------------------------

// The NZ2ND matrices of later DataCopy(GM, CO1, ...) calls with nz2ndEn (the FIX register; a Fixpipe
// call carries its own and leaves it alone here).
inline void SetFixpipeNz2ndFlag(uint16_t ndNum, uint16_t srcNdStride, uint16_t dstNdStride,
                                CallSite site = CallSite::here()) {
  aicore::frontend::FixpipeRegisters& r = aicore::frontend::fixpipe_registers(site, "SetFixpipeNz2ndFlag");
  r.nz2nd_set = true;
  r.ndNum = ndNum;
  r.srcNdStride = srcNdStride;
  r.dstNdStride = dstNdStride;
}
// The scalar quantisation parameter (Fixpipe's deqScalar) of later DataCopy(GM, CO1, ...) calls.
inline void SetFixpipePreQuantFlag(uint64_t config, CallSite site = CallSite::here()) {
  aicore::frontend::FixpipeRegisters& r = aicore::frontend::fixpipe_registers(site, "SetFixpipePreQuantFlag");
  r.quant_set = true;
  r.deqScalar = config;
}

// L0C -> GM by the FIX registers: one Fixpipe instruction, row-major with nz2ndEn (ndNum and the
// strides from SetFixpipeNz2ndFlag), NZ without; scalar quantPre modes take deqScalar from
// SetFixpipePreQuantFlag. sid, clipReluPre and eltWiseOp must be 0 (not on arch 2201).
template <typename T, typename U>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyCO12DstParams& params,
              CallSite site = CallSite::here()) {
  static_assert(std::is_same<U, int32_t>::value || std::is_same<U, float>::value,
                "DataCopy (CO1 -> GM): the L0C source holds int32_t or float cells");
  const char* api = "DataCopy (CO1 -> GM)";
  if (params.sid != 0 || params.clipReluPre != 0 || params.eltWiseOp != 0)
    aicore::frontend::fail(site, api,
                           "sid, clipReluPre and eltWiseOp must be 0 (arch 2201 has no ClipReLU or "
                           "element-wise step)");
  if (params.reluPre > 1) aicore::frontend::fail(site, api, "reluPre must be 0 or 1 (normal ReLU)");
  aicore::isa::Fixpipe op;
  op.quantPre = detail::quant_mode<T>(params.quantPre, true, site, api);
  if (op.quantPre == aicore::isa::QuantMode::NoQuant && !std::is_same<T, U>::value)
    aicore::frontend::fail(site, api, "with quantPre NoQuant, dst has the type of the L0C cells (src)");
  op.src = detail::operand(src, detail::Space::L0C, detail::Space::L0C, "src", site, api);
  op.dst = detail::gm_operand(dst, site, api);
  op.dtype = std::is_same<U, float>::value ? aicore::isa::DType::Float : aicore::isa::DType::Int32;
  op.nSize = params.nSize;
  op.mSize = params.mSize;
  op.srcStride = params.srcStride;
  op.dstStride = params.dstStride;
  op.unitFlag = params.unitFlag;
  op.reluEn = params.reluPre == 1;
  const aicore::frontend::FixpipeRegisters& r = aicore::frontend::fixpipe_registers(site, api);
  op.nz = !params.nz2ndEn;
  detail::channel_split(op, params.channelSplit, site, api);
  if (params.nz2ndEn) {
    if (!r.nz2nd_set)
      aicore::frontend::fail(site, api, "nz2ndEn needs SetFixpipeNz2ndFlag first (the NZ2ND matrices)");
    op.ndNum = r.ndNum;
    op.srcNdStride = r.srcNdStride;
    op.dstNdStride = r.dstNdStride;
  }
  const bool scalar = op.quantPre == aicore::isa::QuantMode::DEQF16 ||
                      op.quantPre == aicore::isa::QuantMode::REQ8 ||
                      op.quantPre == aicore::isa::QuantMode::QF322B8_PRE;
  if (scalar) {
    if (!r.quant_set)
      aicore::frontend::fail(site, api,
                             "a scalar quantPre needs SetFixpipePreQuantFlag first (its deqScalar)");
    op.deqScalar = r.deqScalar;
  }
  if (aicore::isa::per_channel(op.quantPre)) {  // the table SetFixPipeConfig named, read from L1
    if (!r.table_set)
      aicore::frontend::fail(site, api,
                             "a per-channel quantPre (VDEQF16, VQF322B8_PRE, VREQ8) needs SetFixPipeConfig "
                             "first (its table of one uint64_t per column in the fixpipe buffer)");
    op.quantAddr =
        static_cast<uint32_t>(aicore::frontend::fixbuf_source(r.table_fb, uint64_t{op.nSize} * 8, site, api));
  }
  aicore::frontend::issue(op, site, api);  // no library barrier: the docs name none for this form
}

// ---- The fixpipe buffer (C2PIPE2GM): L1 -> FB and SetFixPipeConfig ------------------------------

// L1 -> fixpipe buffer (the documented way to fill it for SetFixPipeConfig): blockCount bursts of
// blockLen x 128 bytes, srcStride x 32 bytes between L1 bursts, dstStride x 128 bytes between FB
// bursts (copy_cbuf_to_fbuf's units). No FB bytes are modelled: the copy is recorded, and the
// DataCopy(GM, CO1) that uses the table reads it from these L1 bytes (docs/decisions.md). The
// DataCopy(LocalTensor, LocalTensor, DataCopyParams) above dispatches here for a C2PIPE2GM dst.
namespace detail {
template <typename T, typename U>
void copy_to_fixbuf(const LocalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyParams& params,
                    CallSite site) {
  const char* api = "DataCopy (L1 -> fixpipe buffer)";
  if (GetPhyType(src.GetPosition()) != Hardware::L1)
    aicore::frontend::fail(site, api, "src must be a tensor in L1 (A1, B1 or C1)");
  aicore::frontend::fixbuf_copy(dst.byte_addr(), src.byte_addr(), params.blockCount, params.blockLen,
                                params.srcStride, params.dstStride, site, api);
}
}  // namespace detail

// Between local tensors: into the bias table (C2) or the fixpipe buffer (C2PIPE2GM), by dst's position.
template <typename T, typename U>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyParams& params,
              CallSite site) {
  switch (GetPhyType(dst.GetPosition())) {
    case Hardware::BIAS:
      return copy_to_bias_table(dst, src, params, site);
    case Hardware::FIXBUF:
      return detail::copy_to_fixbuf(dst, src, params, site);
    default:
      aicore::frontend::fail(site, "DataCopy",
                             "between local tensors aicore-sim supports L1 -> bias table (dst C2) and L1 -> "
                             "fixpipe buffer (dst C2PIPE2GM); UB copies are not supported yet");
  }
}

// The per-channel quantisation table of later DataCopy(GM, CO1, ...) calls: quantPre, a tensor in
// the fixpipe buffer (C2PIPE2GM). reluPre is reserved (the docs: pass an empty LocalTensor).
// isUnitFlag = true clears the unit flags of L0C's 512-byte blocks (the docs' "UnitFlag clear
// flag"; Huawei's unitFlag sample calls it with its CO1 tensor after the last Fixpipe): the
// simulator keeps no unit-flag state once a Fixpipe with unitFlag 3 has taken its blocks, so the
// clear changes nothing (no instruction); a quantPre outside the fixpipe buffer then sets no table.
template <typename T>
void SetFixPipeConfig(const LocalTensor<T>& reluPre, const LocalTensor<T>& quantPre, bool isUnitFlag = false,
                      CallSite site = CallSite::here()) {
  const char* api = "SetFixPipeConfig";
  if (reluPre.GetPosition() != TPosition::MAX)
    aicore::frontend::fail(site, api,
                           "reluPre is reserved (the docs: not enabled yet): pass an empty LocalTensor");
  if (isUnitFlag && GetPhyType(quantPre.GetPosition()) != Hardware::FIXBUF) return;
  if (GetPhyType(quantPre.GetPosition()) != Hardware::FIXBUF)
    aicore::frontend::fail(site, api, "quantPre must be a tensor in the fixpipe buffer (C2PIPE2GM)");
  aicore::frontend::FixpipeRegisters& r = aicore::frontend::fixpipe_registers(site, api);
  r.table_set = true;
  r.table_fb = quantPre.byte_addr();
}
// The one-tensor form: the quant tensor (setRelu = false, the only value the docs allow).
template <typename T, bool setRelu = false>
void SetFixPipeConfig(const LocalTensor<T>& preData, bool isUnitFlag = false,
                      CallSite site = CallSite::here()) {
  static_assert(!setRelu,
                "SetFixPipeConfig: setRelu = true (a ReLU tensor) is not supported (the docs allow false)");
  SetFixPipeConfig<T>(LocalTensor<T>(), preData, isUnitFlag, site);
}

}  // namespace AscendC
