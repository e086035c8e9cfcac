// The run options of a kernel program's launches, as `aicore-sim kernel` hands them to the
// program in $AICORE_SIM_ARGS: one argument per line, long options as --name=value, those of
// `run` that apply (--config, --set, --out, --timing-only, --instr-log, --timeline, --vcd,
// --window, --check, -q, -v) plus --emit-trace. Both directions live here so they cannot drift;
// the front end reads them and the CLI writes them, neither knowing the other.
#pragma once
#include <iosfwd>
#include <optional>
#include <string>

#include "aicore/session/options.hpp"

namespace aicore::session {

inline constexpr const char* kLaunchArgsVariable = "AICORE_SIM_ARGS";

struct LaunchArgs {
  RunOptions run;
  bool emit_trace = false;
  report::CycleWindow window;  // parsed from run.window
};

std::string launch_args_text(const LaunchArgs& a);

// Parses the variable's text (empty lines are ignored; an empty text gives the defaults). On a bad
// option writes "aicore-sim kernel: error: ..." to err and returns nothing. The config is not loaded.
std::optional<LaunchArgs> parse_launch_args(const std::string& text, std::ostream& err);

}  // namespace aicore::session
