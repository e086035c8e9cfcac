// Overlays: `base: PRESET|PATH` plus only the changed keys; chains, cycles, and every error path
// keeping the file:line:column of the file that holds the problem.
#include "helpers.hpp"

using namespace aicore::config;
using cfgtest::expect_input_error;
using cfgtest::kFixture;

namespace fs = std::filesystem;

namespace {

// A fresh directory of config files, removed at scope exit.
class Dir {
 public:
  Dir() {
    static int counter = 0;
    path_ = (fs::temp_directory_path() /
             ("aicore_test_overlay_" + std::to_string(::getpid()) + "_" + std::to_string(counter++)))
                .string();
    fs::create_directories(path_);
  }
  ~Dir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  Dir(const Dir&) = delete;
  Dir& operator=(const Dir&) = delete;
  std::string write(const std::string& name, const std::string& text) const {
    const fs::path p = fs::path(path_) / name;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
  }

 private:
  std::string path_;
};

Config preset(const std::string& name) {
  return load(name, {}, default_configs_dir());
}

std::string err_of(const std::string& path, const std::vector<std::string>& sets = {}) {
  return expect_input_error([&] { load(path, sets, default_configs_dir()); }).what();
}

}  // namespace

TEST_CASE("an overlay of a preset changes only its keys", "[config][overlay]") {
  Dir d;
  const std::string f = d.write("what_if.yaml", "base: atlas-a2\ngm:\n  read:\n    bytes_per_cycle: 200\n");
  Config got = load(f, {}, default_configs_dir());
  Config want = preset("atlas-a2");
  CHECK(got.name == f);
  CHECK(got.gm.read.bytes_per_cycle == 200);
  want.gm.read.bytes_per_cycle = 200;
  for (const Param& p : params()) {
    INFO(p.key);
    CHECK(cfgtest::value_of(p, got) == cfgtest::value_of(p, want));
  }
  // atlas-a3 as the base works the same way; --set still goes on top.
  const std::string g = d.write("a3.yaml", "base: atlas-a3\ncube:\n  head_cycles: 0\n");
  got = load(g, {"cube.head_cycles=2"}, default_configs_dir());
  CHECK(got.cube.head_cycles == 2);
  CHECK(got.clock_mhz == preset("atlas-a3").clock_mhz);
}

TEST_CASE("a base path is relative to the overlay, and chains of overlays work", "[config][overlay]") {
  Dir d;
  d.write("full.yaml", kFixture);  // a complete file, values unlike the presets
  d.write("sub/mid.yaml", "base: ../full.yaml\nclock_mhz: 1200\ncube:\n  head_cycles: 9\n");
  const std::string top = d.write("sub/deeper/top.yaml", "base: ../mid.yaml\ncube:\n  head_cycles: 1\n");
  const Config c = load(top, {}, default_configs_dir());
  CHECK(c.clock_mhz == 1200);         // from mid
  CHECK(c.cube.head_cycles == 1);     // top wins over mid
  CHECK(c.cube.latency_cycles == 7);  // from the fixture at the root of the chain
  CHECK(c.gm.read.bytes_per_cycle == 100.5);
  // An absolute base path works from anywhere.
  const std::string abs =
      d.write("abs.yaml", "base: " + (fs::path(top).parent_path() / "../mid.yaml").string() + "\n");
  CHECK(load(abs, {}, default_configs_dir()).clock_mhz == 1200);
}

TEST_CASE("the changed keys of an overlay chain and --set, in table order", "[config][overlay]") {
  Dir d;
  d.write("mid.yaml", "base: atlas-a2\nissue:\n  sync_cycles: 2\n");
  const std::string top = d.write("top.yaml", "base: mid.yaml\ngm:\n  read:\n    bytes_per_cycle: 300\n");
  const Loaded l = load_with_changes(top, {"clock_mhz=1000"}, default_configs_dir());
  CHECK(l.changed == std::vector<std::string>{"clock_mhz", "gm.read.bytes_per_cycle", "issue.sync_cycles"});
  CHECK(load_with_changes("atlas-a2", {}, default_configs_dir()).changed.empty());
  // A SoC preset is an overlay of the base, but what it sets is the preset, not a change.
  CHECK(load_with_changes("ascend910b4", {}, default_configs_dir()).changed.empty());
  CHECK(load_with_changes(d.write("full.yaml", kFixture), {}, default_configs_dir()).changed.empty());
}

TEST_CASE("overlay round trip: config show of an overlay loads back to the same values",
          "[config][overlay]") {
  Dir d;
  const std::string f = d.write("o.yaml", "base: atlas-a2\nfixpipe:\n  overhead_cycles: 3\n");
  const Config c = load(f, {}, default_configs_dir());
  const std::string dumped = to_yaml(c);
  CHECK(dumped.find("base:") == std::string::npos);  // the resolved result, complete
  const Config back = load_yaml_text(dumped, "dumped.yaml", {}, f);
  CHECK(to_yaml(back) == dumped);
}

