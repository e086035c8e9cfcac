#include "aicore/frontend/launch_options.hpp"

#include <cstdlib>
#include <iostream>

#include "aicore/common/error.hpp"
#include "aicore/session/config.hpp"

namespace aicore::frontend {

std::optional<LaunchOptions> parse_launch_options(const std::string& text, std::ostream& err) {
  auto args = session::parse_launch_args(text, err);
  if (!args) return std::nullopt;
  LaunchOptions o;
  static_cast<session::LaunchArgs&>(o) = std::move(*args);
  try {
    session::Diagnostics diag(err, o.run.quiet);
    o.config = session::load_config(o.run.config, o.run.sets, diag);
  } catch (const InputError& e) {
    err << e.what() << "\n";
    return std::nullopt;
  }
  return o;
}

const LaunchOptions& launch_options() {
  static const LaunchOptions o = [] {
    const char* text = std::getenv(session::kLaunchArgsVariable);
    auto parsed = parse_launch_options(text ? text : "", std::cerr);
    if (!parsed) {
      std::cerr << "aicore-sim: error: bad launch options in $" << session::kLaunchArgsVariable << "\n";
      std::exit(2);
    }
    return std::move(*parsed);
  }();
  return o;
}

}  // namespace aicore::frontend
