// Per-instruction cost at the boundaries of each published figure (docs/sources.md [perf], [loaddata],
// [fixpipe], [gm]), on a config whose numbers are written out here (not read from the presets), so a wrong
// formula cannot hide behind a wrong preset and vice versa.
#include <catch2/catch.hpp>

#include "aicore/model/timing.hpp"

using namespace aicore;
using isa::Space;

namespace {

config::Config published() {
  config::Config c;
  c.clock_mhz = 1850;
  c.gm.read = {150, 0, 300};
  c.gm.write = {128, 0, 300};
  c.gm.shared_bytes_per_cycle = 256;
  c.mte1.to_l0a = {256, 0, 28};
  c.mte1.to_l0b = {128, 0, 28};
  c.mte1.sparse = {128, 0, 30};
  c.cube = {32, 16, 64, 4, 0};
  c.fixpipe = {64, 0, 0};
  c.issue.sync_cycles = 1;
  return c;
}

isa::LoadData load(Space dst, uint8_t repeat) {
  isa::LoadData ld;
  ld.dst = {dst, 0, 0};
  ld.src = {Space::L1, 0, 0};
  ld.repeatTimes = repeat;
  return ld;
}

template <class T>
T mm(uint16_t m, uint16_t n, uint16_t k) {
  T op;
  op.m = m;
  op.n = n;
  op.k = k;
  return op;
}

}  // namespace

TEST_CASE("LoadData to L0A: 256 B/cycle + 28 latency", "[timing][mte1]") {
  const auto cfg = published();
  const auto c = model::cost_of(load(Space::L0A, 3), cfg);  // 1536 B
  CHECK(c.occupancy == 6);
  CHECK(c.latency == 28);
  CHECK(c.bytes == 1536);
}

TEST_CASE("LoadData to L0B: 128 B/cycle + 28, LoadDataWithSparse 128 B/cycle + 30", "[timing][mte1]") {
  const auto cfg = published();
  CHECK(model::cost_of(load(Space::L0B, 1), cfg).occupancy == 4);
  CHECK(model::cost_of(load(Space::L0B, 1), cfg).latency == 28);
  isa::LoadDataWithSparse s;
  s.dst = {Space::L0B, 0, 0};
  s.repeatTimes = 2;
  CHECK(model::cost_of(s, cfg).occupancy == 8);
  CHECK(model::cost_of(s, cfg).latency == 30);
}

TEST_CASE("Cube cycles: dense int8 K/32, half K/16, sparse K/64 per fractal pair, plus head",
          "[timing][cube]") {
  const auto cfg = published();
  // ceil(M/16) * ceil(N/16) * ceil(K/32) + head: 2 * 3 * 2 + 4
  CHECK(model::cost_of(mm<isa::Mmad>(17, 33, 64), cfg).occupancy == 2 * 3 * 2 + 4);
  CHECK(model::cost_of(mm<isa::Mmad>(16, 16, 65), cfg).occupancy == 3 + 4);  // K boundary: 64 -> 2, 65 -> 3
  CHECK(model::cost_of(mm<isa::Mmad>(16, 16, 64), cfg).occupancy == 2 + 4);
  auto half = mm<isa::Mmad>(16, 16, 64);
  half.dtype = isa::DType::Half;
  CHECK(model::cost_of(half, cfg).occupancy == 4 + 4);
  // Sparse: K the original K, 64 per cycle.
  CHECK(model::cost_of(mm<isa::MmadWithSparse>(16, 16, 64), cfg).occupancy == 1 + 4);
  CHECK(model::cost_of(mm<isa::MmadWithSparse>(16, 16, 68), cfg).occupancy == 2 + 4);
  CHECK(model::cost_of(mm<isa::MmadWithSparse>(128, 128, 64), cfg).occupancy == 64 + 4);
  // Sparse does half the MACs of dense for the same dense-equivalent work.
  const auto sp = model::cost_of(mm<isa::MmadWithSparse>(16, 16, 64), cfg);
  CHECK(sp.dense_macs == 16 * 16 * 64);
  CHECK(sp.macs == 16 * 16 * 32);
  CHECK(model::cost_of(mm<isa::Mmad>(0, 16, 64), cfg).occupancy == 4);  // no-op still pays the head
}

