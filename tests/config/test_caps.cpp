// Cap warnings: a key past the key that bounds it gets a warning naming the cap, exactly at the
// boundary (v > cap warns, v == cap does not).
#include "aicore/config/caps.hpp"

#include "helpers.hpp"

using namespace aicore::config;

namespace {
Config with(const std::vector<std::string>& sets) {
  return load("atlas-a2", sets, default_configs_dir());
}
}  // namespace

TEST_CASE("caps: gm.read above the shared GM port", "[config][caps]") {
  CHECK(
      cap_warning(with({"gm.read.bytes_per_cycle=512", "gm.read.row_cycles=0"}), "gm.read.bytes_per_cycle") ==
      "gm.read.bytes_per_cycle = 512 is above gm.shared_bytes_per_cycle = 256 (MTE2 reads go through the "
      "core's GM port, shared with Fixpipe writes): raising it past 256 changes nothing");
  // With a per-row cost, copies of several rows run below the path's rate and still gain.
  CHECK(cap_warning(with({"gm.read.bytes_per_cycle=512", "gm.read.row_cycles=1.8"}),
                    "gm.read.bytes_per_cycle") ==
        "gm.read.bytes_per_cycle = 512 is above gm.shared_bytes_per_cycle = 256 (MTE2 reads go through the "
        "core's GM port, shared with Fixpipe writes): raising it past 256 changes nothing for contiguous "
        "copies (copies of several rows, slowed by gm.read.row_cycles = 1.8, still gain)");
  CHECK(cap_warning(with({"gm.read.bytes_per_cycle=256"}), "gm.read.bytes_per_cycle").empty());
  CHECK_FALSE(cap_warning(with({"gm.read.bytes_per_cycle=256.5"}), "gm.read.bytes_per_cycle").empty());
  // Lowering the port below the read rate caps the read rate too.
  CHECK_THAT(cap_warning(with({"gm.shared_bytes_per_cycle=100"}), "gm.read.bytes_per_cycle"),
             Catch::StartsWith("gm.read.bytes_per_cycle = 177.3 is above gm.shared_bytes_per_cycle = 100 ("));
}

TEST_CASE("caps: Fixpipe's element rate and GM write bound each other", "[config][caps]") {
  // gm.write 128 B/cycle: at most 128 output elements (int8) per cycle.
  CHECK(cap_warning(with({"fixpipe.elements_per_cycle=129", "gm.write.bytes_per_cycle=128"}),
                    "fixpipe.elements_per_cycle") ==
        "fixpipe.elements_per_cycle = 129 is above gm.write.bytes_per_cycle = 128 (Fixpipe cannot produce "
        "output elements, of at least 1 byte, faster than it writes them to GM): raising it past 128 changes "
        "nothing");
  CHECK(cap_warning(with({"fixpipe.elements_per_cycle=128"}), "fixpipe.elements_per_cycle").empty());
  // The shared port is checked first; past it, the Fixpipe read rate.
  CHECK_THAT(cap_warning(with({"gm.write.bytes_per_cycle=300"}), "gm.write.bytes_per_cycle"),
             Catch::StartsWith("gm.write.bytes_per_cycle = 300 is above gm.shared_bytes_per_cycle = 256 ("));
  CHECK(
      cap_warning(with({"gm.shared_bytes_per_cycle=1024", "gm.write.bytes_per_cycle=257"}),
                  "gm.write.bytes_per_cycle") ==
      "gm.write.bytes_per_cycle = 257 is above fixpipe.elements_per_cycle x 4 = 256 (Fixpipe cannot write GM "
      "faster than it produces output elements of at most 4 bytes): raising it past 256 changes nothing");
  CHECK(cap_warning(with({"gm.shared_bytes_per_cycle=1024", "gm.write.bytes_per_cycle=256"}),
                    "gm.write.bytes_per_cycle")
            .empty());
}

TEST_CASE("caps: the table names real keys, and uncapped keys get no warning", "[config][caps]") {
  for (const Cap& c : caps()) {
    INFO(c.key << " <= " << c.capped_by);
    CHECK(find_param(c.key));
    CHECK(find_param(c.capped_by));
    CHECK(c.factor > 0);
    CHECK(c.factor_text.empty() == (c.factor == 1));
  }
  CHECK(cap_warning(with({}), "clock_mhz").empty());
  CHECK(cap_warning(with({}), "no.such.key").empty());
  // The presets' GM paths are within their port.
  for (const char* p : {"atlas-a2", "atlas-a3"}) {
    const Config c = load(p, {}, default_configs_dir());
    CHECK(cap_warning(c, "gm.read.bytes_per_cycle").empty());
    CHECK(cap_warning(c, "gm.write.bytes_per_cycle").empty());
  }
}

TEST_CASE("caps: lowering a bound under a key it caps warns about that key, at the boundary",
          "[config][caps]") {
  using aicore::config::cap_warnings_for_change;
  // With gm.read 150 and gm.write 128 under the shared port, 150 is the boundary for reads.
  CHECK(cap_warnings_for_change(with({"gm.read.bytes_per_cycle=150", "gm.write.bytes_per_cycle=128",
                                      "gm.shared_bytes_per_cycle=150"}),
                                "gm.shared_bytes_per_cycle")
            .empty());
  const auto w = cap_warnings_for_change(
      with({"gm.read.bytes_per_cycle=150", "gm.write.bytes_per_cycle=128", "gm.shared_bytes_per_cycle=149"}),
      "gm.shared_bytes_per_cycle");
  REQUIRE(w.size() == 1);
  CHECK_THAT(w[0],
             Catch::StartsWith("gm.read.bytes_per_cycle = 150 is above gm.shared_bytes_per_cycle = 149 ("));
  CHECK(cap_warnings_for_change(with({"gm.read.bytes_per_cycle=150", "gm.write.bytes_per_cycle=128",
                                      "gm.shared_bytes_per_cycle=100"}),
                                "gm.shared_bytes_per_cycle")
            .size() == 2);
  // A core's port is not capped by the chip's L2 or HBM bandwidth: L2 hits and HBM misses of one
  // transfer overlap, so no chip figure alone bounds what a port carries.
  CHECK(cap_warnings_for_change(with({"gm.read.bytes_per_cycle=150", "gm.write.bytes_per_cycle=128",
                                      "gm.shared_bytes_per_cycle=5000"}),
                                "gm.shared_bytes_per_cycle")
            .empty());
  // Fixpipe's read/write pair is past its cap in the presets on purpose: lowering one says nothing.
  CHECK(cap_warnings_for_change(with({"gm.write.bytes_per_cycle=100"}), "gm.write.bytes_per_cycle").empty());
}
