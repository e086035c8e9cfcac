// The GM write path (Fixpipe L0C -> GM) as a cost module of its own: what writing one Fixpipe's
// destination costs the path by itself, before the chip shares GM bandwidth between transfers
// (gm_port.hpp). The cost is per byte: `gm.write.bytes_per_cycle`, with each destination row
// (one burst of nSize output elements) that starts off `gm.write.align_bytes` costing
// `gm.write.unaligned_cost` times as many cycles per byte (docs/decisions.md, "Fixpipe").
// A chip L2 in front of HBM belongs on this path: it changes what this module returns, not its
// callers (timing.cpp, the engine, the reference schedule).
#pragma once
#include <cstdint>

#include "aicore/config/config.hpp"
#include "aicore/isa/instructions.hpp"

namespace aicore::model {

struct GmWriteCost {
  uint64_t bytes = 0;           // bytes written (the output type's size)
  uint64_t rows = 0;            // destination rows (bursts): ndNum x mSize
  uint64_t unaligned_rows = 0;  // rows whose first byte is off gm.write.align_bytes
  double weighted_bytes = 0;    // bytes, those of unaligned rows counted unaligned_cost times
  double rate = 0;              // the write's own rate: bytes_per_cycle x bytes / weighted_bytes
  uint64_t cycles = 0;          // ceil(weighted_bytes / bytes_per_cycle)
};

// `atomic`: the write is an atomic add (SetAtomicAdd): every byte gets gm.write.atomic_share of
// the bandwidth (the memory side reads the old value, adds, writes back; an assumption).
GmWriteCost gm_write_cost(const isa::Fixpipe& f, const config::GmWrite& path, bool atomic = false);

// How many j in [0, count) make (first + j * step) a multiple of `align` (align >= 1); exact, in
// O(log align) steps, so a Fixpipe of 65535 x 65535 rows costs nothing to price.
uint64_t aligned_starts(uint64_t first, uint64_t step, uint64_t count, uint64_t align);

}  // namespace aicore::model
