#include "aicore/model/timing.hpp"

#include <algorithm>
#include <cmath>

#include "aicore/isa/check.hpp"
#include "aicore/model/gm_write.hpp"

namespace aicore::model {

using isa::ceil_div;

uint64_t transfer_cycles(uint64_t bytes, const config::PathTiming& path) {
  const double cycles = std::ceil(static_cast<double>(bytes) / path.bytes_per_cycle);
  return path.overhead_cycles + static_cast<uint64_t>(cycles);
}

double gm_row_rate(uint64_t bytes, uint64_t rows, const config::GmRead& path) {
  if (rows <= 1 || path.row_cycles <= 0 || bytes == 0) return path.bytes_per_cycle;
  const double b = static_cast<double>(bytes);
  return b / (b / path.bytes_per_cycle + static_cast<double>(rows - 1) * path.row_cycles);
}

namespace {

// Contiguous GM runs of `matrices` matrices of `rows` rows of `len` elements, rows `stride`
// apart and matrices `mstride` apart: rows merge when each starts where the previous ended.
uint64_t runs_of(uint64_t matrices, uint64_t rows, uint64_t len, uint64_t stride, uint64_t mstride) {
  if (matrices == 0 || rows == 0 || len == 0) return 0;
  const uint64_t per_matrix = rows > 1 && stride != len ? rows : 1;
  const bool joined = matrices > 1 && mstride == (rows - 1) * stride + len;
  return matrices * per_matrix - (joined ? matrices - 1 : 0);
}
// An ND2NZ copy's source rows (in GM).
uint64_t gm_runs(const isa::DataCopyNd2Nz& o) {
  return runs_of(o.ndNum, o.nValue, o.dValue, o.srcDValue, o.srcNdMatrixStride);
}

uint64_t fractal_pairs(const isa::MmadCommon& o) {
  return ceil_div(o.m, 16) * ceil_div(o.n, 16);
}
bool is_noop(const isa::MmadCommon& o) {
  return o.m == 0 || o.n == 0 || o.k == 0;
}

struct CostOf {
  const config::CoreConfig& cfg;
  uint64_t moved;       // isa::bytes_moved of the op
  bool atomic = false;  // a Fixpipe under SetAtomicAdd: its GM bytes are read, added and written

