// --set overrides: they change exactly one field, follow the field's type, and fail like file
// errors do, located at "--set:<ordinal>:<column>".
#include <map>

#include "helpers.hpp"

using namespace aicore::config;
using cfgtest::expect_input_error;
using cfgtest::load_text;

namespace {

// Every field of `a` and `b` is equal except `key`.
void check_only_changed(Config a, Config b, const std::string& key) {
  for (const Param& p : params()) {
    CAPTURE(p.key);
    if (p.key == key)
      CHECK(cfgtest::value_of(p, a) != cfgtest::value_of(p, b));
    else
      CHECK(cfgtest::value_of(p, a) == cfgtest::value_of(p, b));
  }
}

}  // namespace

TEST_CASE("a --set changes exactly the named field", "[config][set]") {
  const Config base = load_text(cfgtest::kFixture);
  SECTION("a rate") {
    const Config c = load_text(cfgtest::kFixture, {"mte1.to_l0b.bytes_per_cycle=256"});
    CHECK(c.mte1.to_l0b.bytes_per_cycle == 256);
    check_only_changed(base, c, "mte1.to_l0b.bytes_per_cycle");
  }
  SECTION("a fractional rate") {
    const Config c = load_text(cfgtest::kFixture, {"gm.read.bytes_per_cycle=155.25"});
    CHECK(c.gm.read.bytes_per_cycle == 155.25);
    check_only_changed(base, c, "gm.read.bytes_per_cycle");
  }
  SECTION("a hex integer") {
    const Config c = load_text(cfgtest::kFixture, {"buffers.gm_max_bytes=0x100000000"});
    CHECK(c.buffers.gm_max_bytes == 4294967296ull);
    check_only_changed(base, c, "buffers.gm_max_bytes");
  }
  SECTION("a queue depth") {
    const Config c = load_text(cfgtest::kFixture, {"issue.queue_depth_m=1"});
    CHECK(c.issue.queue_depth_m == 1);
    check_only_changed(base, c, "issue.queue_depth_m");
  }
}

TEST_CASE("a --set reaches every key of the table", "[config][set]") {
  // Values that keep the cross-field rules (banks divide L1, index >= L0B / 4, the L2's
  // geometry) satisfied.
  const std::map<std::string, std::string> special = {
      {"buffers.l1_banks", "16"},           {"buffers.l0c_banks", "16"},
      {"buffers.l0c_bytes", "131072"},      {"buffers.l0b_bytes", "16384"},
      {"chip.l2.bytes", "2097152"},         {"chip.l2.line_bytes", "512"},
      {"chip.l2.sector_bytes", "128"},      {"chip.l2.ways", "4"},
      {"chip.l2.nd2nz_read_share", "0.75"}, {"gm.write.atomic_share", "0.25"},
      {"mte1.share_during_l1_write", "0.5"}};
  Config base = load_text(cfgtest::kFixture);
  for (const Param& p : params()) {
    CAPTURE(p.key);
    std::string value;
    if (special.count(p.key))
      value = special.at(p.key);
    else if (std::holds_alternative<double*>(p.field(base)))
      value = "1.25";
    else
      value = std::to_string(static_cast<uint64_t>(cfgtest::value_of(p, base)) +
                             std::max<uint64_t>(1, p.multiple_of));
    const Config c = load_text(cfgtest::kFixture, {p.key + "=" + value});
    check_only_changed(base, c, p.key);
  }
}

TEST_CASE("later --set wins and --set can supply a key the file lacks", "[config][set]") {
  CHECK(load_text(cfgtest::kFixture, {"clock_mhz=1800", "clock_mhz=1900"}).clock_mhz == 1900);
  const std::string partial = cfgtest::replace(cfgtest::kFixture, "  sync_cycles: 2\n", "");
  CHECK(load_text(partial, {"issue.sync_cycles=5"}).issue.sync_cycles == 5);
}

