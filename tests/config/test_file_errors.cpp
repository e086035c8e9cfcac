// Every file error: aicore::InputError located at file:line:column (1-based) of the offending
// node, with the key named and the nearest valid key suggested where one is close.
#include "helpers.hpp"

using namespace aicore::config;
using cfgtest::expect_input_error;
using cfgtest::kFixture;
using cfgtest::pos_of;
using cfgtest::replace;

namespace {
std::string err(const std::string& text) {
  return expect_input_error([&] { cfgtest::load_text(text); }).what();
}
}  // namespace

namespace {
// Every preset name, as the loader's messages list them.
const std::string kPresets =
    "atlas-a2, atlas-a3, ascend910b1, ascend910b2, ascend910b2c, ascend910b3, ascend910b4, ascend910_9391, "
    "ascend910_9362";
}  // namespace

TEST_CASE("unknown keys in a file", "[config][error]") {
  SECTION("misspelt sibling") {
    const std::string t = replace(kFixture, "  l1_banks: 8", "  l1_bank: 8");
    CHECK(err(t) == "test.yaml:" + pos_of(t, "l1_bank:") +
                        ": error: unknown config key 'buffers.l1_bank'; did you mean 'buffers.l1_banks'?");
  }
  SECTION("misspelt group") {
    const std::string t = replace(kFixture, "  write:", "  wrtie:");
    CHECK(err(t) == "test.yaml:" + pos_of(t, "wrtie") +
                        ": error: unknown config key 'gm.wrtie'; did you mean 'gm.write'?");
  }
  SECTION("right name, wrong group") {
    const std::string t = "l1_bytes: 5\n" + kFixture;
    CHECK(err(t) == "test.yaml:1:1: error: unknown config key 'l1_bytes'; did you mean 'buffers.l1_bytes'?");
  }
  SECTION("nothing close") {
    const std::string t = kFixture + "vector:\n  lanes: 128\n";
    CHECK(err(t) == "test.yaml:" + pos_of(t, "vector") + ": error: unknown config key 'vector'");
  }
  SECTION("duplicate key") {
    const std::string t = replace(kFixture, "  sync_cycles: 2\n", "  sync_cycles: 2\n  sync_cycles: 3\n");
    CHECK(err(t) ==
          "test.yaml:" + pos_of(t, "sync_cycles: 3") + ": error: duplicate key 'issue.sync_cycles'");
  }
}

TEST_CASE("wrong types in a file", "[config][error]") {
  SECTION("word for a number") {
    const std::string t = replace(kFixture, "clock_mhz: 1000", "clock_mhz: fast");
    CHECK(err(t) == "test.yaml:1:12: error: key 'clock_mhz' expects a number in MHz, got 'fast'");
  }
  SECTION("fraction for an integer") {
    const std::string t = replace(kFixture, "latency_cycles: 200", "latency_cycles: 200.5");
    CHECK(err(t) == "test.yaml:" + pos_of(t, "200.5") +
                        ": error: key 'gm.read.latency_cycles' expects an integer (decimal or 0x hex) in "
                        "cycles, got '200.5'");
  }
  SECTION("mapping for a number") {
    const std::string t = replace(kFixture, "clock_mhz: 1000", "clock_mhz: {a: 1}");
    CHECK(err(t) == "test.yaml:1:12: error: key 'clock_mhz' takes a single number, not a mapping");
  }
  SECTION("list for a number") {
    const std::string t = replace(kFixture, "clock_mhz: 1000", "clock_mhz: [1, 2]");
    CHECK(err(t) == "test.yaml:1:12: error: key 'clock_mhz' takes a single number, not a list");
  }
  SECTION("no value") {
    const std::string t = replace(kFixture, "clock_mhz: 1000", "clock_mhz:");
    CHECK(err(t) == "test.yaml:1:1: error: key 'clock_mhz' has no value");
  }
  SECTION("number for a group") {
    CHECK(err("gm: 3\n") ==
          "test.yaml:1:5: error: key 'gm' must be a mapping of read, write, shared_bytes_per_cycle");
  }
  SECTION("a list at the top") {
    CHECK(err("- 1\n- 2\n") ==
          "test.yaml:1:1: error: a config file must be a mapping of keys clock_mhz, chip, buffers, "
          "gm, mte1, cube, fixpipe, issue, scalar, check");
  }
}