  Cost path(uint64_t bytes, const config::PathTiming& p) const {
    Cost c;
    c.bytes = bytes;
    c.occupancy = transfer_cycles(bytes, p);
    c.latency = p.latency_cycles;
    c.port_cycles = c.occupancy;
    return c;
  }
  // A GM read in `rows` contiguous runs: its own rate falls with the rows (gm_row_rate), and
  // L1's write port is held while the data streams in at that rate.
  Cost gm_read(uint64_t rows) const {
    config::PathTiming p = cfg.gm.read;
    p.bytes_per_cycle = gm_row_rate(moved, rows, cfg.gm.read);
    Cost c = path(moved, p);
    c.fixed = cfg.gm.read.overhead_cycles;
    c.port_cycles = c.occupancy - c.fixed;
    c.gm_bytes = moved;
    c.gm_rate = p.bytes_per_cycle;
    c.gm_rows = rows;
    return c;
  }
  Cost operator()(const isa::DataCopy&) const { return gm_read(1); }
  Cost operator()(const isa::DataCopyNd2Nz& o) const { return gm_read(gm_runs(o)); }
  Cost operator()(const isa::LoadData& o) const {
    return path(moved, o.dst.space == isa::Space::L0A ? cfg.mte1.to_l0a : cfg.mte1.to_l0b);
  }
  Cost operator()(const isa::LoadDataWithSparse&) const { return path(moved, cfg.mte1.sparse); }
  // Charged as LoadData 2D's path of its destination, for the bytes written (assumed: no figure
  // for Load3Dv2; docs/configuration.md).
  Cost operator()(const isa::LoadData3DV2& o) const {
    return path(moved, o.dst.space == isa::Space::L0A ? cfg.mte1.to_l0a : cfg.mte1.to_l0b);
  }
  // Charged as LoadData 2D's path of its destination, for the fractals written (assumed: the docs
  // give no figure for the transposing load; docs/configuration.md).
  Cost operator()(const isa::LoadDataWithTranspose& o) const {
    return path(moved, o.dst.space == isa::Space::L0A ? cfg.mte1.to_l0a : cfg.mte1.to_l0b);
  }
  Cost operator()(const isa::DataCopyL1ToBT&) const { return path(moved, cfg.mte1.to_bt); }
  Cost cube(const isa::MmadCommon& o, uint64_t k_per_cycle) const {
    Cost c;
    c.occupancy = c.head = cfg.cube.head_cycles;
    c.extra = cfg.cube.fixed_cycles;
    c.latency = cfg.cube.latency_cycles;
    if (!is_noop(o)) {
      c.occupancy += fractal_pairs(o) * ceil_div(o.k, k_per_cycle);
      c.dense_macs = uint64_t{o.m} * o.n * o.k;
    }
    c.port_cycles = c.occupancy;
    return c;
  }
  Cost operator()(const isa::Mmad& o) const {
    const uint32_t k = o.dtype == isa::DType::Int8    ? cfg.cube.int8_k_per_cycle
                       : o.dtype == isa::DType::Int4  ? cfg.cube.int4_k_per_cycle
                       : o.dtype == isa::DType::Float ? cfg.cube.float_k_per_cycle
                                                      : cfg.cube.b16_k_per_cycle;
    Cost c = cube(o, k);
    c.macs = c.dense_macs;
    return c;
  }
  Cost operator()(const isa::MmadWithSparse& o) const {
    Cost c = cube(o, cfg.cube.sparse_k_per_cycle);
    c.macs = c.dense_macs / 2;  // two of every four A elements are multiplied
    return c;
  }
  Cost operator()(const isa::Fixpipe& o) const {
    // The engine produces fixpipe.elements_per_cycle output elements a cycle (L0C read and
    // conversion); the GM write path takes its bytes (gm_write.hpp): the slower one bounds, after
    // the per-instruction head.
    const GmWriteCost w = gm_write_cost(o, cfg.gm.write, atomic);
    Cost c;
    c.bytes = moved;
    c.gm_rows = w.rows;
    const double elements = static_cast<double>(uint64_t{o.ndNum} * o.mSize * o.nSize);
    const auto produce = static_cast<uint64_t>(std::ceil(elements / cfg.fixpipe.elements_per_cycle));
    c.fixed = cfg.fixpipe.overhead_cycles + cfg.gm.write.overhead_cycles;
    c.occupancy = c.fixed + std::max(produce, w.cycles);
    c.latency = cfg.fixpipe.latency_cycles + cfg.gm.write.latency_cycles;
    c.port_cycles = produce;  // L0C's read port; the GM write runs beside it
    c.gm_bytes = w.bytes;
    c.gm_rate = w.rate;
    return c;
  }
  Cost sync() const {
    Cost c;
    c.occupancy = cfg.issue.sync_cycles;
    return c;
  }
  Cost operator()(const isa::SetFlag&) const { return sync(); }
  Cost operator()(const isa::WaitFlag&) const { return sync(); }
  Cost operator()(const isa::PipeBarrier&) const { return sync(); }
  Cost operator()(const isa::SyncAll&) const {
    return sync();
  }  // the wait for the other cores: issue_unit.cpp
  Cost operator()(const isa::SetAtomicAdd&) const { return sync(); }
  Cost operator()(const isa::SetAtomicNone&) const { return sync(); }
};

}  // namespace

Cost cost_of(const isa::Op& op, const config::CoreConfig& cfg) {
  return cost_of(op, cfg, isa::bytes_moved(op));
}
Cost cost_of(const isa::Op& op, const config::CoreConfig& cfg, uint64_t moved, bool atomic) {
  return std::visit(CostOf{cfg, moved, atomic}, op);
}

}  // namespace aicore::model
