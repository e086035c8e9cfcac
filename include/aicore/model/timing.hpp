// Per-instruction cost from the resolved config (docs/design.md, "How time advances"): how long the
// instruction occupies its pipe and how much later its result is usable. SystemC-free so the
// published figures can be tested at their boundaries without running a simulation.
#pragma once
#include <cstdint>

#include "aicore/config/config.hpp"
#include "aicore/isa/instructions.hpp"

namespace aicore::model {

struct Cost {
  uint64_t occupancy = 0;   // cycles the pipe is busy before it can start the next instruction
  uint64_t latency = 0;     // further cycles until the result is visible (SetFlag waits for it)
  uint64_t bytes = 0;       // bytes moved on the pipe's data path
  uint64_t macs = 0;        // multiply-accumulates the Cube performs (sparse: the K/2 it really does)
  uint64_t dense_macs = 0;  // dense-equivalent MACs (sparse: M x N x original K)
  // How the occupancy is made up, for the shared ports (engine.hpp). An instruction holds its
  // on-chip ports for port_cycles; one that moves GM bytes spends `fixed` cycles of its own
  // plus the longer of port_cycles and its GM transfer (gm_bytes at up to gm_rate B/cycle).
  uint64_t port_cycles = 0;
  uint64_t fixed = 0;
  uint64_t gm_bytes = 0;
  double gm_rate = 0;    // 0: no GM transfer
  uint64_t gm_rows = 0;  // GM runs of the transfer (a plain copy: 1; a Fixpipe: its destination rows)
  // Cube only. `head` cycles of the occupancy are the cold-start head, which the M pipe hides
  // when Mmads follow each other; `extra` (cube.fixed_cycles, fractional) is added by the pipe
  // on top of the occupancy (engine.hpp). An isolated Mmad costs occupancy + extra.
  uint64_t head = 0;
  double extra = 0;
};

// Cycles for `bytes` on a path: overhead + ceil(bytes / bytes_per_cycle).
uint64_t transfer_cycles(uint64_t bytes, const config::PathTiming& path);

// The own rate (B/cycle) of a GM transfer of `bytes` in `rows` contiguous GM runs:
// bytes / (bytes / bytes_per_cycle + (rows - 1) * row_cycles). One run: bytes_per_cycle.
double gm_row_rate(uint64_t bytes, uint64_t rows, const config::GmRead& path);

Cost cost_of(const isa::Op& op, const config::CoreConfig& cfg);
// Same, with the bytes the op moves already known (isa::bytes_moved).
// `atomic`: a Fixpipe under SetAtomicAdd (gm_write.hpp).
Cost cost_of(const isa::Op& op, const config::CoreConfig& cfg, uint64_t moved, bool atomic = false);

}  // namespace aicore::model