TEST_CASE("out-of-range values in a file", "[config][error]") {
  SECTION("zero bandwidth") {
    const std::string t = replace(kFixture, "bytes_per_cycle: 64", "bytes_per_cycle: 0");
    CHECK(err(t) ==
          "test.yaml:" + pos_of(t, "bytes_per_cycle: 0", 17) +
              ": error: value 0 of 'gm.write.bytes_per_cycle' is out of range: must be > 0 B/cycle");
  }
  SECTION("negative bandwidth") {
    const std::string t = replace(kFixture, "elements_per_cycle: 62", "elements_per_cycle: -62");
    CHECK(
        err(t) ==
        "test.yaml:" + pos_of(t, "-62") +
            ": error: value -62 of 'fixpipe.elements_per_cycle' is out of range: must be > 0 elements/cycle");
  }
  SECTION("zero clock") {
    const std::string t = replace(kFixture, "clock_mhz: 1000", "clock_mhz: 0");
    CHECK(err(t) == "test.yaml:1:12: error: value 0 of 'clock_mhz' is out of range: must be > 0 MHz");
  }
  SECTION("zero queue depth") {
    const std::string t = replace(kFixture, "queue_depth_fix: 13", "queue_depth_fix: 0");
    CHECK(err(t) ==
          "test.yaml:" + pos_of(t, "queue_depth_fix: 0", 17) +
              ": error: value 0 of 'issue.queue_depth_fix' is out of range: must be > 0 instructions");
  }
  SECTION("buffer not a whole number of fractals") {
    const std::string t = replace(kFixture, "l0a_bytes: 32768", "l0a_bytes: 1000");
    CHECK(err(t) ==
          "test.yaml:" + pos_of(t, "l0a_bytes: 1000", 11) +
              ": error: value 1000 of 'buffers.l0a_bytes' is out of range: must be a multiple of 512 bytes");
  }
  SECTION("L1 not divisible by its banks") {
    const std::string t = replace(kFixture, "l1_banks: 8", "l1_banks: 6");
    CHECK(err(t) == "test.yaml:" + pos_of(t, "262144") +
                        ": error: buffers.l1_bytes (262144) must be a multiple of buffers.l1_banks (6)");
  }
  SECTION("index buffer smaller than L0B / 4") {
    const std::string t = replace(kFixture, "sparse_index_bytes: 8192", "sparse_index_bytes: 4096");
    CHECK(err(t).rfind("test.yaml:" + pos_of(t, "4096") +
                           ": error: buffers.sparse_index_bytes (4096) must be at least",
                       0) == 0);
  }
}

TEST_CASE("missing keys", "[config][error]") {
  SECTION("a leaf") {
    const std::string t = replace(kFixture, "    latency_cycles: 201\n", "");
    CHECK(
        err(t) ==
        "test.yaml:" + pos_of(t, "write:") +
            ": error: missing key 'gm.write.latency_cycles' (cycles, GM write latency until data is visible "
            "in GM); a file without 'base:' gives every key (see configs/arch2201.yaml), one with 'base: "
            "atlas-a2' only those it changes");
  }
  SECTION("a whole group") {
    const std::string t = replace(
        kFixture, "fixpipe:\n  elements_per_cycle: 62\n  overhead_cycles: 8\n  latency_cycles: 9\n", "");
    CHECK(err(t) ==
          "test.yaml:1:1: error: missing key 'fixpipe' (a mapping that holds fixpipe.elements_per_cycle); "
          "a file without 'base:' gives every key (see configs/arch2201.yaml), one with 'base: atlas-a2' "
          "only those it changes");
  }
}

