// What the Ascend C headers (include/ascendc) call: the per-block state of the kernel being run.
// Each intrinsic becomes one isa instruction, checked against the block's memories, executed on
// them at once (so GetValue and the host's result checks see real data) and appended to the
// block's program, which the launch then simulates for timing (frontend/launch.hpp).
//
// Misuse found while the kernel runs is a KernelError naming the call site; the launch reports it
// and ends the program with exit status 3.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "aicore/frontend/call_site.hpp"
#include "aicore/isa/instructions.hpp"
#include "ascendc/detail/enums.hpp"

namespace aicore::frontend {

class KernelError : public std::runtime_error {
 public:
  // what() is "FILE:LINE: error: API: MESSAGE".
  KernelError(CallSite site, const std::string& api, const std::string& message);
};
[[noreturn]] void fail(CallSite site, const std::string& api, const std::string& message);

// True while a block of a launch runs (the APIs below need one).
bool in_kernel();
// True when the kernel runs timing-only (nothing is computed, local memories hold no data);
// a KernelError naming `api` outside a kernel.
bool timing_only(CallSite site, const char* api);
int64_t block_idx();
int64_t block_num();

// The on-chip memory behind a position, or a KernelError naming `api` for positions that are not
// addressable on the Cube core (GM, UB, the bias table, the fixpipe buffer).
isa::Space space_of(AscendC::TPosition pos, CallSite site, const char* api);
// Bytes of an on-chip memory in the configuration the kernel runs with.
uint64_t space_bytes(isa::Space s);
// Host pointer to `bytes` bytes at `offset` of the current block's memory `s` (KernelError if the
// range is outside it).
uint8_t* local_bytes(isa::Space s, uint64_t offset, uint64_t bytes, CallSite site, const char* api);
// The GM operand for host address p, which must lie in a GmAlloc buffer.
isa::Addr gm_address(const void* p, CallSite site, const char* api);

// The FIX registers that DataCopy(GM, CO1, DataCopyCO12DstParams) reads: the NZ2ND matrices
// (SetFixpipeNz2ndFlag), the scalar quantisation parameter (SetFixpipePreQuantFlag) and the
// per-channel table in the fixpipe buffer (SetFixPipeConfig), per block, unset until the kernel
// sets them (docs/ascendc.md).
//
// The fixpipe buffer (C2PIPE2GM) holds no bytes here: each DataCopy(C2PIPE2GM, L1, ...) records
// which L1 bytes a range of it came from (and a copy of them, unless the run is timing-only), and
// the Fixpipe that uses the table reads it from those L1 bytes (docs/decisions.md).
struct FixbufCopy {
  uint64_t fb = 0, bytes = 0, l1 = 0;  // fixpipe-buffer bytes [fb, fb + bytes) from L1 byte l1
  std::vector<uint8_t> data;           // the L1 bytes when copied (empty if timing-only)
  uint32_t line = 0;                   // the DataCopy's line
};
struct FixpipeRegisters {
  bool nz2nd_set = false;
  uint16_t ndNum = 1, srcNdStride = 0, dstNdStride = 0;
  bool quant_set = false;
  uint64_t deqScalar = 0;
  bool table_set = false;  // SetFixPipeConfig
  uint64_t table_fb = 0;   // its quantPre tensor's fixpipe-buffer byte address
  std::vector<FixbufCopy> fixbuf;
};
FixpipeRegisters& fixpipe_registers(CallSite site, const char* api);
// DataCopy(C2PIPE2GM, L1, DataCopyParams): `count` bursts of `len` x 128 bytes from L1 byte `l1`
// to fixpipe-buffer byte `fb`, `srcGap` x 32 bytes between L1 bursts, `dstGap` x 128 between FB
// ones (the copy_cbuf_to_fbuf units). Recorded in the block's FixpipeRegisters.
void fixbuf_copy(uint64_t fb, uint64_t l1, uint16_t count, uint16_t len, uint16_t srcGap, uint16_t dstGap,
                 CallSite site, const char* api);
// The L1 byte address the `bytes` bytes at fixpipe-buffer byte `fb` were copied from (one burst
// run of the newest copy that wrote them), or a KernelError naming `api` when no copy put them
// there or the L1 bytes changed since.
uint64_t fixbuf_source(uint64_t fb, uint64_t bytes, CallSite site, const char* api);

// Checks op against the block's memories, executes it (unless the run is timing-only) and
// records it at `site`. Faults of the isa/semantics layers become KernelErrors naming `api`.
// `origin`: Library for what TPipe/TQue emit on the user's behalf (isa::Origin).
void issue(const isa::Op& op, CallSite site, const char* api, isa::Origin origin = isa::Origin::User);

}  // namespace aicore::frontend
