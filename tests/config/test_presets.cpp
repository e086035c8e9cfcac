// The presets hold the published figures of docs/sources.md (asserted as literal numbers).
#include <cstdlib>

#include "helpers.hpp"

using namespace aicore::config;

TEST_CASE("presets hold the published arch-2201 figures", "[config][preset]") {
  const std::string preset = GENERATE(as<std::string>{}, "atlas-a2", "atlas-a3");
  CAPTURE(preset);
  const Config c = load(preset, {}, default_configs_dir());
  CHECK(c.name == preset);

  CHECK(c.clock_mhz == 1850);  // §9: 910B1 (and 910_9391 per die)

  // §1 buffer sizes.
  CHECK(c.buffers.l1_bytes == 512 * 1024);
  CHECK(c.buffers.l1_banks == 16);
  CHECK(c.buffers.l1_bytes / c.buffers.l1_banks == 32 * 1024);
  CHECK(c.buffers.l0a_bytes == 64 * 1024);
  CHECK(c.buffers.l0b_bytes == 64 * 1024);
  CHECK(c.buffers.l0c_bytes == 128 * 1024);
  CHECK(c.buffers.sparse_index_bytes == 16 * 1024);

  // §9 Cube: 16x16x32 int8, 16x16x16 b16, sparse ceil(K/64) with K the original K.
  CHECK(c.cube.int8_k_per_cycle == 32);
  CHECK(c.cube.b16_k_per_cycle == 16);
  CHECK(c.cube.sparse_k_per_cycle == 64);

  // §9 MTE1.
  CHECK(c.mte1.to_l0a.bytes_per_cycle == 256);
  CHECK(c.mte1.to_l0a.latency_cycles == 28);
  CHECK(c.mte1.to_l0b.bytes_per_cycle == 128);
  CHECK(c.mte1.to_l0b.latency_cycles == 28);
  CHECK(c.mte1.sparse.bytes_per_cycle == 128);
  CHECK(c.mte1.sparse.latency_cycles == 30);

  // §9 FIX and GM: 64 elements/cycle, ~128 B/cycle write, 256 B/cycle port, measured 150-160 read.
  CHECK(c.fixpipe.elements_per_cycle == 64);
  CHECK(c.gm.write.bytes_per_cycle == 128);
  CHECK(c.gm.shared_bytes_per_cycle == 256);
  // The read keys are fitted to measured copies (calibration/): a 480 KiB copy, fixed cost included,
  // reaches the measured per-core peak, and no stream beats the port.
  const double big = 480 * 1024;
  const double rate =
      big / (c.gm.read.overhead_cycles + c.gm.read.latency_cycles + big / c.gm.read.bytes_per_cycle);
  CHECK(rate >= 150);
  CHECK(rate <= 170);
  CHECK(c.gm.read.bytes_per_cycle <= c.gm.shared_bytes_per_cycle);
  // "a few hundred cycles" until an isolated copy's data is usable.
  CHECK(c.gm.read.overhead_cycles + c.gm.read.latency_cycles >= 100);
  CHECK(c.gm.read.overhead_cycles + c.gm.read.latency_cycles < 1000);

  // §8: MTE1 and M queues are 32 deep.
  CHECK(c.issue.queue_depth_mte1 == 32);
  CHECK(c.issue.queue_depth_m == 32);
}

TEST_CASE("a preset loads the same through its file path", "[config][preset]") {
  const std::string path = default_configs_dir() + "/atlas_a2.yaml";
  Config by_path = load(path, {}, "/nonexistent-configs-dir");
  Config by_name = load("atlas-a2", {}, default_configs_dir());
  CHECK(by_path.name == path);
  for (const Param& p : params()) {
    CAPTURE(p.key);
    CHECK(cfgtest::value_of(p, by_path) == cfgtest::value_of(p, by_name));
  }
}

TEST_CASE("default_configs_dir honours AICORE_CONFIGS_DIR", "[config][preset]") {
  const char* old = std::getenv("AICORE_CONFIGS_DIR");
  const std::string saved = old ? old : "";
  ::unsetenv("AICORE_CONFIGS_DIR");
  const std::string built_in = default_configs_dir();
  CHECK(built_in.size() >= 7);
  CHECK(built_in.compare(built_in.size() - 7, 7, "configs") == 0);
  ::setenv("AICORE_CONFIGS_DIR", "/opt/aicore/configs", 1);
  CHECK(default_configs_dir() == "/opt/aicore/configs");
  ::setenv("AICORE_CONFIGS_DIR", "", 1);  // empty = not set
  CHECK(default_configs_dir() == built_in);
  if (old)
    ::setenv("AICORE_CONFIGS_DIR", saved.c_str(), 1);
  else
    ::unsetenv("AICORE_CONFIGS_DIR");
}

TEST_CASE("the fixture loads into the right fields", "[config]") {
  const Config c = cfgtest::load_text(cfgtest::kFixture);
  CHECK(c.name == "test");
  CHECK(c.clock_mhz == 1000);
  CHECK(c.buffers.l1_bytes == 262144);
  CHECK(c.buffers.l1_banks == 8);
  CHECK(c.buffers.l0a_bytes == 32768);
  CHECK(c.buffers.l0b_bytes == 32768);
  CHECK(c.buffers.l0c_bytes == 65536);
  CHECK(c.buffers.sparse_index_bytes == 8192);
  CHECK(c.buffers.gm_max_bytes == 1048576);
  CHECK(c.gm.read.bytes_per_cycle == 100.5);
  CHECK(c.gm.read.overhead_cycles == 1);
  CHECK(c.gm.read.latency_cycles == 200);
  CHECK(c.gm.write.bytes_per_cycle == 64);
  CHECK(c.gm.write.overhead_cycles == 2);
  CHECK(c.gm.write.latency_cycles == 201);
  CHECK(c.gm.shared_bytes_per_cycle == 192);
  CHECK(c.mte1.to_l0a.bytes_per_cycle == 255);
  CHECK(c.mte1.to_l0a.overhead_cycles == 3);
  CHECK(c.mte1.to_l0a.latency_cycles == 27);
  CHECK(c.mte1.to_l0b.bytes_per_cycle == 127);
  CHECK(c.mte1.to_l0b.overhead_cycles == 4);
  CHECK(c.mte1.to_l0b.latency_cycles == 26);
  CHECK(c.mte1.sparse.bytes_per_cycle == 126);
  CHECK(c.mte1.sparse.overhead_cycles == 5);
  CHECK(c.mte1.sparse.latency_cycles == 31);
  CHECK(c.cube.int8_k_per_cycle == 31);
  CHECK(c.cube.b16_k_per_cycle == 15);
  CHECK(c.cube.sparse_k_per_cycle == 63);
  CHECK(c.cube.head_cycles == 6);
  CHECK(c.cube.latency_cycles == 7);
  CHECK(c.fixpipe.elements_per_cycle == 62);
  CHECK(c.fixpipe.overhead_cycles == 8);
  CHECK(c.fixpipe.latency_cycles == 9);
  CHECK(c.issue.instructions_per_cycle == 0.5);
  CHECK(c.issue.queue_depth_mte2 == 10);
  CHECK(c.issue.queue_depth_mte1 == 11);
  CHECK(c.issue.queue_depth_m == 12);
  CHECK(c.issue.queue_depth_fix == 13);
  CHECK(c.issue.sync_cycles == 2);
}