TEST_CASE("bad --set errors name the key, the nearest valid key and the column", "[config][set][error]") {
  auto err = [](const std::vector<std::string>& sets) {
    return std::string(expect_input_error([&] { load_text(cfgtest::kFixture, sets); }).what());
  };
  SECTION("misspelt leaf") {
    CHECK(err({"gm.read.bytes_per_cylce=3"}) ==
          "--set:1:9: error: unknown config key 'gm.read.bytes_per_cylce'; did you mean "
          "'gm.read.bytes_per_cycle'?");
  }
  SECTION("misspelt group, in the second --set") {
    CHECK(err({"clock_mhz=1800", "gm.raed.latency_cycles=3"}) ==
          "--set:2:4: error: unknown config key 'gm.raed.latency_cycles'; did you mean "
          "'gm.read.latency_cycles'?");
  }
  SECTION("truncated key") {
    CHECK(err({"cube.int8_k=3"}) ==
          "--set:1:6: error: unknown config key 'cube.int8_k'; did you mean 'cube.int8_k_per_cycle'?");
  }
  SECTION("right name, wrong group") {
    CHECK(err({"l1_banks=3"}) ==
          "--set:1:1: error: unknown config key 'l1_banks'; did you mean 'buffers.l1_banks'?");
  }
  SECTION("path below a leaf") {
    CHECK(err({"clock_mhz.x=3"}) ==
          "--set:1:11: error: unknown config key 'clock_mhz.x'; did you mean 'clock_mhz'?");
  }
  SECTION("a group is not a value") {
    CHECK(err({"gm=3"}) ==
          "--set:1:1: error: 'gm' is a group of keys, not a value; set one of gm.{read, write, "
          "shared_bytes_per_cycle}");
    CHECK(err({"gm.read=3"}).find("'gm.read' is a group of keys") != std::string::npos);
  }
  SECTION("syntax") {
    CHECK(err({"clock_mhz"}) == "--set:1:1: error: expected KEY=VALUE, got 'clock_mhz'");
    CHECK(err({"=5"}) == "--set:1:1: error: missing key before '=' in '=5'");
    CHECK(err({"clock_mhz="}) == "--set:1:11: error: key 'clock_mhz' has no value");
  }
  SECTION("wrong type") {
    CHECK(err({"buffers.l1_banks=1.5"}) ==
          "--set:1:18: error: key 'buffers.l1_banks' expects an integer (decimal or 0x hex) in banks, got "
          "'1.5'");
    CHECK(err({"clock_mhz=fast"}) ==
          "--set:1:11: error: key 'clock_mhz' expects a number in MHz, got 'fast'");
    CHECK(err({"clock_mhz=nan"}) == "--set:1:11: error: key 'clock_mhz' expects a number in MHz, got 'nan'");
    CHECK(err({"clock_mhz= 5"}) == "--set:1:11: error: key 'clock_mhz' expects a number in MHz, got ' 5'");
  }
  SECTION("out of range") {
    CHECK(err({"mte1.to_l0a.bytes_per_cycle=0"}) ==
          "--set:1:29: error: value 0 of 'mte1.to_l0a.bytes_per_cycle' is out of range: must be > 0 B/cycle");
    CHECK(
        err({"mte1.to_l0a.bytes_per_cycle=-5"}) ==
        "--set:1:29: error: value -5 of 'mte1.to_l0a.bytes_per_cycle' is out of range: must be > 0 B/cycle");
    CHECK(err({"issue.queue_depth_m=0"}) ==
          "--set:1:21: error: value 0 of 'issue.queue_depth_m' is out of range: must be > 0 instructions");
    CHECK(err({"issue.queue_depth_m=5000"}) ==
          "--set:1:21: error: value 5000 of 'issue.queue_depth_m' is out of range: must be <= 4096 "
          "instructions");
    CHECK(err({"gm.read.latency_cycles=-1"}) ==
          "--set:1:24: error: value -1 of 'gm.read.latency_cycles' is out of range: must be >= 0 cycles");
    CHECK(err({"buffers.gm_max_bytes=99999999999999999999999"}) ==
          "--set:1:22: error: value 99999999999999999999999 of 'buffers.gm_max_bytes' is out of range: must "
          "be <= "
          "68719476736 bytes");
    CHECK(err({"clock_mhz=0"}) ==
          "--set:1:11: error: value 0 of 'clock_mhz' is out of range: must be > 0 MHz");
  }
  SECTION("a cross-field rule blames the --set that broke it") {
    CHECK(err({"buffers.l1_banks=7"}) ==
          "--set:1:18: error: buffers.l1_bytes (262144) must be a multiple of buffers.l1_banks (7)");
    CHECK(err({"buffers.l0b_bytes=65536"}) ==
          "--set:1:19: error: buffers.sparse_index_bytes (8192) must be at least buffers.l0b_bytes / 4 "
          "(16384): the index of L0B address a lives at a / 4");
  }
  SECTION("the L2's geometry rules") {
    // The fixture's L2: 1 MiB of 256-byte lines in sectors of 64 bytes, 8 ways.
    CHECK(err({"chip.l2.line_bytes=384"}) ==
          "--set:1:20: error: chip.l2.line_bytes (384) must be a power of two");
    CHECK(err({"chip.l2.sector_bytes=96"}) ==
          "--set:1:22: error: chip.l2.sector_bytes (96) must be a power of two, at most chip.l2.line_bytes "
          "(256) "
          "and at least a 64th of it");
    CHECK(err({"chip.l2.sector_bytes=512"}) ==
          "--set:1:22: error: chip.l2.sector_bytes (512) must be a power of two, at most chip.l2.line_bytes "
          "(256) "
          "and at least a 64th of it");
    CHECK(err({"chip.l2.line_bytes=8192"}) ==
          "--set:1:20: error: chip.l2.sector_bytes (64) must be a power of two, at most chip.l2.line_bytes "
          "(8192) "
          "and at least a 64th of it");
    CHECK(load_text(cfgtest::kFixture, {"chip.l2.line_bytes=4096", "chip.l2.sector_bytes=64"})
              .chip.l2.line_bytes == 4096);
    CHECK(
        err({"chip.l2.ways=3"}) ==
        "--set:1:14: error: chip.l2.bytes (1048576) must be a multiple of chip.l2.line_bytes x chip.l2.ways "
        "(768): every set holds `ways` whole lines");
    CHECK(
        err({"chip.l2.bytes=2147483648"}) ==
        "--set:1:15: error: chip.l2.bytes / chip.l2.line_bytes = 8388608 lines is more than the 4194304 the "
        "tag store allows; use longer lines");
    CHECK(load_text(cfgtest::kFixture, {"chip.l2.bytes=0", "chip.l2.ways=3"}).chip.l2.bytes == 0);  // no L2
  }
  SECTION("the error class is InputError with the --set location") {
    const aicore::InputError e = expect_input_error([] { load_text(cfgtest::kFixture, {"x", "y"}); });
    CHECK(e.loc().file == "--set");
    CHECK(e.loc().line == 1);
    CHECK(e.loc().column == 1);
  }
}
