#include "aicore/frontend/launch_options.hpp"

#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "aicore/common/error.hpp"
#include "aicore/common/install.hpp"
#include "aicore/frontend/launch.hpp"
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

namespace {
bool& asc_flag() {
  static bool asc = false;
  return asc;
}
}  // namespace

void set_asc_program() {
  asc_flag() = true;
}
bool asc_program() {
  return asc_flag();
}

std::string default_launch_args(bool asc) {
  const char* out = std::getenv(kOutVariable);
  std::string dir = out && *out ? out : "";
  if (dir.empty() && asc) {
    const std::string exe = executable_path();
    dir = ((exe.empty() ? std::filesystem::path(".") : std::filesystem::path(exe).parent_path()) /
           "aicore-sim-out")
              .string();
  }
  std::string text;
  if (!dir.empty()) text += "--out=" + dir + "\n";
  // A sample's own flow goes on to write its outputs for its verify script: reports are printed,
  // checker errors do not stop the program.
  if (asc) text += "--timeline\n--check=warn\n";
  return text;
}

const LaunchOptions& launch_options() {
  static const LaunchOptions o = [] {
    const char* text = std::getenv(session::kLaunchArgsVariable);
    const std::string args = text ? text : default_launch_args(asc_program());
    auto parsed = parse_launch_options(args, std::cerr);
    if (!parsed) {
      std::cerr << "aicore-sim: error: bad launch options in $" << session::kLaunchArgsVariable << "\n";
      std::exit(2);
    }
    return std::move(*parsed);
  }();
  return o;
}

}  // namespace aicore::frontend