TEST_CASE("every timing value moves the cost by exactly its change (t-1 / t)", "[timing][config]") {
  auto cfg = published();
  const auto base_a = model::cost_of(load(Space::L0A, 1), cfg);
  cfg.mte1.to_l0a.latency_cycles += 1;
  cfg.mte1.to_l0a.overhead_cycles += 2;
  const auto moved = model::cost_of(load(Space::L0A, 1), cfg);
  CHECK(moved.latency == base_a.latency + 1);
  CHECK(moved.occupancy == base_a.occupancy + 2);
  cfg = published();
  cfg.cube.head_cycles = 5;
  CHECK(model::cost_of(mm<isa::MmadWithSparse>(16, 16, 64), cfg).occupancy == 1 + 5);
  cfg.cube.sparse_k_per_cycle = 32;  // a what-if: sparse no faster than dense
  CHECK(model::cost_of(mm<isa::MmadWithSparse>(16, 16, 64), cfg).occupancy == 2 + 5);
}

TEST_CASE("DataCopy and Fixpipe costs", "[timing][mte2][fix]") {
  const auto cfg = published();
  isa::DataCopy dc;
  dc.blockLen = 75;  // 2400 B at 150 B/cycle = 16 cycles exactly
  CHECK(model::cost_of(dc, cfg).occupancy == 16);
  dc.blockLen = 76;  // 2432 B -> 16.2 -> 17
  CHECK(model::cost_of(dc, cfg).occupancy == 17);
  CHECK(model::cost_of(dc, cfg).latency == 300);
  isa::Fixpipe fx;
  fx.nSize = 16;
  fx.mSize = 16;  // 256 elements = 1024 B: L0C side 4 cycles, GM side 8 cycles -> 8
  CHECK(model::cost_of(fx, cfg).occupancy == 8);
  CHECK(model::cost_of(fx, cfg).latency == 300);
}

TEST_CASE("GM rows: a transfer's own rate falls by row_cycles per row after the first",
          "[timing][mte2][fix]") {
  auto cfg = published();
  config::GmPath p = cfg.gm.read;
  p.row_cycles = 2;
  CHECK(model::gm_row_rate(1500, 1, p) == 150);  // one run: the path's rate
  CHECK(model::gm_row_rate(1500, 11, p) == Approx(1500.0 / (10 + 20)));
  p.row_cycles = 0;
  CHECK(model::gm_row_rate(1500, 11, p) == 150);  // the key off: as published
  cfg.gm.read.row_cycles = 2;
  isa::DataCopyNd2Nz nd;
  nd.nValue = 4;
  nd.dValue = 75;  // 75 int8 = 3 blocks of 32 B per row: 96 B moved per row
  nd.srcDValue = 1000;
  nd.dstNzC0Stride = 16;
  // 384 B at 150 B/cycle = 2.56, + 3 rows x 2 = 8.56 -> 9 cycles, the L1 port held as long.
  CHECK(model::cost_of(nd, cfg).occupancy == 9);
  CHECK(model::cost_of(nd, cfg).gm_rows == 4);
  nd.srcDValue = 75;  // rows follow each other in GM: one run
  CHECK(model::cost_of(nd, cfg).gm_rows == 1);
  CHECK(model::cost_of(nd, cfg).occupancy == 3);
  nd.nValue = 1;  // one row per matrix; two matrices joined when the second starts where the first ends
  nd.ndNum = 2;
  nd.srcNdMatrixStride = 75;
  nd.dstNzMatrixStride = 512;
  CHECK(model::cost_of(nd, cfg).gm_rows == 1);
  nd.srcNdMatrixStride = 80;
  CHECK(model::cost_of(nd, cfg).gm_rows == 2);
  cfg.gm.write.row_cycles = 3;
  isa::Fixpipe fx;
  fx.nSize = 16;
  fx.mSize = 4;
  fx.srcStride = 16;
  fx.dstStride = 16;  // rows contiguous in GM: 256 B at 128 B/cycle
  CHECK(model::cost_of(fx, cfg).occupancy == 2);
  fx.dstStride = 48;  // 4 runs: 2 + 3 x 3
  CHECK(model::cost_of(fx, cfg).occupancy == 11);
}

TEST_CASE("Cube: the head is the cold part of the occupancy, the fixed cost comes on top", "[timing][cube]") {
  auto cfg = published();
  cfg.cube.fixed_cycles = 1.5;
  const auto c = model::cost_of(mm<isa::Mmad>(16, 16, 64), cfg);
  CHECK(c.occupancy == 2 + 4);  // an isolated (cold) Mmad: the published formula plus the head
  CHECK(c.head == 4);           // what the M pipe hides when Mmads follow each other (engine.hpp)
  CHECK(c.extra == 1.5);        // added, in exact time, by the pipe
  cfg.cube.head_cycles = 0;
  CHECK(model::cost_of(mm<isa::MmadWithSparse>(16, 16, 64), cfg).head == 0);
}
