#include "launch_args.hpp"

#include <ostream>
#include <sstream>
#include <vector>

#include "check_option.hpp"
#include "options.hpp"

namespace aicore::cli {

namespace {

po::options_description launch_options(LaunchArgs& l) {
  RunArgs& a = l.run;
  po::options_description d;
  d.add_options()("config", po::value(&a.config))("set", po::value(&a.sets)->composing())(
      "out", po::value(&a.out_dir))("timing-only", po::bool_switch(&a.timing_only))(
      "instr-log", po::bool_switch(&a.instr_log))("timeline", po::bool_switch(&a.timeline))(
      "vcd", po::bool_switch(&a.vcd))("window", po::value(&a.window))("quiet,q", po::bool_switch(&a.quiet))(
      "verbose,v", po::value(&a.verbosity)->implicit_value(1, ""))("check", po::value(&a.check))(
      "emit-trace", po::bool_switch(&l.emit_trace));
  return d;
}

}  // namespace

std::string launch_args_text(const LaunchArgs& l) {
  const RunArgs& a = l.run;
  std::vector<std::string> v{"--config=" + a.config, "--out=" + a.out_dir};
  for (const std::string& s : a.sets) v.push_back("--set=" + s);
  if (a.timing_only) v.push_back("--timing-only");
  if (a.instr_log) v.push_back("--instr-log");
  if (a.timeline) v.push_back("--timeline");
  if (a.vcd) v.push_back("--vcd");
  if (!a.window.empty()) v.push_back("--window=" + a.window);
  if (a.quiet) v.push_back("--quiet");
  if (a.verbosity) v.push_back("--verbose=" + std::to_string(a.verbosity));
  if (a.check != RunArgs().check) v.push_back("--check=" + a.check);
  if (l.emit_trace) v.push_back("--emit-trace");
  std::string s;
  for (const std::string& x : v) s += x + "\n";
  return s;
}

std::optional<LaunchArgs> parse_launch_args(const std::string& text, std::ostream& err) {
  std::vector<std::string> args;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) args.push_back(line);
  LaunchArgs l;
  po::variables_map vm;
  if (!parse_options("kernel", args, launch_options(l), nullptr, vm, "kernel FILE.cpp [options]", err))
    return std::nullopt;
  CheckMode mode;
  if (!parse_check_mode(l.run.check, mode, err, "kernel")) return std::nullopt;
  if (!vm.count("window")) return l;
  if (!l.run.timeline && !l.run.vcd) {
    err << "aicore-sim kernel: error: --window limits --timeline and --vcd; give at least one of them\n";
    return std::nullopt;
  }
  try {
    l.window = report::parse_window(l.run.window);
  } catch (const std::invalid_argument& e) {
    err << "aicore-sim kernel: error: " << e.what() << "\n";
    return std::nullopt;
  }
  return l;
}

}  // namespace aicore::cli
