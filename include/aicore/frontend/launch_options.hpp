// The options of the simulations a kernel program's launches run: those of `aicore-sim run`
// (--config, --set, --out, --timing-only, the outputs) plus --emit-trace. `aicore-sim kernel`
// passes them in $AICORE_SIM_ARGS, one argument per line (so that values may hold spaces); a
// program run on its own without the variable gets the defaults.
#pragma once
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "aicore/config/config.hpp"
#include "aicore/report/window.hpp"
#include "run_args.hpp"

namespace aicore::frontend {

inline constexpr const char* kLaunchOptionsVariable = "AICORE_SIM_ARGS";

struct LaunchOptions {
  cli::RunArgs run;
  report::CycleWindow window;
  bool emit_trace = false;
  config::Config config;
};

// Parses the variable's text (argument per line; empty lines are ignored) and loads the
// configuration. On any error writes "aicore-sim: error: ..." lines to err and returns nothing.
std::optional<LaunchOptions> parse_launch_options(const std::string& text, std::ostream& err);

// The arguments as the variable holds them (the inverse of the line splitting above).
std::string launch_options_text(const std::vector<std::string>& args);

// $AICORE_SIM_ARGS parsed once per process; bad options end the program with exit status 2.
const LaunchOptions& launch_options();

}  // namespace aicore::frontend
