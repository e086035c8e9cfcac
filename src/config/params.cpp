#include "aicore/config/params.hpp"

#include <algorithm>

namespace aicore::config {
namespace {

// A pointer-to-member cannot reach a nested member (&Config::gm.read.bytes_per_cycle), so each
// row carries a captureless lambda that returns the field's address instead.
#define AICORE_FIELD(member) [](Config& c) -> FieldRef { return &c.member; }

constexpr double kKiB = 1024.0, kMiB = kKiB * 1024, kGiB = kMiB * 1024;
// Sanity limits, not hardware facts: buffers are host allocations made for every run, and cycle
// counts stay far from overflowing the 64-bit sums the model does with them.
constexpr double kMaxBuffer = 1 * kGiB;
constexpr double kMaxCycles = 1e9;
constexpr double kMinRate = 0.01, kMaxRate = 1e6;  // a tiny rate would mean astronomic durations
constexpr double kMaxDepth = 4096;                 // queues may be preallocated

std::vector<Param> make_table() {
  return {
      // 1 ps SystemC resolution: 100 GHz keeps the period at >= 10 ps.
      {"clock_mhz", "MHz", "core clock: cycles / clock_mhz = microseconds", AICORE_FIELD(clock_mhz), 1,
       100000, 0},

      // 128: requests of one cycle are ordered by pipe, then core, inside the cycle's 1000 SystemC
      // time units (model/clock.hpp, engine.cpp catch_up).
      {"chip.cores", "cores", "AI Cores (Cube cores) a kernel may use; a manifest with more is an error",
       AICORE_FIELD(chip.cores), 1, 128, 0},
      // The tag store is allocated for every run (48 bytes a line): at most 4M lines (resolve.cpp).
      {"chip.l2.bytes", "bytes", "L2 cache size shared by all cores (0 = no L2: every access goes to HBM)",
       AICORE_FIELD(chip.l2.bytes), 0, 4 * kGiB, 0},
      {"chip.l2.line_bytes", "bytes", "L2 line: the unit of tags, replacement and hit/miss counts",
       AICORE_FIELD(chip.l2.line_bytes), 32, 65536, 0},
      {"chip.l2.sector_bytes", "bytes",
       "L2 sector: a miss fills, a dirty eviction writes back, only the sectors of a line it needs",
       AICORE_FIELD(chip.l2.sector_bytes), 32, 65536, 0},
      {"chip.l2.ways", "ways", "L2 associativity (LRU within a set)", AICORE_FIELD(chip.l2.ways), 1, 64, 0},
      {"chip.l2.read_bytes_per_cycle", "B/cycle",
       "L2 read bandwidth of the chip, shared by every core's reads",
       AICORE_FIELD(chip.l2.read_bytes_per_cycle), kMinRate, kMaxRate, 0},
      {"chip.l2.write_bytes_per_cycle", "B/cycle",
       "L2 write bandwidth of the chip, shared by every core's writes",
       AICORE_FIELD(chip.l2.write_bytes_per_cycle), kMinRate, kMaxRate, 0},
      {"chip.l2.read_bytes_per_cycle_per_core", "B/cycle",
       "each core's share of L2 reads when all stream: x chip.cores caps chip.l2.read_bytes_per_cycle",
       AICORE_FIELD(chip.l2.read_bytes_per_cycle_per_core), kMinRate, kMaxRate, 0},
      {"chip.l2.write_bytes_per_cycle_per_core", "B/cycle",
       "each core's share of L2 writes when all stream: x chip.cores caps chip.l2.write_bytes_per_cycle",
       AICORE_FIELD(chip.l2.write_bytes_per_cycle_per_core), kMinRate, kMaxRate, 0},
      {"chip.l2.nd2nz_read_share", "ratio",
       "share of the L2 read bandwidth a DataCopyNd2Nz byte gets (1 = as a plain copy)",
       AICORE_FIELD(chip.l2.nd2nz_read_share), 0.01, 1, 0},
      {"chip.l2.write_read_cost", "ratio",
       "units of the L2 read bandwidth a written byte takes as well (0 = writes do not meet reads)",
       AICORE_FIELD(chip.l2.write_read_cost), 0, 100, 0},
      {"chip.l2.same_address_penalty", "ratio",
       "a read is 1 + this x (share of its lines another core is reading meanwhile) times slower",
       AICORE_FIELD(chip.l2.same_address_penalty), 0, 100, 0},
      {"chip.l2.unaligned_granule_bytes", "bytes",
       "a GM read range whose start is not a multiple of this is unaligned (chip.l2.unaligned_read_cost)",
       AICORE_FIELD(chip.l2.unaligned_granule_bytes), 1, 65536, 0},
      {"chip.l2.unaligned_read_cost", "ratio",
       "an unaligned read range takes this many times its first line's bytes (up to chip.l2.line_bytes) "
       "of the L2 and HBM bandwidth (1 = no penalty)",
       AICORE_FIELD(chip.l2.unaligned_read_cost), 1, 16, 0},
      {"chip.hbm.bytes", "bytes", "HBM capacity: the GM tensors of a kernel must fit",
       AICORE_FIELD(chip.hbm.bytes), 1, 1024 * kGiB, 0},
      {"chip.hbm.bytes_per_cycle", "B/cycle",
       "HBM bandwidth of the chip: L2 fills and write-backs of all cores",
       AICORE_FIELD(chip.hbm.bytes_per_cycle), kMinRate, kMaxRate, 0},
      {"chip.hbm.bytes_per_cycle_per_core", "B/cycle",
       "each core's share of HBM when all stream: x chip.cores caps chip.hbm.bytes_per_cycle",
       AICORE_FIELD(chip.hbm.bytes_per_cycle_per_core), kMinRate, kMaxRate, 0},

      // Multiples: the smallest unit the ISA moves into each buffer (docs/semantics.md §1/§2).
      {"buffers.l1_bytes", "bytes", "L1 size (A1/B1)", AICORE_FIELD(buffers.l1_bytes), 32, kMaxBuffer, 32},
      {"buffers.l1_banks", "banks", "L1 bank count (bank = l1_bytes / l1_banks)",
       AICORE_FIELD(buffers.l1_banks), 1, 1024, 0},
      {"buffers.l0c_banks", "banks",
       "L0C bank count (bank = l0c_bytes / l0c_banks); a port serves each bank on its own",
       AICORE_FIELD(buffers.l0c_banks), 1, 1024, 0},
      {"buffers.l0a_bytes", "bytes", "L0A size (A2)", AICORE_FIELD(buffers.l0a_bytes), 512, kMaxBuffer, 512},
      {"buffers.l0b_bytes", "bytes", "L0B size (B2)", AICORE_FIELD(buffers.l0b_bytes), 512, kMaxBuffer, 512},
      {"buffers.l0c_bytes", "bytes", "L0C size (CO1)", AICORE_FIELD(buffers.l0c_bytes), 1024, kMaxBuffer,
       1024},
      {"buffers.sparse_index_bytes", "bytes", "sparse index buffer size (at least l0b_bytes / 4)",
       AICORE_FIELD(buffers.sparse_index_bytes), 128, kMaxBuffer, 128},
      {"buffers.bias_table_bytes", "bytes", "bias table size (BT, position C2)",
       AICORE_FIELD(buffers.bias_table_bytes), 64, kMaxBuffer, 64},
      // 64 GiB = the HBM of one die (docs/sources.md [chip]): more can never be real.
      {"buffers.gm_max_bytes", "bytes", "largest total of .gm declarations accepted",
       AICORE_FIELD(buffers.gm_max_bytes), 1, 64 * kGiB, 0},

      {"gm.read.bytes_per_cycle", "B/cycle", "MTE2 GM -> L1 bandwidth", AICORE_FIELD(gm.read.bytes_per_cycle),
       kMinRate, kMaxRate, 0},
      {"gm.read.overhead_cycles", "cycles", "MTE2 per-instruction occupancy overhead",
       AICORE_FIELD(gm.read.overhead_cycles), 0, kMaxCycles, 0},
      {"gm.read.latency_cycles", "cycles", "GM read latency until data is usable in L1",
       AICORE_FIELD(gm.read.latency_cycles), 0, kMaxCycles, 0},
      {"gm.read.window_bytes", "bytes",
       "MTE2 GM read bytes in flight (until usable): a read starts when it fits beside them (0 = no limit)",
       AICORE_FIELD(gm.read.window_bytes), 0, kMaxBuffer, 0},
      {"gm.read.row_cycles", "cycles",
       "extra cycles per source row after the first of a DataCopyNd2Nz whose rows are not contiguous",
       AICORE_FIELD(gm.read.row_cycles), 0, kMaxCycles, 0},
      {"gm.write.bytes_per_cycle", "B/cycle", "FIX L0C -> GM write bandwidth",
       AICORE_FIELD(gm.write.bytes_per_cycle), kMinRate, kMaxRate, 0},
      {"gm.write.overhead_cycles", "cycles", "GM write per-instruction occupancy overhead",
       AICORE_FIELD(gm.write.overhead_cycles), 0, kMaxCycles, 0},
      {"gm.write.latency_cycles", "cycles", "GM write latency until data is visible in GM",
       AICORE_FIELD(gm.write.latency_cycles), 0, kMaxCycles, 0},
      {"gm.write.window_bytes", "bytes",
       "Fixpipe GM write bytes in flight (until visible): a write starts when it fits beside them (0 = no "
       "limit)",
       AICORE_FIELD(gm.write.window_bytes), 0, kMaxBuffer, 0},
      // A GM transfer granule is at most a few KiB; 1 = every start is aligned (no penalty).
      {"gm.write.align_bytes", "bytes",
       "a Fixpipe destination run (contiguous GM bytes) starting on a multiple of this writes at full rate",
       AICORE_FIELD(gm.write.align_bytes), 1, 65536, 0},
      {"gm.write.unaligned_cost", "factor",
       "cycles per byte of a destination run that starts off gm.write.align_bytes, relative to an aligned "
       "one",
       AICORE_FIELD(gm.write.unaligned_cost), 1, 64, 0},
      {"gm.write.atomic_share", "ratio",
       "share of the GM write bandwidth a byte of an atomic add (SetAtomicAdd) gets: read, add, write back",
       AICORE_FIELD(gm.write.atomic_share), 0.01, 1, 0},
      {"gm.shared_bytes_per_cycle", "B/cycle", "GM port bandwidth shared by MTE2 reads and FIX writes",
       AICORE_FIELD(gm.shared_bytes_per_cycle), kMinRate, kMaxRate, 0},

      {"mte1.to_l0a.bytes_per_cycle", "B/cycle", "LoadData L1 -> L0A bandwidth",
       AICORE_FIELD(mte1.to_l0a.bytes_per_cycle), kMinRate, kMaxRate, 0},
      {"mte1.to_l0a.overhead_cycles", "cycles", "LoadData L1 -> L0A per-instruction overhead",
       AICORE_FIELD(mte1.to_l0a.overhead_cycles), 0, kMaxCycles, 0},
      {"mte1.to_l0a.latency_cycles", "cycles", "LoadData L1 -> L0A latency",
       AICORE_FIELD(mte1.to_l0a.latency_cycles), 0, kMaxCycles, 0},
      {"mte1.to_l0b.bytes_per_cycle", "B/cycle", "LoadData L1 -> L0B bandwidth",
       AICORE_FIELD(mte1.to_l0b.bytes_per_cycle), kMinRate, kMaxRate, 0},
      {"mte1.to_l0b.overhead_cycles", "cycles", "LoadData L1 -> L0B per-instruction overhead",
       AICORE_FIELD(mte1.to_l0b.overhead_cycles), 0, kMaxCycles, 0},
      {"mte1.to_l0b.latency_cycles", "cycles", "LoadData L1 -> L0B latency",
       AICORE_FIELD(mte1.to_l0b.latency_cycles), 0, kMaxCycles, 0},
      {"mte1.sparse.bytes_per_cycle", "B/cycle", "LoadDataWithSparse bandwidth (weight bytes)",
       AICORE_FIELD(mte1.sparse.bytes_per_cycle), kMinRate, kMaxRate, 0},
      {"mte1.sparse.overhead_cycles", "cycles", "LoadDataWithSparse per-instruction overhead",
       AICORE_FIELD(mte1.sparse.overhead_cycles), 0, kMaxCycles, 0},
      {"mte1.sparse.latency_cycles", "cycles", "LoadDataWithSparse latency",
       AICORE_FIELD(mte1.sparse.latency_cycles), 0, kMaxCycles, 0},
      {"mte1.to_bt.bytes_per_cycle", "B/cycle", "DataCopyL1ToBT L1 -> bias table bandwidth (table bytes)",
       AICORE_FIELD(mte1.to_bt.bytes_per_cycle), kMinRate, kMaxRate, 0},
      {"mte1.to_bt.overhead_cycles", "cycles", "DataCopyL1ToBT per-instruction overhead",
       AICORE_FIELD(mte1.to_bt.overhead_cycles), 0, kMaxCycles, 0},
      {"mte1.to_bt.latency_cycles", "cycles", "DataCopyL1ToBT latency",
       AICORE_FIELD(mte1.to_bt.latency_cycles), 0, kMaxCycles, 0},
      {"mte1.share_during_l1_write", "ratio",
       "share of its rate an MTE1 read of L1 gets when it starts while its core's MTE2 copies GM -> L1 "
       "(1 = no conflict)",
       AICORE_FIELD(mte1.share_during_l1_write), 0.01, 1, 0},

      // K per cycle above 4096 is meaningless: Mmad k is at most 4095 (docs/semantics.md §6).
      {"cube.int8_k_per_cycle", "elements/cycle", "int8 K elements per fractal-cycle",
       AICORE_FIELD(cube.int8_k_per_cycle), 1, 4096, 0},
      {"cube.b16_k_per_cycle", "elements/cycle", "half/bf16 K elements per fractal-cycle",
       AICORE_FIELD(cube.b16_k_per_cycle), 1, 4096, 0},
      {"cube.sparse_k_per_cycle", "elements/cycle", "MmadWithSparse original-K elements per fractal-cycle",
       AICORE_FIELD(cube.sparse_k_per_cycle), 1, 4096, 0},
      {"cube.float_k_per_cycle", "elements/cycle", "float x float K elements per fractal-cycle",
       AICORE_FIELD(cube.float_k_per_cycle), 1, 4096, 0},
      {"cube.int4_k_per_cycle", "elements/cycle", "int4 x int4 K elements per fractal-cycle",
       AICORE_FIELD(cube.int4_k_per_cycle), 1, 4096, 0},
      {"cube.head_cycles", "cycles",
       "Mmad cold-start head: an Mmad pays min(head, cycles the Cube was idle since the last Mmad)",
       AICORE_FIELD(cube.head_cycles), 0, kMaxCycles, 0},
      {"cube.fixed_cycles", "cycles", "Mmad per-instruction cost that back-to-back Mmads cannot hide",
       AICORE_FIELD(cube.fixed_cycles), 0, kMaxCycles, 0},
      {"cube.latency_cycles", "cycles", "Mmad result visible in L0C after the occupancy",
       AICORE_FIELD(cube.latency_cycles), 0, kMaxCycles, 0},

      {"fixpipe.elements_per_cycle", "elements/cycle",
       "Fixpipe output elements per cycle (L0C read and conversion), before the GM write",
       AICORE_FIELD(fixpipe.elements_per_cycle), kMinRate, kMaxRate, 0},
      {"fixpipe.overhead_cycles", "cycles", "Fixpipe per-instruction head (occupancy)",
       AICORE_FIELD(fixpipe.overhead_cycles), 0, kMaxCycles, 0},
      {"fixpipe.latency_cycles", "cycles", "Fixpipe latency on top of the GM write",
       AICORE_FIELD(fixpipe.latency_cycles), 0, kMaxCycles, 0},

      {"issue.instructions_per_cycle", "instructions/cycle", "scalar issue rate",
       AICORE_FIELD(issue.instructions_per_cycle), kMinRate, 64, 0},
      {"issue.queue_depth_mte2", "instructions", "MTE2 instruction queue depth",
       AICORE_FIELD(issue.queue_depth_mte2), 1, kMaxDepth, 0},
      {"issue.queue_depth_mte1", "instructions", "MTE1 instruction queue depth",
       AICORE_FIELD(issue.queue_depth_mte1), 1, kMaxDepth, 0},
      {"issue.queue_depth_m", "instructions", "M (Cube) instruction queue depth",
       AICORE_FIELD(issue.queue_depth_m), 1, kMaxDepth, 0},
      {"issue.queue_depth_fix", "instructions", "FIX instruction queue depth",
       AICORE_FIELD(issue.queue_depth_fix), 1, kMaxDepth, 0},
      {"issue.queue_depth_mte3", "instructions", "MTE3 instruction queue depth (only flags run on MTE3 here)",
       AICORE_FIELD(issue.queue_depth_mte3), 1, kMaxDepth, 0},
      {"issue.sync_cycles", "cycles", "cost of SetFlag/WaitFlag/PipeBarrier on its pipe",
       AICORE_FIELD(issue.sync_cycles), 0, kMaxCycles, 0},
      {"issue.sync_all_cycles", "cycles",
       "SyncAll: cycles from the last core's arrival until every core of the launch goes on",
       AICORE_FIELD(issue.sync_all_cycles), 0, kMaxCycles, 0},
      {"issue.min_interval_mte2", "cycles",
       "MTE2: least average start-to-start distance of data instructions (0 = none)",
       AICORE_FIELD(issue.min_interval_mte2), 0, kMaxCycles, 0},
      {"issue.min_interval_mte1", "cycles",
       "MTE1: least average start-to-start distance of data instructions (0 = none)",
       AICORE_FIELD(issue.min_interval_mte1), 0, kMaxCycles, 0},
      {"issue.min_interval_m", "cycles",
       "M (Cube): least average start-to-start distance of data instructions (0 = none)",
       AICORE_FIELD(issue.min_interval_m), 0, kMaxCycles, 0},
      {"issue.min_interval_fix", "cycles",
       "FIX: least average start-to-start distance of data instructions (0 = none)",
       AICORE_FIELD(issue.min_interval_fix), 0, kMaxCycles, 0},

      // Before the issue slot: what the Ascend C call costs the scalar unit (issue_unit.hpp).
      {"scalar.data_copy", "cycles", "scalar cycles spent on a DataCopy before it is issued",
       AICORE_FIELD(scalar.data_copy), 0, kMaxCycles, 0},
      {"scalar.data_copy_nd2nz", "cycles", "scalar cycles spent on a DataCopyNd2Nz before it is issued",
       AICORE_FIELD(scalar.data_copy_nd2nz), 0, kMaxCycles, 0},
      {"scalar.load_data", "cycles", "scalar cycles spent on a LoadData before it is issued",
       AICORE_FIELD(scalar.load_data), 0, kMaxCycles, 0},
      {"scalar.load_data_with_sparse", "cycles",
       "scalar cycles spent on a LoadDataWithSparse before it is issued",
       AICORE_FIELD(scalar.load_data_with_sparse), 0, kMaxCycles, 0},
      {"scalar.load_data_3dv2", "cycles",
       "scalar cycles spent on a LoadData3DV2 (Load3Dv2) before it is issued",
       AICORE_FIELD(scalar.load_data_3dv2), 0, kMaxCycles, 0},
      {"scalar.load_data_with_transpose", "cycles",
       "scalar cycles spent on a LoadDataWithTranspose before it is issued",
       AICORE_FIELD(scalar.load_data_with_transpose), 0, kMaxCycles, 0},
      {"scalar.data_copy_l1_to_bt", "cycles", "scalar cycles spent on a DataCopyL1ToBT before it is issued",
       AICORE_FIELD(scalar.data_copy_l1_to_bt), 0, kMaxCycles, 0},
      {"scalar.mmad", "cycles", "scalar cycles spent on a Mmad before it is issued",
       AICORE_FIELD(scalar.mmad), 0, kMaxCycles, 0},
      {"scalar.mmad_with_sparse", "cycles", "scalar cycles spent on a MmadWithSparse before it is issued",
       AICORE_FIELD(scalar.mmad_with_sparse), 0, kMaxCycles, 0},
      {"scalar.fixpipe", "cycles", "scalar cycles spent on a Fixpipe before it is issued",
       AICORE_FIELD(scalar.fixpipe), 0, kMaxCycles, 0},
      {"scalar.set_flag", "cycles", "scalar cycles spent on a SetFlag before it is issued",
       AICORE_FIELD(scalar.set_flag), 0, kMaxCycles, 0},
      {"scalar.wait_flag", "cycles", "scalar cycles spent on a WaitFlag before it is issued",
       AICORE_FIELD(scalar.wait_flag), 0, kMaxCycles, 0},
      {"scalar.pipe_barrier", "cycles", "scalar cycles spent on a PipeBarrier before it is issued",
       AICORE_FIELD(scalar.pipe_barrier), 0, kMaxCycles, 0},
      {"scalar.sync_all", "cycles", "scalar cycles spent on a SyncAll before it is issued",
       AICORE_FIELD(scalar.sync_all), 0, kMaxCycles, 0},
      {"scalar.set_atomic", "cycles",
       "scalar cycles spent on a SetAtomicAdd or SetAtomicNone before it is issued",
       AICORE_FIELD(scalar.set_atomic), 0, kMaxCycles, 0},

      // (m/16)*(n/16) is at most (4095/16)^2 = 65025 (Mmad m and n are at most 4095).
      {"check.mmad_interlock_fractals", "fractals",
       "race checker: accumulating Mmads with (m/16)*(n/16) >= this are ordered by the Cube itself",
       AICORE_FIELD(check.mmad_interlock_fractals), 0, 65536, 0},
  };
}
#undef AICORE_FIELD

std::vector<std::string> make_groups() {
  std::vector<std::string> out;
  for (const Param& p : params()) {
    for (size_t dot = p.key.find('.'); dot != std::string::npos; dot = p.key.find('.', dot + 1)) {
      const std::string g = p.key.substr(0, dot);
      if (std::find(out.begin(), out.end(), g) == out.end()) out.push_back(g);
    }
  }
  return out;
}

}  // namespace

const std::vector<Param>& params() {
  static const std::vector<Param> table = make_table();
  return table;
}

const Param* find_param(const std::string& key) {
  for (const Param& p : params())
    if (p.key == key) return &p;
  return nullptr;
}

const std::vector<std::string>& groups() {
  static const std::vector<std::string> g = make_groups();
  return g;
}

bool is_group(const std::string& key) {
  const auto& g = groups();
  return std::find(g.begin(), g.end(), key) != g.end();
}

std::vector<std::string> children(const std::string& group) {
  const std::string prefix = group.empty() ? "" : group + ".";
  std::vector<std::string> out;
  for (const Param& p : params()) {
    if (p.key.compare(0, prefix.size(), prefix) != 0 || p.key.size() == prefix.size()) continue;
    const std::string rest = p.key.substr(prefix.size());
    const std::string child = rest.substr(0, rest.find('.'));
    if (std::find(out.begin(), out.end(), child) == out.end()) out.push_back(child);
  }
  return out;
}

}  // namespace aicore::config
