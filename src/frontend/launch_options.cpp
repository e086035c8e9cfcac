#include "aicore/frontend/launch_options.hpp"

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>

#include "aicore/common/error.hpp"
#include "diagnostics.hpp"
#include "load_config.hpp"
#include "options.hpp"

namespace aicore::frontend {

namespace {

cli::po::options_description options(LaunchOptions& o) {
  cli::RunArgs& a = o.run;
  cli::po::options_description d;
  d.add_options()("config", cli::po::value(&a.config))("set", cli::po::value(&a.sets)->composing())(
      "out", cli::po::value(&a.out_dir))("timing-only", cli::po::bool_switch(&a.timing_only))(
      "instr-log", cli::po::bool_switch(&a.instr_log))("timeline", cli::po::bool_switch(&a.timeline))(
      "vcd", cli::po::bool_switch(&a.vcd))("window", cli::po::value(&a.window))(
      "quiet,q", cli::po::bool_switch(&a.quiet))(
      "verbose,v", cli::po::value(&a.verbosity)->implicit_value(1, ""))("emit-trace",
                                                                        cli::po::bool_switch(&o.emit_trace));
  return d;
}

}  // namespace

std::optional<LaunchOptions> parse_launch_options(const std::string& text, std::ostream& err) {
  std::vector<std::string> args;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) args.push_back(line);
  LaunchOptions o;
  cli::po::variables_map vm;
  if (!cli::parse_options("kernel", args, options(o), nullptr, vm, "kernel FILE.cpp [options]", err))
    return std::nullopt;
  if (vm.count("window")) {
    if (!o.run.timeline && !o.run.vcd) {
      err << "aicore-sim kernel: error: --window limits --timeline and --vcd; give at least one of them\n";
      return std::nullopt;
    }
    try {
      o.window = report::parse_window(o.run.window);
    } catch (const std::invalid_argument& e) {
      err << "aicore-sim kernel: error: " << e.what() << "\n";
      return std::nullopt;
    }
  }
  try {
    cli::Diagnostics diag(err, o.run.quiet);
    o.config = cli::load_config(o.run.config, o.run.sets, diag);
  } catch (const InputError& e) {
    err << e.what() << "\n";
    return std::nullopt;
  }
  return o;
}

std::string launch_options_text(const std::vector<std::string>& args) {
  std::string s;
  for (const std::string& a : args) s += a + "\n";
  return s;
}

const LaunchOptions& launch_options() {
  static const LaunchOptions o = [] {
    const char* text = std::getenv(kLaunchOptionsVariable);
    auto parsed = parse_launch_options(text ? text : "", std::cerr);
    if (!parsed) {
      std::cerr << "aicore-sim: error: bad launch options in $" << kLaunchOptionsVariable << "\n";
      std::exit(2);
    }
    return std::move(*parsed);
  }();
  return o;
}

}  // namespace aicore::frontend
