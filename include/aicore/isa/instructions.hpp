// One record per v1 instruction, fields named and defaulted as in the Ascend C structs
// (docs/trace-format.md, docs/semantics.md). These are plain data: validation lives in isa/check.hpp,
// meaning in semantics/.
#pragma once
#include <cstdint>
#include <optional>
#include <variant>

#include "aicore/common/source_files.hpp"
#include "aicore/isa/types.hpp"

namespace aicore::isa {

struct DataCopy {  // MTE2, GM -> L1; lengths and gaps in 32-byte units
  Addr dst, src;
  uint16_t blockCount = 1, blockLen = 0, srcGap = 0, dstGap = 0;
};

struct DataCopyNd2Nz {  // MTE2, GM (ND) -> L1 (NZ)
  Addr dst, src;
  DType dtype = DType::Int8;
  uint16_t ndNum = 1, nValue = 0, dValue = 0, srcNdMatrixStride = 0, srcDValue = 0;
  uint16_t dstNzC0Stride = 0, dstNzNStride = 1, dstNzMatrixStride = 0;
};

struct LoadData {  // MTE1, L1 -> L0A/L0B, whole 512-byte fractals
  Addr dst, src;
  DType dtype = DType::Int8;
  uint16_t startIndex = 0;
  uint8_t repeatTimes = 0;
  uint16_t srcStride = 0, dstGap = 0;
  bool ifTranspose = false;
  uint8_t sid = 0, addrMode = 0;
};

struct LoadDataWithSparse {  // MTE1, L1 -> L0B (weights) + index buffer (indexes)
  Addr dst, src, idx;
  uint16_t startIndex = 0;
  uint8_t repeatTimes = 0;
  // Present in the Ascend C struct but unused by this instruction: must stay 0.
  uint16_t srcStride = 0, dstGap = 0;
  bool ifTranspose = false;
  uint8_t sid = 0, addrMode = 0;
};

// Load3Dv2 (Ascend C LoadData with LoadData3DParamsV2): MTE1, L1 -> L0A/L0B image-to-column. The
// feature map in L1 is NC1HWC0 (N = 1, C0 = 32 bytes of elements); the instruction writes the
// window [mStartPt, +mExtension) x [kStartPt, +kExtension) of its im2col matrix (docs/semantics.md,
// "LoadData3DV2"). Members named, typed and defaulted as LoadData3DParamsV2's, except padList (four
// members here) and padValue (the element's bits here; the intrinsic converts).
struct LoadData3DV2 {
  Addr dst, src;
  DType dtype = DType::Half;
  uint8_t padLeft = 0, padRight = 0, padTop = 0, padBottom = 0;  // padList[0..3]
  uint16_t l1H = 0, l1W = 0, channelSize = 0;
  uint16_t kExtension = 0, mExtension = 0, kStartPt = 0, mStartPt = 0;
  uint8_t strideW = 1, strideH = 1, filterW = 1, filterH = 1;
  uint8_t dilationFilterW = 1, dilationFilterH = 1;
  bool enTranspose = false, enSmallK = false;
  uint32_t padValue = 0;  // the bits of one element of dtype
  bool filterSizeW = false, filterSizeH = false, fMatrixCtrl = false;
};

// LoadDataWithTranspose (Ascend C, LoadData2dTransposeParams): MTE1, L1 -> L0A/L0B, each
// repeat one square matrix transposed: b16 one 16 x 16 fractal; b8 two 16 x 32 fractals stacked
// into 32 x 32; b32 two 16 x 8 fractals side by side as 16 x 16; the transposed square split back
// into fractals (docs/semantics.md, "LoadDataWithTranspose"). Members named, typed and defaulted
// as LoadData2dTransposeParams'.
struct LoadDataWithTranspose {
  Addr dst, src;
  DType dtype = DType::Half;
  uint16_t startIndex = 0;  // in squares
  uint8_t repeatTimes = 0;
  uint16_t srcStride = 0;   // in squares
  uint16_t dstGap = 0;      // in 512-byte fractals
  uint16_t dstFracGap = 0;  // in 512-byte fractals
  uint8_t addrMode = 0;
};
// The 512-byte fractals one repeat of a LoadDataWithTranspose reads and writes: 2 for b8 and
// b32, 1 for b16.
uint32_t transpose_fractals(DType t);

// DataCopy L1 -> bias table (Ascend C DataCopy(C2 tensor, C1 tensor, DataCopyParams); the
// intrinsic copy_cbuf_to_bt): MTE1. blockCount blocks of blockLen 64-byte units of the table;
// srcGap in 32-byte units of L1, dstGap in 64-byte units of the table. With convControl the L1
// elements are halves, each written to the table as a float, so a block reads half the bytes it
// writes (docs/semantics.md, "Bias table").
struct DataCopyL1ToBT {
  Addr dst, src;
  uint16_t blockCount = 1, blockLen = 0, srcGap = 0, dstGap = 0;
  bool convControl = false;
};
constexpr uint32_t kBiasBlockBytes = 64;  // the table's unit: blockLen, dstGap, dst alignment
// The L1 bytes one block reads: as many as it writes, or half of them with convControl.
constexpr uint64_t bt_src_block_bytes(const DataCopyL1ToBT& o) {
  return uint64_t{o.blockLen} * (o.convControl ? kBiasBlockBytes / 2 : kBiasBlockBytes);
}

// unitFlag of Mmad and Fixpipe (MmadParams / FixpipeParamsV220): 0 off; 2 on, the unit flags of
// the L0C cells stay as they are after the instruction; 3 on, they flip (a Mmad hands its cells to
// Fixpipe, a Fixpipe hands them back). docs/semantics.md, "unitFlag".
constexpr uint8_t kUnitFlagKeep = 2, kUnitFlagFlip = 3;
// The L0C granule a unit flag covers: one flag per 512-byte block (Ascend C SetFixPipeConfig docs).
constexpr uint32_t kUnitFlagBytes = 512;

struct MmadCommon {
  Addr dst, fm, filter;
  uint16_t m = 0, n = 0, k = 0;
  bool cmatrixInitVal = true, cmatrixSource = false, isBias = false;
  uint8_t unitFlag = 0;  // 0, 2 (accumulating steps) or 3 (the last step: hands C to Fixpipe)
  // cmatrixSource=1: the bias table (BT) byte offset of the n bias cells, one per column of C.
  uint32_t biasAddr = 0;
  // C starts from itself, from the bias table, or from zero (docs/semantics.md §6): zero when
  // cmatrixInitVal is set and isBias (the older spelling of "do not start from zero") is not.
  bool starts_from_zero() const { return cmatrixInitVal && !isBias; }
  bool adds_bias() const { return !starts_from_zero() && cmatrixSource; }
  bool accumulates() const { return !starts_from_zero() && !cmatrixSource; }  // reads C in L0C
};
struct Mmad : MmadCommon {  // M pipe, dense
  DType dtype = DType::Int8;
  // float only: A's K in L0A is padded to 16 (each 16-row block of A takes ceil(k / 16) * 2
  // fractals, the last one's padding skipped), not to K0 = 8 (docs/semantics.md §6).
  bool kDirectionAlign = false;
};
struct MmadWithSparse : MmadCommon {};  // M pipe, int8 4:2 sparse; k = original K

struct Fixpipe {  // FIX, L0C (Nz) -> GM (ND), converting on the way (quantPre)
  Addr dst, src;
  DType dtype = DType::Int32;  // L0C cell type: int32 (int8 Mmad) or float (half/bf16 Mmad)
  uint16_t nSize = 0, mSize = 0, srcStride = 0;
  uint32_t dstStride = 0;
  QuantMode quantPre = QuantMode::NoQuant;
  uint64_t deqScalar = 0;  // scalar modes: scale, offset and sign bits (docs/semantics.md)
  uint32_t quantAddr = 0;  // per-channel modes: L1 byte offset of nSize words in deqScalar's format
  uint16_t ndNum = 1, srcNdStride = 0, dstNdStride = 0;
  bool reluEn = false;
  uint8_t unitFlag = 0;  // 0 or 3 (waits for the cells a Mmad with unitFlag=3 hands over); 2 keeps them
  // Ascend C Fixpipe<..., CFG_NZ>: GM gets the NZ layout (16-column blocks of mSize rows,
  // dstStride 32-byte units apart) instead of row-major (docs/semantics.md, "Fixpipe NZ output").
  bool nz = false;
  // isChannelSplit (float NZ output only): each 16-column block of L0C is written as two 8-column
  // blocks of mSize rows, dstStride 32-byte units apart (docs/semantics.md, "Fixpipe NZ output").
  bool channelSplit = false;
};
// Columns of one NZ output block: 8 with channelSplit, 32 for an int8 output (two L0C blocks merged
// into 32-byte rows), else 16.
uint32_t nz_block_columns(const Fixpipe& f);
// What a Fixpipe writes to GM: the element type and size its quantPre (and, for the int8 modes,
// the sign bit of deqScalar) make of the L0C cells. uint8 results are reported as int8 bytes.
DType output_dtype(const Fixpipe& f);
bool output_unsigned(const Fixpipe& f);  // REQ8 / QF322B8_PRE with the sign bit clear: uint8
uint32_t output_size(const Fixpipe& f);
// The L0C cell type a quantPre mode converts from; nullopt for NoQuant (any, as dtype says).
std::optional<DType> quant_source(QuantMode q);

struct EventPair {
  Pipe src = Pipe::S, dst = Pipe::S;
  friend bool operator==(EventPair a, EventPair b) { return a.src == b.src && a.dst == b.dst; }
  friend bool operator!=(EventPair a, EventPair b) { return !(a == b); }
};
bool is_legal_event(EventPair e);
constexpr int kEventIds = 8;

struct SetFlag {
  EventPair event;
  uint8_t id = 0;
};
struct WaitFlag {
  EventPair event;
  uint8_t id = 0;
};
struct PipeBarrier {
  Pipe pipe = Pipe::S;
  bool all = false;  // PIPE_ALL
  friend bool operator==(PipeBarrier a, PipeBarrier b) { return a.pipe == b.pipe && a.all == b.all; }
};

// Cross-core synchronisation and GM atomics (Ascend C SyncAll(), SetAtomicAdd<T>(), SetAtomicNone();
// docs/semantics.md §9). All three run on the scalar unit.
struct SyncAll {  // every pipe of the core drains, then the core waits until every core of the launch is here
  friend bool operator==(SyncAll, SyncAll) { return true; }
};
struct SetAtomicAdd {  // later Fixpipes of the core (program order) add to GM instead of overwriting
  DType dtype = DType::Float;
};
struct SetAtomicNone {  // later Fixpipes overwrite GM again
  friend bool operator==(SetAtomicNone, SetAtomicNone) { return true; }
};

using Op = std::variant<DataCopy, DataCopyNd2Nz, LoadData, LoadDataWithSparse, Mmad, MmadWithSparse, Fixpipe,
                        SetFlag, WaitFlag, PipeBarrier, SyncAll, SetAtomicAdd, SetAtomicNone, LoadData3DV2,
                        LoadDataWithTranspose, DataCopyL1ToBT>;
// The instructions that move no bytes: flags, barriers, SyncAll and the atomic mode.
bool is_sync(const Op& op);

// Who wrote an instruction: the user, or the Ascend C library on the user's behalf (the flags
// the front end's TPipe/TQue emit at the queue call's line). The checker lints the event ids of
// user-written flags only.
enum class Origin : uint8_t { User, Library };

// An instruction as a source yields it: the operation plus where it came from.
struct Instruction {
  Op op;
  uint64_t index = 0;  // 0-based position among its source's (one core's) instructions
  uint32_t line = 0;   // 1-based line in `file`
  FileId file = 0;     // the trace or kernel source it came from (common/source_files.hpp)
  Origin origin = Origin::User;
};

const char* mnemonic(const Op& op);
// The pipe that executes the op. SetFlag runs on its source pipe, WaitFlag on its destination;
// PIPE_ALL barriers are handled by the scalar unit (pipe S).
Pipe pipe_of(const Op& op);

}  // namespace aicore::isa
