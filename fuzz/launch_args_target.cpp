// Fuzz target: the launch options a kernel program reads from $AICORE_SIM_ARGS (session/launch_args.hpp),
// parsed as the front end parses them, config included (src/frontend/launch_options.cpp).
// Input: the variable's text, one argument per line. Oracle: accepted options written back as
// text (as aicore-sim kernel writes them) parse to the same options, and that text is a fixed point.
#include <cstdint>
#include <sstream>
#include <string>

#include "aicore/frontend/launch_options.hpp"
#include "fuzz_util.hpp"

using namespace aicore;

namespace {
bool same(const session::LaunchArgs& a, const session::LaunchArgs& b) {
  const session::RunOptions &x = a.run, &y = b.run;
  return x.config == y.config && x.out_dir == y.out_dir && x.sets == y.sets && x.window == y.window &&
         x.timing_only == y.timing_only && x.instr_log == y.instr_log && x.timeline == y.timeline &&
         x.vcd == y.vcd && x.quiet == y.quiet && x.verbosity == y.verbosity && x.check == y.check &&
         a.emit_trace == b.emit_trace && a.window.begin == b.window.begin && a.window.end == b.window.end;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return 0;  // options are short; long inputs only slow the config loader down
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::ostringstream err;
  const auto parsed = frontend::parse_launch_options(text, err);
  if (!parsed) {
    if (err.str().empty()) fuzz::oracle_failed("refused without a message:\n" + text);
    return 0;
  }
  const std::string back = session::launch_args_text(*parsed);
  std::ostringstream err2;
  const auto again = session::parse_launch_args(back, err2);
  if (!again) fuzz::oracle_failed("written-back options do not parse: " + err2.str() + "\n" + back);
  if (!same(*parsed, *again)) fuzz::oracle_failed("options change through their text:\n" + back);
  if (session::launch_args_text(*again) != back)
    fuzz::oracle_failed("launch_args_text is not a fixed point:\n" + back);
  return 0;
}

// libsystemc's own main() needs an sc_main to link; this target never runs it.
extern "C" int sc_main(int, char*[]) {
  return 0;
}
