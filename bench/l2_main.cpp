// bench_l2: host cost of the L2 bookkeeping (model/l2_cache.hpp) per line and per access, on the
// access shapes a 24-core matmul makes with the 910B1 geometry (192 MiB, 512-byte lines of 128-byte
// sectors, 16 ways): the ND2NZ copy of a 128 x 64 fp16 tile (128 rows of 128 B, 16 KiB apart) and
// of a 256 x 64 one from a matrix bigger than the L2 (misses, evictions) or inside it (hits), a
// contiguous 32 KiB copy, and a Fixpipe's 128 rows of 512 B. Items are lines; the "accesses"
// counter is transfers (one GmPort lookup each) per second.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "aicore/model/l2_cache.hpp"

namespace {

using aicore::model::L2Cache;
using aicore::model::L2Geometry;
using aicore::model::L2Outcome;

const L2Geometry k910B1{201326592, 512, 128, 16};

// One transfer: `rows` rows of `row_bytes`, `pitch` apart, from `base`.
struct Shape {
  uint64_t rows, row_bytes, pitch;
};

// Walks a matrix of `matrix_bytes` tile by tile (tiles side by side along the rows, then down),
// from several cores in turn, as the cores of a split matmul read A or B.
void walk(benchmark::State& state, const Shape& t, uint64_t matrix_bytes, bool write) {
  L2Cache l2(k910B1, 24);
  const uint64_t tiles_per_band = t.pitch / t.row_bytes, band = t.rows * t.pitch;
  uint64_t tile = 0, now = 0, lines = 0, accesses = 0;
  L2Outcome o;
  std::vector<aicore::isa::ByteRange> runs(t.rows);  // as the GM port passes them: one call per transfer
  for (uint64_t r = 0; r < t.rows; ++r) runs[r] = {r * t.pitch, r * t.pitch + t.row_bytes};
  for (auto _ : state) {
    const uint64_t bands = matrix_bytes / band;
    const uint64_t b = tile / tiles_per_band % bands, c = tile % tiles_per_band;
    const uint64_t base = b * band + c * t.row_bytes;
    l2.access(runs.data(), runs.size(), base, write, static_cast<uint16_t>(tile % 24), now, now + 500, o);
    ++tile;
    now += 20;
    ++accesses;
  }
  lines = o.lines;
  state.SetItemsProcessed(static_cast<int64_t>(lines));
  state.counters["accesses"] = benchmark::Counter(static_cast<double>(accesses), benchmark::Counter::kIsRate);
  state.counters["hit_rate"] = static_cast<double>(o.hits) / static_cast<double>(lines ? lines : 1);
  benchmark::DoNotOptimize(o);
}

// fp16 8192 x 8192 (128 MiB: fits the 192 MiB L2, re-read it hits) and 16384 x 8192 (256 MiB: does not).
constexpr uint64_t kFits = 8192ull * 8192 * 2, kSpills = 2 * kFits;

void nd2nz_128x64_fits(benchmark::State& s) {
  walk(s, {128, 128, 16384}, kFits, false);
}
void nd2nz_128x64_spills(benchmark::State& s) {
  walk(s, {128, 128, 16384}, kSpills, false);
}
void nd2nz_256x64_fits(benchmark::State& s) {
  walk(s, {256, 128, 16384}, kFits, false);
}
void contiguous_32k(benchmark::State& s) {
  walk(s, {1, 32768, 32768}, kSpills, false);
}
void fixpipe_128x256_fp16(benchmark::State& s) {
  walk(s, {128, 512, 16384}, kFits, true);
}

}  // namespace

BENCHMARK(nd2nz_128x64_fits);
BENCHMARK(nd2nz_128x64_spills);
BENCHMARK(nd2nz_256x64_fits);
BENCHMARK(contiguous_32k);
BENCHMARK(fixpipe_128x256_fp16);
BENCHMARK_MAIN();
