// The GM -> L1 streaming kernel (gen/stream.hpp): every byte of the matrix read `rounds` times
// over all cores, slices in turn, flags that pair up, and the errors.
#include <catch2/catch.hpp>

#include <algorithm>

#include "aicore/common/error.hpp"
#include "aicore/gen/stream.hpp"
#include "machine.hpp"

using namespace aicore;

namespace {

// How often each element of the matrix is read, from the copies' fields (rows of dValue elements,
// srcDValue apart), over all cores; and each core's copies in order.
std::vector<int> reads(const gen::StreamShape& s,
                       std::vector<std::vector<isa::DataCopyNd2Nz>>* per_core = nullptr) {
  std::vector<int> n(uint64_t{s.rows} * s.cols, 0);
  for (uint32_t c = 0; c < s.cores; ++c) {
    std::vector<isa::DataCopyNd2Nz> mine;
    for (const auto& e : gen::emit_stream(s, c))
      if (const auto* d = std::get_if<isa::DataCopyNd2Nz>(&e.op)) {
        mine.push_back(*d);
        const uint64_t first = d->src.offset / 2;
        for (uint64_t r = 0; r < d->nValue; ++r)
          for (uint64_t j = 0; j < d->dValue; ++j) ++n[first + r * d->srcDValue + j];
      }
    if (per_core) per_core->push_back(mine);
  }
  return n;
}

std::string err_of(const gen::StreamShape& s) {
  try {
    gen::check_stream(s);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("stream: every element read once per round, tiles dealt to the cores in runs", "[gen][stream]") {
  // 64 x 100 in 16 x 32 tiles: 4 tile rows x 4 tile columns (the last 4 wide), 16 tiles on 3
  // cores: 5, 5 and 6 tiles.
  gen::StreamShape s{64, 100, 16, 32, 3, 2, 1};
  gen::check_stream(s);
  std::vector<std::vector<isa::DataCopyNd2Nz>> copies;
  const std::vector<int> n = reads(s, &copies);
  CHECK(std::all_of(n.begin(), n.end(), [](int x) { return x == 2; }));
  REQUIRE(copies.size() == 3);
  CHECK(copies[0].size() == 2 * 5);
  CHECK(copies[1].size() == 2 * 5);
  CHECK(copies[2].size() == 2 * 6);
  CHECK(copies[0][3].dValue == 4);                 // tile 3: the last tile column, 100 - 96 columns
  CHECK(copies[0][4].src.offset == 16 * 100 * 2);  // tile 4: the second tile row's first tile
  CHECK(copies[0][5].src.offset == 0);             // round 2 starts again
  CHECK(copies[0][0].dst.offset == 0);
  CHECK(copies[0][1].dst.offset == 16 * 32 * 2);  // the other slot
  for (uint32_t c = 0; c < 3; ++c)
    CHECK(gentest::check_flags_in_order(gentest::ops_of(gen::emit_stream(s, c))).empty());
}

TEST_CASE("stream: slices are read every round before the next slice", "[gen][stream]") {
  // 32 x 128 in 16 x 32 tiles: 4 tile columns in 2 slices of 2; 2 rounds; one core.
  gen::StreamShape s{32, 128, 16, 32, 1, 2, 2};
  std::vector<std::vector<isa::DataCopyNd2Nz>> copies;
  const std::vector<int> n = reads(s, &copies);
  CHECK(std::all_of(n.begin(), n.end(), [](int x) { return x == 2; }));
  REQUIRE(copies[0].size() == 16);
  // The first 8 copies (slice 0 twice) read only columns 0..63.
  for (int i = 0; i < 8; ++i) CHECK(copies[0][i].src.offset / 2 % 128 < 64);
  for (int i = 8; i < 16; ++i) CHECK(copies[0][i].src.offset / 2 % 128 >= 64);
}

TEST_CASE("stream: errors name the option and the limit", "[gen][stream]") {
  CHECK(err_of({64, 100, 16, 24, 1, 1, 1}) ==
        "gen: error: --tile RxC must be multiples of 16 in 16..4080 (got 16x24)");
  CHECK(err_of({60, 100, 16, 32, 1, 1, 1}) == "gen: error: --m 60 must be a multiple of the tile's 16 rows");
  CHECK(err_of({512, 4096, 256, 528, 1, 1, 1}) ==
        "gen: error: a 256x528 fp16 tile needs 264 KiB of L1, twice (two slots): more than its 512 KiB");
  CHECK(err_of({32, 64, 16, 32, 5, 1, 1}) ==
        "gen: error: slice 0 has 4 tiles for 5 cores: every core needs at least one; use smaller tiles or "
        "fewer "
        "slices");
  CHECK(err_of({0, 64, 16, 32, 1, 1, 1}) ==
        "gen: error: --m and --n (the matrix's rows and columns) are required");
  CHECK(err_of({32, 70000, 16, 32, 1, 1, 1}) ==
        "gen: error: --n is limited to 65535 (DataCopyNd2Nz srcDValue is 16 bits)");
  CHECK(err_of({32, 64, 16, 32, 1, 0, 1}) == "gen: error: --rounds must be at least 1");
  CHECK(err_of({32, 64, 16, 32, 1, 1, 3}) ==
        "gen: error: --slices must be in 1..2 (whole tile columns per slice)");
}
