// Tile selection: single tile when the problem fits, valid double-buffered tiles otherwise,
// and clear errors for impossible requests.
#include <catch2/catch.hpp>

#include "aicore/common/error.hpp"
#include "aicore/gen/gemm.hpp"

using namespace aicore;
using Catch::Matchers::Contains;

TEST_CASE("problems that fit the buffers get one tile", "[gen][plan]") {
  for (auto s :
       {gen::GemmShape{16, 64, 16, true}, {128, 64, 128, true}, {20, 68, 30, true}, {128, 256, 128, false}}) {
    const auto p = gen::make_plan(s);
    CHECK(p.steps() == 1);
    CHECK_FALSE(p.double_buffered);
    CHECK_FALSE(p.l0c_double);
  }
}

TEST_CASE("larger problems are tiled 128x128x256 and double-buffered", "[gen][plan]") {
  const auto p = gen::make_plan({512, 1024, 512, true});
  CHECK((p.tm == 128 && p.tn == 128 && p.tk == 256));
  CHECK((p.m_tiles == 4 && p.n_tiles == 4 && p.k_chunks == 4));
  CHECK(p.double_buffered);
  CHECK(p.l0c_double);
  const auto q = gen::make_plan({256, 512, 256, false});
  CHECK(q.steps() == 8);
  // k = 4096 exceeds the Mmad field even though L0A/L0B would hold it.
  CHECK(gen::make_plan({16, 4096, 16, true}).steps() > 1);
}

TEST_CASE("GM image sizes", "[gen][plan]") {
  const auto p = gen::make_plan({20, 68, 30, true});
  CHECK(gen::gm_bytes_a(p) == 20 * 68);
  CHECK(gen::gm_bytes_b(p) == 2 * 2 * 512);  // B' 34 x 30 -> 2 x 2 fractals
  CHECK(gen::gm_bytes_idx(p) == 2 * 2 * 128);
  CHECK(gen::gm_bytes_c(p) == 20 * 32 * 4);
  CHECK(gen::gm_names(p) == std::vector<std::string>{"a", "b", "idx", "c"});
  const auto d = gen::make_plan({20, 68, 30, false});
  CHECK(gen::gm_bytes_b(d) == 3 * 2 * 512);
  CHECK(gen::gm_index_c(d) == 2);
}

TEST_CASE("impossible shapes and tiles are input errors", "[gen][plan]") {
  CHECK_THROWS_WITH(gen::make_plan({16, 66, 16, true}), Contains("multiple of 4"));
  CHECK_THROWS_WITH(gen::make_plan({16, 64, 16, true}, {20, 0, 0}),
                    Contains("--tile-m must be a multiple of 16"));
  CHECK_THROWS_WITH(gen::make_plan({64, 256, 64, true}, {0, 0, 32}),
                    Contains("--tile-k must be a multiple of 64"));
  CHECK_THROWS_WITH(gen::make_plan({1024, 1024, 64, true}, {256, 0, 512}),
                    Contains("A tile needs 128 KiB of L0A, 32 KiB available"));
  CHECK_THROWS_WITH(gen::make_plan({512, 256, 512, false}, {128, 256, 64}), Contains("of L0C"));
  CHECK_THROWS_AS(gen::make_plan({0, 64, 16, true}), InputError);
  CHECK_THROWS_WITH(gen::make_plan({16, 70000, 16, false}), Contains("65535"));
}
