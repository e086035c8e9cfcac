// The example cases shipped in traces/: each parses, replays to its golden, and stays small.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <set>

#include "aicore/trace/npy.hpp"
#include "replay.hpp"

namespace fs = std::filesystem;
using namespace aicore;

namespace {
const fs::path kTraces = AICORE_TRACES_DIR;

std::string trace_of(const std::string& folder) {
  return (kTraces / folder / (folder + ".trace")).string();
}
}  // namespace

TEST_CASE("shipped traces replay to their golden", "[shipped]") {
  for (const char* folder : {"seed_sparse_16x64x16", "sample_sparse_128x64x128", "tiled_sparse_512x1024x512",
                             "pair_sparse_256x512x256", "pair_dense_256x512x256"}) {
    INFO(folder);
    REQUIRE(fs::exists(trace_of(folder)));
    const auto rp = gentest::replay(trace_of(folder));
    CHECK(rp.c == rp.golden);
    uint64_t bytes = 0;
    for (const auto& f : fs::directory_iterator(kTraces / folder)) bytes += f.file_size();
    CHECK(bytes < 2000000);
  }
}

TEST_CASE("the shipped pair differs only in dense vs sparse Cube work", "[shipped]") {
  const auto s = gentest::replay(trace_of("pair_sparse_256x512x256"));
  const auto d = gentest::replay(trace_of("pair_dense_256x512x256"));
  CHECK(s.golden == d.golden);
  const auto count = [](const std::vector<isa::Op>& ops, auto pred) {
    return std::count_if(ops.begin(), ops.end(), pred);
  };
  const auto is = [](auto tag) {
    return [](const isa::Op& o) { return std::holds_alternative<decltype(tag)>(o); };
  };
  CHECK(count(s.ops, is(isa::MmadWithSparse{})) == count(d.ops, is(isa::Mmad{})));
  CHECK(count(s.ops, is(isa::Mmad{})) == 0);
  CHECK(count(d.ops, is(isa::MmadWithSparse{})) == 0);
  for (const auto& o : s.ops)
    if (const auto* m = std::get_if<isa::MmadWithSparse>(&o)) CHECK(m->k == 256);  // original K per chunk
  for (const auto& o : d.ops)
    if (const auto* m = std::get_if<isa::Mmad>(&o)) CHECK(m->k == 256);
}

TEST_CASE("the shipped seed's B covers every row of the 4:2 table of docs/semantics.md", "[shipped]") {
  const auto b = trace::read_npy((kTraces / "seed_sparse_16x64x16" / "b_sparse.npy").string());
  REQUIRE(b.shape == std::vector<uint64_t>{64, 16});
  std::set<int> masks;
  for (uint32_t g = 0; g < 16; ++g)
    for (uint32_t n = 0; n < 16; ++n) {
      int mask = 0;
      for (uint32_t i = 0; i < 4; ++i) mask |= (b.data[(g * 4 + i) * 16 + n] != 0) << i;
      masks.insert(mask);
    }
  CHECK(masks ==
        std::set<int>{0b0011, 0b0101, 0b1001, 0b0110, 0b1010, 0b1100, 0b0001, 0b0010, 0b0100, 0b1000, 0});
}
