// Config overlays and cap warnings through the command line: run and config show.
#include <catch2/catch.hpp>

#include "harness.hpp"

using Catch::Contains;
using harness::TempDir;

namespace {
// On the published figures (what run_trace runs on) and on the atlas-a2 preset, whose GM reads
// have a per-row cost (so copies of several rows still gain past the cap).
const std::string kCapWarningBase =
    "warning: gm.read.bytes_per_cycle = 512 is above gm.shared_bytes_per_cycle = 256 (MTE2 reads go through "
    "the core's GM port, shared with Fixpipe writes): raising it past 256 changes nothing";
const std::string kCapWarning = kCapWarningBase + "\n";
const std::string kCapWarningPreset =
    kCapWarningBase +
    " for contiguous copies (copies of several rows, slowed by gm.read.row_cycles = 1.8, still gain)\n";
}  // namespace

TEST_CASE("config cli: a --set past its cap warns on stderr, with or without -q", "[cli][config][caps]") {
  TempDir d;
  auto r = harness::run_trace(d, "", "--set gm.read.bytes_per_cycle=512");
  CHECK(r.status == 0);
  CHECK(r.err == kCapWarning);
  CHECK_THAT(r.out, !Contains("warning"));
  r = harness::run_trace(d, "", "-q --set gm.read.bytes_per_cycle=512");
  CHECK(r.status == 0);
  CHECK(r.out.empty());
  CHECK(r.err == kCapWarning);
  // At the cap: no warning.
  r = harness::run_trace(d, "", "--set gm.read.bytes_per_cycle=256");
  CHECK(r.err.empty());
  r = harness::run("config show --set gm.read.bytes_per_cycle=512");
  CHECK(r.status == 0);
  CHECK(r.err == kCapWarningPreset);
  CHECK_THAT(r.out, Contains("    bytes_per_cycle: 512 "));
}

TEST_CASE("config cli: run and config show take an overlay", "[cli][config][overlay]") {
  TempDir d;
  const std::string overlay = d.write(
      "what_if.yaml", "base: atlas-a2\ngm:\n  read:\n    bytes_per_cycle: 512\ncube:\n  head_cycles: 0\n");
  auto r = harness::run_trace(d, "", "--config " + overlay);
  CHECK(r.status == 0);
  CHECK(r.err == kCapWarningPreset);  // the overlay's value is checked like a --set
  const auto stats = harness::stats(d);
  CHECK(stats["config"]["name"] == overlay);
  CHECK(stats["config"]["gm"]["read"]["bytes_per_cycle"] == 512);
  CHECK(stats["config"]["cube"]["head_cycles"] == 0);
  CHECK(stats["config"]["clock_mhz"] == 1850);  // from the base
  r = harness::run("config show --config " + overlay);
  CHECK(r.status == 0);
  CHECK_THAT(r.out, Contains("# aicore-sim resolved configuration: " + overlay) &&
                        Contains("  head_cycles: 0 ") && Contains("clock_mhz: 1850 ") && !Contains("base:"));
  // The printed result is a complete config: it runs as is, with the same values.
  const std::string shown = d.write("shown.yaml", r.out);
  const std::string again = harness::run("config show --config " + shown).out;
  CHECK(again.substr(again.find('\n')) == r.out.substr(r.out.find('\n')));  // all but the name line
}

TEST_CASE("config cli: overlay errors exit 2 at the overlay's line", "[cli][config][overlay][errors]") {
  TempDir d;
  const std::string overlay = d.write("o.yaml", "base: atlas-a2\ngm:\n  read:\n    bandwidth: 512\n");
  const auto r = harness::run_trace(d, "", "--config " + overlay);
  CHECK(r.status == 2);
  CHECK(r.err == overlay +
                     ":4:5: error: unknown config key 'gm.read.bandwidth'; did you mean "
                     "'gm.read.bytes_per_cycle'?\n");
}
