// Resolved, typed, validated simulator configuration. Produced once by
// config::load() from a preset or YAML file plus --set overrides; the model's constructors take
// these structs and never see YAML. All timing numbers live here (and in configs/*.yaml).
#pragma once
#include <array>
#include <cstdint>
#include <string>

namespace aicore::config {

// Occupancy/latency of one data path: occupancy = overhead + ceil(bytes / bytes_per_cycle),
// result visible `latency` cycles after the occupancy ends. The overhead is a fixed cost per
// instruction that back-to-back instructions cannot hide (it is part of the occupancy).
struct PathTiming {
  double bytes_per_cycle = 0;    // > 0
  uint32_t overhead_cycles = 0;  // per instruction, added to occupancy
  uint32_t latency_cycles = 0;   // extra cycles until the data is usable
};

// A GM path (MTE2 reads, Fixpipe writes): a data path plus how many bytes may be in flight
// (docs/decisions.md, "GM requests in flight").
struct GmPath : PathTiming {
  // Bytes of this pipe's GM transfers in flight (started, data not yet usable): a transfer
  // starts only when its bytes fit beside them, or when none is in flight. 0 = no limit.
  uint64_t window_bytes = 0;
};

// MTE2 GM -> L1, and what a non-contiguous source row costs (docs/decisions.md, "ND rows").
struct GmRead : GmPath {
  // Extra cycles per row after the first of a DataCopyNd2Nz whose GM source rows are not contiguous.
  double row_cycles = 0;
};

// FIX L0C -> GM, per byte (model/gm_write.hpp): a destination run (contiguous GM bytes of one
// Fixpipe) that starts on a multiple of align_bytes writes at bytes_per_cycle; one that does not
// is split into smaller pieces and costs unaligned_cost times the cycles per byte.
struct GmWrite : GmPath {
  uint32_t align_bytes = 1;
  double unaligned_cost = 1;
  // A byte of an atomic add (SetAtomicAdd) gets this share of the write bandwidth: the L2 reads
  // the old value, adds and writes it back (docs/decisions.md, "GM atomics").
  double atomic_share = 1;
};

struct Buffers {
  uint64_t l1_bytes = 0, l0a_bytes = 0, l0b_bytes = 0, l0c_bytes = 0, sparse_index_bytes = 0;
  uint64_t bias_table_bytes = 0;  // BT (C2): the bias a Mmad with cmatrixSource=1 starts from
  uint32_t l1_banks = 0;          // L1 bank count (bank = l1_bytes / l1_banks)
  uint32_t l0c_banks = 0;         // L0C bank count (bank = l0c_bytes / l0c_banks)
  uint64_t gm_max_bytes = 0;      // largest total of .gm declarations accepted
};

struct Gm {
  GmRead read;                        // MTE2 GM -> L1
  GmWrite write;                      // FIX L0C -> GM
  double shared_bytes_per_cycle = 0;  // GM bandwidth shared by MTE2 reads and FIX writes of this core
};

struct Mte1 {
  PathTiming to_l0a;  // LoadData L1 -> L0A
  PathTiming to_l0b;  // LoadData L1 -> L0B
  PathTiming sparse;  // LoadDataWithSparse (weights; index bytes ride along)
  PathTiming to_bt;   // DataCopyL1ToBT L1 -> bias table (bytes written to the table)
  // A read of L1 that starts while the core's MTE2 copies GM -> L1 runs at this share of its rate.
  double share_during_l1_write = 1;
};

struct Cube {
  uint32_t int8_k_per_cycle = 0;    // K elements per fractal-cycle for int8 (32)
  uint32_t b16_k_per_cycle = 0;     // for half/bf16 (16)
  uint32_t sparse_k_per_cycle = 0;  // original-K elements per cycle for MmadWithSparse (64)
  uint32_t head_cycles = 0;         // cold-start head: paid when the Cube was idle (engine.hpp)
  uint32_t latency_cycles = 0;      // result visible in L0C after the occupancy
  double fixed_cycles = 0;          // per-Mmad cost that back-to-back Mmads cannot hide
  uint32_t float_k_per_cycle = 0;   // K elements per fractal-cycle for float x float (4, assumed)
  uint32_t int4_k_per_cycle = 0;    // for int4 x int4 (64: the int4 fractal's K)
};

struct Fixpipe {
  double elements_per_cycle = 0;  // output elements per cycle the engine converts and moves (64)
  uint32_t overhead_cycles = 0;   // per-instruction head (20)
  uint32_t latency_cycles = 0;
};

struct Issue {
  double instructions_per_cycle = 0;  // scalar issue rate (1)
  uint32_t queue_depth_mte2 = 0, queue_depth_mte1 = 0, queue_depth_m = 0, queue_depth_fix = 0;
  uint32_t queue_depth_mte3 = 0;  // MTE3 runs only flags on the Cube core
  uint32_t sync_cycles = 0;       // cost of a SetFlag/WaitFlag/PipeBarrier on its pipe
  // SyncAll: cycles from the last core's arrival until every core of the launch goes on.
  uint32_t sync_all_cycles = 0;
  // Least average distance, in cycles, between the starts of consecutive data instructions of
  // a pipe (fractions accumulate over a back-to-back run); 0 = none.
  double min_interval_mte2 = 0, min_interval_mte1 = 0, min_interval_m = 0, min_interval_fix = 0;
};

// Cycles the scalar unit spends on an instruction before it issues it (the parameter and
// address set-up of its Ascend C call), by instruction kind.
struct Scalar {
  uint32_t data_copy = 0, data_copy_nd2nz = 0, load_data = 0, load_data_with_sparse = 0, load_data_3dv2 = 0,
           mmad = 0, mmad_with_sparse = 0, fixpipe = 0, set_flag = 0, wait_flag = 0, pipe_barrier = 0,
           sync_all = 0, set_atomic = 0, load_data_with_transpose = 0, data_copy_l1_to_bt = 0;
};

// The race checker's one hardware fact (docs/checking.md).
struct Check {
  // Accumulating Mmads into the same L0C cells are ordered by the Cube when the earlier one
  // has (m/16)*(n/16) >= this many fractals (10 per the Mmad docs).
  uint32_t mmad_interlock_fractals = 0;
};

// What one AI Core is made of: the slice of the configuration a model::Core is built from.
// Every core of a chip gets the same slice (the cores of A2/A3 are identical).
struct CoreConfig {
  Buffers buffers;
  Gm gm;
  Mte1 mte1;
  Cube cube;
  Fixpipe fixpipe;
  Issue issue;
  Scalar scalar;
  Check check;
};

// The chip's L2 cache in front of HBM (docs/decisions.md, "L2 and HBM"). Bandwidths are what all
// cores share; each has a chip figure and a per-core one (each core's share when every core
// streams, CANN's platform rate), and the lower of the chip figure and per-core x chip.cores binds.
struct L2 {
  uint64_t bytes = 0;         // capacity; 0 = no L2
  uint32_t line_bytes = 0;    // allocation unit (a power of two)
  uint32_t sector_bytes = 0;  // fill and write-back unit within a line (a power of two)
  uint32_t ways = 0;          // associativity (bytes is a multiple of line_bytes x ways)
  double read_bytes_per_cycle = 0, write_bytes_per_cycle = 0;
  double read_bytes_per_cycle_per_core = 0, write_bytes_per_cycle_per_core = 0;
  // A DataCopyNd2Nz byte takes 1 / nd2nz_read_share of a plain read's L2 bandwidth.
  double nd2nz_read_share = 0;
  // A written byte also takes write_read_cost units of the L2 read bandwidth (0: reads and writes
  // have bandwidths of their own; 1: one bandwidth serves both): docs/decisions.md, "L2 and HBM".
  double write_read_cost = 0;
  // A read is this much slower per share of its lines another core reads at the same moment.
  double same_address_penalty = 0;
  // A read range (a row, or a run of adjacent rows) that starts off unaligned_granule_bytes costs
  // the L2 and HBM unaligned_read_cost times the bytes of its first line (up to line_bytes).
  uint32_t unaligned_granule_bytes = 0;
  double unaligned_read_cost = 0;
};

struct Hbm {
  uint64_t bytes = 0;  // capacity: every GM tensor must fit
  double bytes_per_cycle = 0, bytes_per_cycle_per_core = 0;
};

// What the cores share: how many there are, the L2 and the HBM behind it.
struct ChipConfig {
  uint32_t cores = 0;  // cores available to a kernel
  L2 l2;
  Hbm hbm;
  // The shared capacities the model uses: min(chip figure, per-core figure x cores).
  double hbm_capacity() const;
  double l2_read_capacity() const;
  double l2_write_capacity() const;
};

// The whole resolved configuration: the chip level plus the per-core slice (a base class, so
// `cfg.gm.read` still reads naturally and `static_cast<const CoreConfig&>(cfg)` is the slice).
struct Config : CoreConfig {
  std::string name;  // preset name or file path it came from
  double clock_mhz = 0;
  ChipConfig chip;
  const CoreConfig& core() const { return *this; }
};

}  // namespace aicore::config
