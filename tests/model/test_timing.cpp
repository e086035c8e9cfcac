// Per-instruction cost at the boundaries of each published figure (docs/sources.md [perf], [loaddata],
// [fixpipe], [gm]), on a config whose numbers are written out here (not read from the presets), so a wrong
// formula cannot hide behind a wrong preset and vice versa.
#include <catch2/catch.hpp>

#include "aicore/model/gm_write.hpp"
#include "aicore/model/timing.hpp"

using namespace aicore;
using isa::Space;

namespace {

config::Config published() {
  config::Config c;
  c.clock_mhz = 1850;
  c.gm.read.bytes_per_cycle = 150;
  c.gm.read.latency_cycles = 300;
  c.gm.write.bytes_per_cycle = 128;
  c.gm.write.latency_cycles = 300;
  c.gm.write.align_bytes = 512;
  c.gm.write.unaligned_cost = 2;
  c.gm.shared_bytes_per_cycle = 256;
  c.mte1.to_l0a = {256, 0, 28};
  c.mte1.to_l0b = {128, 0, 28};
  c.mte1.to_bt = {128, 0, 28};  // as tests/published.yaml
  c.mte1.sparse = {128, 0, 30};
  c.cube = {32, 16, 64, 4, 0, 0, 4, 64};
  c.fixpipe = {64, 20, 0};
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

TEST_CASE("LoadData3DV2: LoadData 2D's path of its destination for the bytes written (t-1 / t)",
          "[timing][mte1]") {
  auto cfg = published();
  isa::LoadData3DV2 l;
  l.dst = {Space::L0A, 0, 0};
  l.src = {Space::L1, 0, 0};
  l.l1H = 1, l.l1W = 32, l.channelSize = 64, l.kExtension = 64, l.mExtension = 32;  // 32 x 64 half: 4096 B
  CHECK(model::cost_of(l, cfg).bytes == 4096);
  CHECK(model::cost_of(l, cfg).occupancy == 16);  // 256 B/cycle
  CHECK(model::cost_of(l, cfg).latency == 28);
  l.kExtension = 48;  // 3072 B
  CHECK(model::cost_of(l, cfg).occupancy == 12);
  l.kExtension = 64;
  cfg.mte1.to_l0a.bytes_per_cycle = 255;  // 4096 / 255 = 16.06 -> 17
  CHECK(model::cost_of(l, cfg).occupancy == 17);
  cfg.mte1.to_l0a.overhead_cycles += 1;
  CHECK(model::cost_of(l, cfg).occupancy == 18);
  cfg.mte1.to_l0a.latency_cycles += 1;
  CHECK(model::cost_of(l, cfg).latency == 29);
  l.dst.space = Space::L0B;  // 128 B/cycle
  CHECK(model::cost_of(l, cfg).occupancy == 32);
  l.mExtension = 0;  // a no-op moves nothing
  CHECK(model::cost_of(l, cfg).bytes == 0);
}

TEST_CASE("LoadDataWithTranspose: LoadData 2D's path of its destination for the fractals written (t-1 / t)",
          "[timing][mte1]") {
  auto cfg = published();
  isa::LoadDataWithTranspose l;
  l.dst = {Space::L0A, 0, 0};
  l.src = {Space::L1, 0, 0};
  l.dtype = isa::DType::Int8;
  l.repeatTimes = 4;  // 4 squares of 2 fractals: 4096 B
  CHECK(model::cost_of(l, cfg).bytes == 4096);
  CHECK(model::cost_of(l, cfg).occupancy == 16);  // 256 B/cycle
  CHECK(model::cost_of(l, cfg).latency == 28);
  l.dtype = isa::DType::Half;  // 1 fractal a square: 2048 B
  CHECK(model::cost_of(l, cfg).occupancy == 8);
  l.dtype = isa::DType::Float;  // 2 again, whatever the gaps
  l.dstGap = 3, l.dstFracGap = 5, l.srcStride = 7;
  CHECK(model::cost_of(l, cfg).occupancy == 16);
  cfg.mte1.to_l0a.bytes_per_cycle = 255;  // 4096 / 255 = 16.06 -> 17
  CHECK(model::cost_of(l, cfg).occupancy == 17);
  cfg.mte1.to_l0a.overhead_cycles += 1;
  CHECK(model::cost_of(l, cfg).occupancy == 18);
  cfg.mte1.to_l0a.latency_cycles += 1;
  CHECK(model::cost_of(l, cfg).latency == 29);
  l.dst.space = Space::L0B;  // 128 B/cycle
  CHECK(model::cost_of(l, cfg).occupancy == 32);
  l.repeatTimes = 0;  // moves nothing
  CHECK(model::cost_of(l, cfg).bytes == 0);
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
  // float x float: cube.float_k_per_cycle (4, assumed) K a cycle per fractal pair (t-1 / t).
  auto f32 = mm<isa::Mmad>(17, 16, 64);
  f32.dtype = isa::DType::Float;
  CHECK(model::cost_of(f32, cfg).occupancy == 2 * 16 + 4);
  f32.k = 65;
  CHECK(model::cost_of(f32, cfg).occupancy == 2 * 17 + 4);
  auto slower = cfg;
  slower.cube.float_k_per_cycle = 3;
  CHECK(model::cost_of(f32, slower).occupancy == 2 * 22 + 4);
  CHECK(model::cost_of(f32, cfg).dense_macs == 17 * 16 * 65);
  // int4 x int4: cube.int4_k_per_cycle (64, assumed) K a cycle per fractal pair; K 128 / 129 is
  // the t-1 / t boundary of a K fractal, and a rate of one less moves it.
  auto i4 = mm<isa::Mmad>(17, 33, 128);
  i4.dtype = isa::DType::Int4;
  CHECK(model::cost_of(i4, cfg).occupancy == 2 * 3 * 2 + 4);
  i4.k = 129;
  CHECK(model::cost_of(i4, cfg).occupancy == 2 * 3 * 3 + 4);
  i4.k = 128;
  auto slower4 = cfg;
  slower4.cube.int4_k_per_cycle = 63;
  CHECK(model::cost_of(i4, slower4).occupancy == 2 * 3 * 3 + 4);
  CHECK(model::cost_of(i4, cfg).dense_macs == 17 * 33 * 128);
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

TEST_CASE("DataCopyL1ToBT: the table bytes at mte1.to_bt's rate, its overhead and latency (t-1 / t)",
          "[timing][mte1][bias]") {
  auto cfg = published();  // to_bt: 128 B/cycle, overhead 0, latency 28 (assumed: as L1 -> L0B)
  isa::DataCopyL1ToBT bt;
  bt.dst = {Space::BiasTable, 0, 0};
  bt.src = {Space::L1, 0, 0};
  bt.blockLen = 2;  // 128 table bytes: 1 cycle exactly
  CHECK(model::cost_of(bt, cfg).occupancy == 1);
  CHECK(model::cost_of(bt, cfg).bytes == 128);
  bt.blockLen = 3;  // 192 bytes -> 1.5 -> 2
  CHECK(model::cost_of(bt, cfg).occupancy == 2);
  bt.convControl = true;  // the table bytes are charged, not the half-size L1 read
  CHECK(model::cost_of(bt, cfg).occupancy == 2);
  CHECK(model::cost_of(bt, cfg).latency == 28);
  cfg.mte1.to_bt.overhead_cycles = 3;
  cfg.mte1.to_bt.latency_cycles = 29;
  CHECK(model::cost_of(bt, cfg).occupancy == 5);
  CHECK(model::cost_of(bt, cfg).latency == 29);
  cfg.mte1.to_bt.bytes_per_cycle = 192;  // 192 bytes at 192 B/cycle: 1 cycle (t), at 191: 2 (t-1)
  CHECK(model::cost_of(bt, cfg).occupancy == 3 + 1);
  cfg.mte1.to_bt.bytes_per_cycle = 191;
  CHECK(model::cost_of(bt, cfg).occupancy == 3 + 2);
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
  fx.mSize = 16;  // 256 int32 = 1024 B: 4 cycles of elements, 8 of GM bytes, after the 20-cycle head
  fx.srcStride = 16;
  fx.dstStride = 16;
  CHECK(model::cost_of(fx, cfg).occupancy == 20 + 8);
  CHECK(model::cost_of(fx, cfg).latency == 300);
}

TEST_CASE("Fixpipe: head + max(output elements at 64/cycle, output bytes at 128 B/cycle)", "[timing][fix]") {
  auto cfg = published();
  isa::Fixpipe fx;
  fx.nSize = 256;
  fx.mSize = 128;
  fx.srcStride = 128;
  fx.dstStride = 512;  // a 128 x 256 int32 tile of a wider C, rows 2 KiB apart: no per-row cost
  CHECK(model::cost_of(fx, cfg).occupancy == 20 + 1024);
  CHECK(model::cost_of(fx, cfg).port_cycles == 512);  // the L0C read port: elements
  CHECK(model::cost_of(fx, cfg).bytes == 131072);
  fx.dtype = isa::DType::Float;
  fx.quantPre = isa::QuantMode::F322F16;  // half out: 64 elements and 128 B a cycle agree
  CHECK(model::cost_of(fx, cfg).occupancy == 20 + 512);
  CHECK(model::cost_of(fx, cfg).bytes == 65536);
  fx.quantPre = isa::QuantMode::QF322B8_PRE;  // int8 out: the element rate binds, not the bytes
  CHECK(model::cost_of(fx, cfg).occupancy == 20 + 512);
  CHECK(model::cost_of(fx, cfg).bytes == 32768);
  // t-1 / t of each key.
  fx.quantPre = isa::QuantMode::NoQuant;
  cfg.fixpipe.overhead_cycles = 19;
  CHECK(model::cost_of(fx, cfg).occupancy == 19 + 1024);
  cfg.fixpipe.overhead_cycles = 20;
  cfg.gm.write.bytes_per_cycle = 127;  // 131072 / 127 = 1032.06 -> 1033
  CHECK(model::cost_of(fx, cfg).occupancy == 20 + 1033);
  cfg.gm.write.bytes_per_cycle = 256;  // now the 32768 elements at 64 a cycle bind
  CHECK(model::cost_of(fx, cfg).occupancy == 20 + 512);
  cfg.fixpipe.elements_per_cycle = 63;  // 520.1 -> 521
  CHECK(model::cost_of(fx, cfg).occupancy == 20 + 521);
}

TEST_CASE("Fixpipe: rows starting off gm.write.align_bytes cost unaligned_cost per byte", "[timing][fix]") {
  auto cfg = published();
  isa::Fixpipe fx;
  fx.nSize = 128;
  fx.mSize = 4;
  fx.srcStride = 16;
  fx.dstStride = 128;  // 512-byte rows, contiguous
  fx.dst.offset = 0;
  CHECK(model::cost_of(fx, cfg).occupancy == 20 + 16);
  fx.dst.offset = 64;  // every row starts 64 bytes off: 2048 B count double
  CHECK(model::cost_of(fx, cfg).occupancy == 20 + 32);
  CHECK(model::cost_of(fx, cfg).gm_rate == Approx(64.0));  // the write's own rate halves
  fx.dst.offset = 0;
  fx.dstStride = 192;  // rows 768 B apart: 0, 768, 1536, 2304 -> rows 1 and 3 off 512
  CHECK(model::cost_of(fx, cfg).occupancy == 20 + 24);
  cfg.gm.write.unaligned_cost = 3;  // t / t+1: 2048 + 2 x 512 x 2 extra = 4096 B
  CHECK(model::cost_of(fx, cfg).occupancy == 20 + 32);
  cfg.gm.write.align_bytes = 256;  // 768 is a multiple of 256: all aligned
  CHECK(model::cost_of(fx, cfg).occupancy == 20 + 16);
  cfg.gm.write.align_bytes = 1;  // the rule off
  fx.dst.offset = 3;
  CHECK(model::cost_of(fx, cfg).occupancy == 20 + 16);
}

TEST_CASE("Fixpipe NZ output: one GM run per 16-column block, or one when the blocks follow each other",
          "[timing][fix]") {
  auto cfg = published();
  isa::Fixpipe fx;
  fx.nz = true;
  fx.nSize = 64;  // 4 blocks
  fx.mSize = 8;
  fx.srcStride = 16;
  fx.dstStride = 16;  // 512 B apart = 8 rows x 64 B: contiguous, one run
  CHECK(model::gm_write_cost(fx, cfg.gm.write).rows == 1);
  CHECK(model::cost_of(fx, cfg).occupancy == 20 + 16);  // 2048 B at 128 B/cycle
  fx.dst.offset = 64;                                   // the one run off 512: all 2048 B count double
  CHECK(model::cost_of(fx, cfg).occupancy == 20 + 32);
  fx.dst.offset = 0;
  fx.dstStride = 24;  // blocks 768 B apart: 0, 768, 1536, 2304 -> blocks 1 and 3 off 512
  CHECK(model::gm_write_cost(fx, cfg.gm.write).rows == 4);
  CHECK(model::gm_write_cost(fx, cfg.gm.write).unaligned_rows == 2);
  CHECK(model::cost_of(fx, cfg).occupancy == 20 + 24);
  CHECK(model::cost_of(fx, cfg).bytes == 2048);
}

TEST_CASE("GM rows: a read's own rate falls by row_cycles per row after the first", "[timing][mte2]") {
  auto cfg = published();
  config::GmRead p = cfg.gm.read;
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

TEST_CASE("aligned_starts counts aligned row starts exactly (against a plain loop)", "[timing][fix]") {
  for (uint64_t align : {1u, 2u, 32u, 96u, 512u, 4096u})
    for (uint64_t first : {0u, 1u, 64u, 256u, 511u, 3000u})
      for (uint64_t step : {0u, 1u, 32u, 64u, 96u, 384u, 512u, 768u, 1000u, 2048u})
        for (uint64_t count : {0u, 1u, 7u, 128u, 1000u}) {
          uint64_t want = 0;
          for (uint64_t j = 0; j < count; ++j) want += (first + j * step) % align == 0;
          INFO("first " << first << " step " << step << " count " << count << " align " << align);
          REQUIRE(model::aligned_starts(first, step, count, align) == want);
        }
  // ndNum matrices: each starts dstNdStride elements after the last, its rows counted alike.
  auto cfg = published();
  isa::Fixpipe fx;
  fx.nSize = 16;
  fx.mSize = 3;
  fx.srcStride = 16;
  fx.dstStride = 128;  // 512 B apart (int32)
  fx.ndNum = 2;
  fx.srcNdStride = 1;
  fx.dstNdStride = 8;  // the second matrix starts 32 B off
  const model::GmWriteCost w = model::gm_write_cost(fx, cfg.gm.write);
  CHECK(w.rows == 6);
  CHECK(w.unaligned_rows == 3);
  CHECK(w.weighted_bytes == 6 * 64 + 3 * 64);
}
