// The presets hold the published figures of docs/sources.md (asserted as literal numbers).
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "aicore/common/install.hpp"
#include "aicore/common/temp_dir.hpp"
#include "aicore/config/preset_text.hpp"
#include "helpers.hpp"

using namespace aicore::config;

TEST_CASE("presets hold the published arch-2201 figures", "[config][preset]") {
  const std::string preset =
      GENERATE(as<std::string>{}, "atlas-a2", "atlas-a3", "ascend910b1", "ascend910b2", "ascend910b2c",
               "ascend910b3", "ascend910b4", "ascend910_9391", "ascend910_9362");
  CAPTURE(preset);
  const Config c = load(preset, {}, default_configs_dir());
  CHECK(c.name == preset);

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
  CHECK(c.cube.float_k_per_cycle == 4);
  CHECK(c.cube.int4_k_per_cycle == 64);  // assumed: twice int8's K (the int4 fractal's K0)
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

TEST_CASE("the SoC presets hold each SoC's figures from its CANN platform file", "[config][preset]") {
  struct Soc {
    const char* name;
    double mhz;
    uint32_t cores;
    uint64_t l2, hbm;
  };
  const uint64_t MiB = 1 << 20, GiB = MiB << 10;
  for (const Soc& s :
       {Soc{"ascend910b1", 1850, 24, 192 * MiB, 64 * GiB}, Soc{"ascend910b2", 1800, 24, 192 * MiB, 64 * GiB},
        Soc{"ascend910b2c", 1800, 24, 192 * MiB, 64 * GiB}, Soc{"ascend910b3", 1800, 20, 192 * MiB, 64 * GiB},
        Soc{"ascend910b4", 1500, 20, 96 * MiB, 32 * GiB},
        Soc{"ascend910_9391", 1850, 24, 192 * MiB, 64 * GiB},
        Soc{"ascend910_9362", 1500, 20, 168 * MiB, 32 * GiB}}) {
    CAPTURE(s.name);
    const Config c = load(s.name, {}, default_configs_dir());
    CHECK(c.clock_mhz == s.mhz);
    CHECK(c.chip.cores == s.cores);
    CHECK(c.chip.l2.bytes == s.l2);
    CHECK(c.chip.hbm.bytes == s.hbm);
    // The docs' 1.8 TB/s at the SoC's clock, and the platform files' 32 B/cycle per core.
    CHECK(c.chip.hbm.bytes_per_cycle == Approx(1.8e12 / (s.mhz * 1e6)).epsilon(0.001));
    CHECK(c.chip.hbm.bytes_per_cycle_per_core == 32);
    CHECK(c.chip.l2.read_bytes_per_cycle_per_core == 110);
    CHECK(c.chip.l2.write_bytes_per_cycle_per_core == 86);
    CHECK(c.chip.hbm_capacity() == 32.0 * s.cores);  // the per-core share binds on every SoC
  }
}

TEST_CASE("a SoC preset sets only the per-product keys on top of the base", "[config][preset]") {
  const std::vector<std::string> allowed = {"base",          "clock_mhz",      "chip.cores",
                                            "chip.l2.bytes", "chip.hbm.bytes", "chip.hbm.bytes_per_cycle"};
  Config base = load(default_configs_dir() + "/arch2201.yaml", {}, default_configs_dir());
  for (const std::string& name : preset_names()) {
    CAPTURE(name);
    std::ifstream f(preset_path(name, default_configs_dir()));
    std::stringstream text;
    text << f.rdbuf();
    for (const auto& [key, entry] : scan_preset(text.str(), name).keys)
      CHECK(std::find(allowed.begin(), allowed.end(), key) != allowed.end());
    Loaded l = load_with_changes(name, {}, default_configs_dir());
    CHECK(l.changed.empty());  // a preset is not a user's change
    for (const Param& p : params())
      if (std::find(allowed.begin(), allowed.end(), p.key) == allowed.end())
        CHECK(cfgtest::value_of(p, l.config) == cfgtest::value_of(p, base));
  }
}

TEST_CASE("atlas-a2 is ascend910b1, atlas-a3 is ascend910_9391, and the two time alike", "[config][preset]") {
  CHECK(preset_alias_of("atlas-a2") == "ascend910b1");
  CHECK(preset_alias_of("atlas-a3") == "ascend910_9391");
  CHECK(preset_alias_of("ascend910b1").empty());
  Config a2 = load("atlas-a2", {}, default_configs_dir());
  Config a3 = load("atlas-a3", {}, default_configs_dir());
  Config b1 = load("ascend910b1", {}, default_configs_dir());
  CHECK(a2.name == "atlas-a2");
  for (const Param& p : params()) {
    CAPTURE(p.key);
    CHECK(cfgtest::value_of(p, a2) == cfgtest::value_of(p, b1));
    CHECK(cfgtest::value_of(p, a3) == cfgtest::value_of(p, a2));
  }
}

TEST_CASE("a preset loads the same through its file path", "[config][preset]") {
  const std::string path = default_configs_dir() + "/ascend910b1.yaml";
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

TEST_CASE("an installed tree reads only its own presets and says where it looked", "[config][preset]") {
  const char* old = std::getenv("AICORE_CONFIGS_DIR");
  const std::string saved = old ? old : "";
  ::unsetenv("AICORE_CONFIGS_DIR");
  const std::string source_tree = default_configs_dir();  // this test runs from the build tree
  aicore::TempDir prefix("installed");
  std::filesystem::create_directories(prefix.file("share/aicore-sim"));
  aicore::set_install_prefix(prefix.path());
  CHECK(aicore::runs_installed());
  SECTION("no presets folder: loading a preset names the folder") {
    CHECK(default_configs_dir().empty());
    const std::string want = " not found: no presets folder at " + prefix.path() +
                             "/share/aicore-sim/configs (in the installed tree aicore-sim runs from); set "
                             "AICORE_CONFIGS_DIR to a configs/ folder";
    CHECK(std::string(cfgtest::expect_input_error([] { load_with_changes("atlas-a2", {}, ""); }).what()) ==
          "--config: error: preset 'atlas-a2'" + want);
    // An overlay's base preset, as loaded from YAML text.
    CHECK(std::string(cfgtest::expect_input_error([] {
                        load_yaml_text("base: atlas-a3\n", "o.yaml", {}, "o.yaml");
                      }).what()) == "o.yaml:1:7: error: base preset 'atlas-a3'" + want);
  }
  SECTION("its presets folder, not the source tree's") {
    std::filesystem::create_directories(prefix.file("share/aicore-sim/configs"));
    CHECK(default_configs_dir() == prefix.file("share/aicore-sim/configs"));
    CHECK(default_configs_dir() != source_tree);
  }
  aicore::set_install_prefix("");
  CHECK(!aicore::runs_installed());
  CHECK(default_configs_dir() == source_tree);
  if (old) ::setenv("AICORE_CONFIGS_DIR", saved.c_str(), 1);
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
  CHECK(c.mte1.share_during_l1_write == 0.625);
  CHECK(c.cube.int8_k_per_cycle == 31);
  CHECK(c.cube.b16_k_per_cycle == 15);
  CHECK(c.cube.float_k_per_cycle == 3);
  CHECK(c.cube.int4_k_per_cycle == 61);
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
  CHECK(c.issue.sync_all_cycles == 16);
  CHECK(c.gm.write.atomic_share == 0.75);
  CHECK(c.scalar.sync_all == 31);
  CHECK(c.scalar.set_atomic == 32);
  CHECK(c.scalar.load_data_3dv2 == 33);
  CHECK(c.scalar.load_data_with_transpose == 34);
}
