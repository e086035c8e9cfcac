// The runtime's pieces that need no kernel program: the launch options' format (both directions),
// kernel-argument names, and the soft half / bfloat16_t against the compiler's own _Float16.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <random>
#include <sstream>

#include "aicore/frontend/launch_options.hpp"
#include "ascendc/detail/soft_float.hpp"
#include "recording.hpp"

using namespace aicore;

TEST_CASE("launch options: defaults, every option, and back to text", "[units]") {
  std::ostringstream err;
  const auto d = frontend::parse_launch_options("", err);
  REQUIRE(d);
  CHECK(d->run.config == "atlas-a2");
  CHECK(d->run.out_dir == "out");
  CHECK(d->config.chip.cores == 24);

  const std::string text =
      "--config=atlas-a3\n--out=dir with spaces\n--set=chip.cores=4\n--set=gm.read.latency_cycles=10\n"
      "--timing-only\n--instr-log\n--timeline\n--vcd\n--window=10:20\n--quiet\n--verbose=2\n--check=warn\n"
      "--emit-trace\n";
  const auto o = frontend::parse_launch_options(text, err);
  INFO(err.str());
  REQUIRE(o);
  CHECK(o->run.out_dir == "dir with spaces");
  CHECK(o->config.chip.cores == 4);
  CHECK(o->config.gm.read.latency_cycles == 10);
  CHECK((o->run.timing_only && o->run.instr_log && o->run.timeline && o->run.vcd && o->run.quiet &&
         o->emit_trace));
  CHECK(o->run.verbosity == 2);
  CHECK(o->run.check == session::CheckMode::Warn);
  CHECK(o->window.begin == 10);
  CHECK(o->window.end == 20);
  CHECK(session::launch_args_text(*o) == text);
}

TEST_CASE("launch options: bad ones are refused with the reason", "[units]") {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"--instr-logg\n", "did you mean '--instr-log'?"},
      {"--set=chip.coress=2\n", "chip.coress"},
      {"--window=5:1\n--timeline\n", "window"},
      {"--window=0:10\n", "--window limits --timeline and --vcd"},
      {"--config=no_such_preset\n", "no_such_preset"},
      {"--verbose=x\n", "verbose"},
      {"--check=warm\n",
       "aicore-sim kernel: error: --check must be error, warn or none, not 'warm'; did you mean 'warn'?"}};
  for (const auto& [text, message] : bad) {
    std::ostringstream err;
    INFO(text);
    CHECK_FALSE(frontend::parse_launch_options(text, err));
    CHECK(err.str().find(message) != std::string::npos);
  }
}

TEST_CASE("kernel arguments name the GM tensors", "[units]") {
  CHECK(frontend::split_arguments("a, b,c") == std::vector<std::string>{"a", "b", "c"});
  CHECK(frontend::split_arguments("f(x, y), (GM_ADDR)z") ==
        std::vector<std::string>{"f(x, y)", "(GM_ADDR)z"});
  CHECK(frontend::split_arguments("").empty());
  CHECK(frontend::argument_name("x_gm1") == "x_gm1");
  CHECK(frontend::argument_name("(GM_ADDR)z").empty());
  CHECK(frontend::argument_name("1x").empty());
  CHECK(frontend::argument_name("L1") == "L1_gm");  // would read as the L1 buffer in a trace
}

// The reference is the compiler's own _Float16 (GCC 12 on x86-64; the ASan build's clang 14 lacks
// it there, so that build leaves this test out; the Release build runs it).
#ifdef __FLT16_MAX__
TEST_CASE("half and bfloat16_t round like the compiler's conversions", "[units]") {
  // Every half bit pattern converts to float and back unchanged (NaNs stay NaN).
  for (uint32_t b = 0; b < 65536; ++b) {
    const auto h = static_cast<uint16_t>(b);
    const float f = aicore_ascendc::half_bits_to_float(h);
    _Float16 ref;
    std::memcpy(&ref, &h, 2);
    if (std::isnan(f)) {
      CHECK(std::isnan(static_cast<float>(ref)));
      continue;
    }
    REQUIRE(f == static_cast<float>(ref));
    REQUIRE(aicore_ascendc::float_to_half_bits(f) == h);
  }
  // Random floats, including ties and values outside the half range, round as (_Float16)f does.
  std::mt19937 rng(3);
  std::uniform_int_distribution<uint32_t> bits;
  for (int i = 0; i < 200000; ++i) {
    uint32_t u = bits(rng);
    if (i % 4 == 0) u &= 0xffffe000u | 0x1000u;  // exact halfway cases
    float f;
    std::memcpy(&f, &u, 4);
    if (std::isnan(f)) continue;
    const _Float16 ref = static_cast<_Float16>(f);
    uint16_t rb;
    std::memcpy(&rb, &ref, 2);
    INFO("float bits " << u);
    REQUIRE(aicore_ascendc::float_to_half_bits(f) == rb);
  }
  // bfloat16: ties to even on the upper 16 bits.
  CHECK(aicore_ascendc::float_to_bf16_bits(1.0f) == 0x3f80);
  CHECK(aicore_ascendc::float_to_bf16_bits(aicore_ascendc::bits_float(0x3f808000u)) == 0x3f80);  // tie, even
  CHECK(aicore_ascendc::float_to_bf16_bits(aicore_ascendc::bits_float(0x3f818000u)) == 0x3f82);  // tie, up
  CHECK(aicore_ascendc::float_to_bf16_bits(aicore_ascendc::bits_float(0x3f808001u)) == 0x3f81);
  const half h = 1.5f;
  const bfloat16_t bf = -2.0f;
  CHECK(float(h) * float(bf) == -3.0f);
}
#endif