TEST_CASE("malformed and empty files", "[config][error]") {
  SECTION("unclosed flow list") {
    const aicore::InputError e =
        expect_input_error([] { cfgtest::load_text("clock_mhz: 1\nbuffers: [1, 2\n"); });
    CHECK(e.loc().file == "test.yaml");
    CHECK(e.loc().line >= 2);
    CHECK(e.loc().column >= 1);
    CHECK(e.message().rfind("malformed YAML: ", 0) == 0);
  }
  SECTION("bad indentation") {
    const aicore::InputError e =
        expect_input_error([] { cfgtest::load_text("buffers:\n    l1_bytes: 1\n  l1_banks: 2\n"); });
    CHECK(e.loc().line == 3);
    CHECK(e.loc().column == 3);
    CHECK(std::string(e.what()).rfind("test.yaml:3:3: error: malformed YAML: ", 0) == 0);
  }
  SECTION("empty") {
    CHECK(err("") ==
          "test.yaml:1:1: error: empty config file (expected keys clock_mhz, chip, buffers, gm, mte1, cube, "
          "fixpipe, issue, scalar, check)");
    CHECK(err("# only a comment\n").rfind("test.yaml:1:1: error: empty config file", 0) == 0);
  }
}

TEST_CASE("files and presets that cannot be found", "[config][error]") {
  const std::string dir = default_configs_dir();
  SECTION("missing file names it and lists the presets") {
    CHECK(std::string(expect_input_error([&] { load("no/such.yaml", {}, dir); }).what()) ==
          "no/such.yaml: error: cannot open config file 'no/such.yaml': no such file (presets: " + kPresets +
              ")");
  }
  SECTION("unknown preset suggests the nearest") {
    CHECK(std::string(expect_input_error([&] { load("atlas_a3", {}, dir); }).what()) ==
          "--config: error: unknown preset 'atlas_a3'; did you mean 'atlas-a3'? (presets: " + kPresets +
              "; anything else must be a YAML file path)");
    CHECK(std::string(expect_input_error([&] { load("ascend", {}, dir); }).what()) ==
          "--config: error: unknown preset 'ascend' (presets: " + kPresets +
              "; anything else must be a YAML file path)");
    CHECK(std::string(expect_input_error([&] { load("ascend910b5", {}, dir); }).what()) ==
          "--config: error: unknown preset 'ascend910b5'; did you mean 'ascend910b1'? (presets: " + kPresets +
              "; anything else must be a YAML file path)");
  }
  SECTION("a directory") {
    CHECK(std::string(expect_input_error([&] { load(dir, {}, dir); }).what()) ==
          dir + ": error: cannot open config file '" + dir + "': it is a directory");
  }
  SECTION("a preset whose file is missing from the configs dir") {
    CHECK(std::string(expect_input_error([] { load("atlas-a2", {}, "/nonexistent"); }).what()) ==
          "/nonexistent/ascend910b1.yaml: error: preset 'atlas-a2' not found at "
          "'/nonexistent/ascend910b1.yaml'; "
          "point "
          "AICORE_CONFIGS_DIR at the configs/ folder");
  }
  SECTION("a file over the 4 MiB cap, by one byte") {
    cfgtest::TempFile f(kFixture + "#" + std::string((size_t{4} << 20) - kFixture.size(), 'x'));
    CHECK(std::string(expect_input_error([&] { load(f.path(), {}, dir); }).what()) ==
          f.path() + ": error: config file '" + f.path() + "' is larger than 4 MiB");
  }
  SECTION("a file longer than one read chunk (64 KiB) is read whole") {
    // The comment pushes the last key past the first chunk: lost bytes would drop or cut it.
    const std::string t =
        replace(kFixture, "  l0c_bytes: 65536", "#" + std::string(70000, 'x') + "\n  l0c_bytes: 65536");
    cfgtest::TempFile f(t);
    CHECK(load(f.path(), {}, dir).buffers.l0c_bytes == 65536);
  }
  SECTION("errors inside a real file carry its path") {
    const std::string t = replace(kFixture, "  l0c_bytes: 65536", "  l0c_byte: 65536");
    cfgtest::TempFile f(t);
    CHECK(std::string(expect_input_error([&] { load(f.path(), {}, dir); }).what()) ==
          f.path() + ":" + pos_of(t, "l0c_byte") +
              ": error: unknown config key 'buffers.l0c_byte'; did you mean 'buffers.l0c_bytes'?");
  }
}
