// The options of the simulations a kernel program's launches run (session/launch_args.hpp: those
// of `aicore-sim run` plus --emit-trace), with the configuration loaded. `aicore-sim kernel`
// passes them in $AICORE_SIM_ARGS; a program run on its own without the variable gets the defaults.
#pragma once
#include <iosfwd>
#include <optional>
#include <string>

#include "aicore/config/config.hpp"
#include "aicore/session/launch_args.hpp"

namespace aicore::frontend {

struct LaunchOptions : session::LaunchArgs {
  config::Config config;
};

// Parses the variable's text and loads the configuration; on any error writes it to err and
// returns nothing.
std::optional<LaunchOptions> parse_launch_options(const std::string& text, std::ostream& err);

// Where a program run without $AICORE_SIM_ARGS writes its launches' folders.
inline constexpr const char* kOutVariable = "AICORE_SIM_OUT";
// The options a program gets without $AICORE_SIM_ARGS: --out=$AICORE_SIM_OUT when it is set; for an
// `.asc` program (asc_program()) --out=DIR/aicore-sim-out otherwise (DIR the executable's folder)
// with --timeline and --check=warn. A classic CPU-debug program keeps the defaults (./out) otherwise.
std::string default_launch_args(bool asc);

// $AICORE_SIM_ARGS (or default_launch_args) parsed once per process; bad options end the program
// with exit status 2.
const LaunchOptions& launch_options();

}  // namespace aicore::frontend
