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

// $AICORE_SIM_ARGS parsed once per process; bad options end the program with exit status 2.
const LaunchOptions& launch_options();

}  // namespace aicore::frontend