TEST_CASE("overlay errors name the overlay's file:line:column", "[config][overlay][error]") {
  Dir d;
  SECTION("missing base file") {
    const std::string f = d.write("o.yaml", "# what if\nbase: nope.yaml\n");
    CHECK(err_of(f) == f + ":2:7: error: cannot open base config '" +
                           (fs::path(f).parent_path() / "nope.yaml").string() + "': no such file");
  }
  SECTION("unknown base preset, with the nearest") {
    const std::string f = d.write("o.yaml", "base: atlas-a4\n");
    CHECK(err_of(f) ==
          f + ":1:7: error: unknown base preset 'atlas-a4'; did you mean 'atlas-a2'? (presets: atlas-a2, "
              "atlas-a3, ascend910b1, ascend910b2, ascend910b2c, ascend910b3, ascend910b4, ascend910_9391, "
              "ascend910_9362; anything else must be a YAML file path, relative to this file)");
  }
  SECTION("a base that is a directory") {
    fs::create_directories(fs::path(d.write("x", "")).parent_path() / "dir.yaml");
    const std::string f = d.write("o.yaml", "base: dir.yaml\n");
    CHECK_THAT(err_of(f), Catch::EndsWith("dir.yaml': it is a directory"));
  }
  SECTION("a cycle names every file of it") {
    const std::string a = d.write("a.yaml", "base: b.yaml\n");
    const std::string b = d.write("b.yaml", "clock_mhz: 1000\nbase: a.yaml\n");
    const std::string dir = fs::path(a).parent_path().string();
    CHECK(err_of(a) ==
          b + ":2:7: error: overlay cycle: " + a + " -> " + dir + "/b.yaml -> " + dir + "/a.yaml");
    const std::string self = d.write("self.yaml", "base: self.yaml\n");
    CHECK(err_of(self) == self + ":1:7: error: overlay cycle: " + self + " -> " + dir + "/self.yaml");
  }
  SECTION("unknown key in an overlay, with a suggestion by meaning") {
    const std::string f = d.write("o.yaml", "base: atlas-a2\ngm:\n  read:\n    bandwidth: 512\n");
    CHECK(err_of(f) ==
          f + ":4:5: error: unknown config key 'gm.read.bandwidth'; did you mean 'gm.read.bytes_per_cycle'?");
  }
  SECTION("wrong type in an overlay") {
    const std::string f = d.write("o.yaml", "base: atlas-a2\ncube:\n  head_cycles: many\n");
    CHECK(err_of(f) == f + ":3:16: error: key 'cube.head_cycles' expects an integer (decimal or 0x hex) in "
                           "cycles, got 'many'");
    const std::string g = d.write("g.yaml", "base: atlas-a2\ncube: 4\n");
    CHECK_THAT(err_of(g), Catch::StartsWith(g + ":2:7: error: key 'cube' must be a mapping of"));
  }
  SECTION("an error inside the base points into the base") {
    const std::string base = d.write("base.yaml", "base: atlas-a2\nclock_mhz: -3\n");
    const std::string f = d.write("o.yaml", "base: base.yaml\n");
    CHECK(err_of(f) ==
          fs::path(base).string() + ":2:12: error: value -3 of 'clock_mhz' is out of range: must be > 0 MHz");
  }
  SECTION("base must be one preset name or path") {
    CHECK(err_of(d.write("o1.yaml", "base: [atlas-a2]\n")) ==
          d.write("o1.yaml", "base: [atlas-a2]\n") +
              ":1:7: error: key 'base' takes a preset name or a YAML file path, not a list");
    const std::string m = d.write("o2.yaml", "base:\n  x: 1\n");
    CHECK(err_of(m) == m + ":2:3: error: key 'base' takes a preset name or a YAML file path, not a mapping");
    const std::string n = d.write("o3.yaml", "base:\nclock_mhz: 5\n");
    CHECK(err_of(n) == n + ":1:1: error: key 'base' has no value (a preset name or a YAML file path)");
    const std::string e = d.write("o4.yaml", "base: ''\n");
    CHECK(err_of(e) == e + ":1:7: error: key 'base' is empty (a preset name or a YAML file path)");
    const std::string twice = d.write("o5.yaml", "base: atlas-a2\nbase: atlas-a3\n");
    CHECK(err_of(twice) == twice + ":2:1: error: duplicate key 'base'");
  }
  SECTION("base only at the top level, and not by --set") {
    const std::string f = d.write("o.yaml", "base: atlas-a2\ngm:\n  base: atlas-a3\n");
    CHECK(err_of(f) ==
          f + ":3:3: error: unknown config key 'gm.base' ('base' belongs at the top level of the file)");
    CHECK(err_of("atlas-a2", {"base=atlas-a3"}) ==
          "--set:1:1: error: 'base' is given in a config file (--config FILE), not by --set");
  }
}

TEST_CASE("unknown keys get suggestions by full path, leaf name and meaning", "[config][error]") {
  auto err = [](const std::string& set) {
    return std::string(expect_input_error([&] { cfgtest::load_text(kFixture, {set}); }).what());
  };
  CHECK(err("gm.read.bandwidth=1") ==
        "--set:1:9: error: unknown config key 'gm.read.bandwidth'; did you mean 'gm.read.bytes_per_cycle'?");
  CHECK(err("gm.bandwidth=1") ==
        "--set:1:4: error: unknown config key 'gm.bandwidth'; did you mean 'gm.shared_bytes_per_cycle'?");
  CHECK(err("mte1.to_l0b.bandwidth=1") ==
        "--set:1:13: error: unknown config key 'mte1.to_l0b.bandwidth'; did you mean "
        "'mte1.to_l0b.bytes_per_cycle'?");
  CHECK(
      err("read.bytes_per_cycle=1") ==  // full path missing its first part
      "--set:1:1: error: unknown config key 'read.bytes_per_cycle'; did you mean 'gm.read.bytes_per_cycle'?");
  CHECK(err("buffers.l1_size=1") ==
        "--set:1:9: error: unknown config key 'buffers.l1_size'; did you mean 'buffers.l1_bytes'?");
  CHECK(err("gm.wrtie.latency_cycles=1") ==
        "--set:1:4: error: unknown config key 'gm.wrtie.latency_cycles'; did you mean "
        "'gm.write.latency_cycles'?");
  // Words at the top level are not guessed from: nothing close, nothing suggested.
  CHECK(err("bandwidth=1") == "--set:1:1: error: unknown config key 'bandwidth'");
}
