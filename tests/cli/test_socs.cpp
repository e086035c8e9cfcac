// The SoC presets against each other on the same best-practice kernel (docs/configuration.md,
// "SoCs"): 910B4 (20 cores at 1500 MHz, 96 MiB of L2) is slower than 910B1 (24 at 1850, 192 MiB)
// by about the clock and core ratios (1850 / 1500 x 24 / 20 = 1.48) when the Cube bounds the
// kernel, and by more when its 128 MiB of inputs no longer fit the L2; 910_9391 (an A3 die) times
// exactly as 910B1. Each SoC runs the kernel on all its cores (C split 4 x 6 or 4 x 5).
#include <catch2/catch.hpp>

#include <fstream>

#include "harness.hpp"

using harness::TempDir;

namespace {

struct Chip {
  double us = 0, hit = 0;
  uint64_t cycles = 0, hbm_read = 0;
};

Chip run(const TempDir& d, const std::string& shape, const std::string& soc, bool twenty) {
  const std::string dir = d.file(soc + (twenty ? "20" : "24"));
  const auto g = harness::run("gen --dtype half " + shape + " --a-load load3d --timing-only --cores " +
                              (twenty ? "20 --split 4x5" : "24 --split 4x6") + " --out " + dir);
  REQUIRE(g.status == 0);
  const auto r = harness::run("run " + dir + "/kernel.yaml --config " + soc +
                              " --timing-only -q --check none --out " + dir + "/out");
  INFO(r.err);
  REQUIRE(r.status == 0);
  std::ifstream f(dir + "/out/stats.json");
  const auto j = nlohmann::json::parse(f);
  Chip c;
  c.cycles = j["cycles"].get<uint64_t>();
  c.us = j["time_us"].get<double>();
  c.hit = j["chip"]["l2"]["read_hit_rate"].get<double>();
  c.hbm_read = j["chip"]["l2"]["hbm_read_bytes"].get<uint64_t>();
  return c;
}

}  // namespace

TEST_CASE("SoCs: 910B4 is slower by the clock and cores when Cube-bound, more when L2-bound, 9391 as B1",
          "[cli][chip][socs]") {
  TempDir d;
  // Cube-bound: MDL big packets, 4096^3 (A and B 32 MiB each: they fit either L2).
  const std::string cube =
      "--m 4096 --k 4096 --n 4096 --template mdl --step-ka 8 --depth-a1 16 --step-kb 4 --depth-b1 8";
  const Chip b1 = run(d, cube, "ascend910b1", false), b4 = run(d, cube, "ascend910b4", true),
             a3 = run(d, cube, "ascend910_9391", false);
  const double cube_ratio = b4.us / b1.us;
  CHECK(cube_ratio > 1.40);
  CHECK(cube_ratio < 1.60);
  CHECK(a3.cycles == b1.cycles);
  CHECK(a3.us == Approx(b1.us));
  // L2-bound: the NORM kernel over 4096 x 8192 x 4096 reads 128 MiB of A and B: within 910B1's
  // 192 MiB L2, beyond 910B4's 96 MiB, whose cores then refetch from HBM.
  const std::string l2 = "--m 4096 --k 8192 --n 4096";
  const Chip l1 = run(d, l2, "ascend910b1", false), l4 = run(d, l2, "ascend910b4", true);
  CHECK(l4.us / l1.us > cube_ratio + 0.03);
  CHECK(l4.hit < l1.hit - 0.02);
  CHECK(l4.hbm_read > 3 * l1.hbm_read / 2);
}
