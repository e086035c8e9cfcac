#include "aicore/session/launch_args.hpp"

#include <array>
#include <charconv>
#include <ostream>
#include <set>
#include <sstream>
#include <vector>

#include "aicore/common/error.hpp"

namespace aicore::session {

namespace {

enum class Kind { Switch, Value, OptionalValue };
struct Option {
  const char* name;
  char short_name;
  Kind kind;
};
constexpr std::array<Option, 12> kOptions = {{{"config", 0, Kind::Value},
                                              {"set", 0, Kind::Value},
                                              {"out", 0, Kind::Value},
                                              {"timing-only", 0, Kind::Switch},
                                              {"instr-log", 0, Kind::Switch},
                                              {"timeline", 0, Kind::Switch},
                                              {"vcd", 0, Kind::Switch},
                                              {"window", 0, Kind::Value},
                                              {"quiet", 'q', Kind::Switch},
                                              {"verbose", 'v', Kind::OptionalValue},
                                              {"check", 0, Kind::Value},
                                              {"emit-trace", 0, Kind::Switch}}};

const Option* find_option(const std::string& arg) {
  for (const Option& o : kOptions)
    if (arg == std::string("--") + o.name || (o.short_name && arg == std::string{'-', o.short_name}))
      return &o;
  return nullptr;
}

// Stores one option; a message when its value is not one it takes.
std::string apply(LaunchArgs& l, const Option& o, const std::string& value) {
  RunOptions& a = l.run;
  const std::string name = o.name;
  if (name == "config") a.config = value;
  if (name == "set") a.sets.push_back(value);
  if (name == "out") a.out_dir = value;
  if (name == "window") a.window = value;
  if (name == "timing-only") a.timing_only = true;
  if (name == "instr-log") a.instr_log = true;
  if (name == "timeline") a.timeline = true;
  if (name == "vcd") a.vcd = true;
  if (name == "quiet") a.quiet = true;
  if (name == "emit-trace") l.emit_trace = true;
  if (name == "check") {
    const auto mode = check_mode_from(value);
    if (!mode) return check_mode_error(value);
    a.check = *mode;
  }
  if (name == "verbose") {
    int v = 1;
    const char* end = value.data() + value.size();
    if (!value.empty() && (std::from_chars(value.data(), end, v).ptr != end))
      return "the argument ('" + value + "') for option '--verbose' is invalid";
    a.verbosity = v;
  }
  return "";
}

// The options, one argument per line: "--name=value", "--name" then its value, "--switch", "-q".
std::string parse_args(const std::vector<std::string>& args, LaunchArgs& l) {
  std::set<std::string> seen;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    const size_t eq = arg.rfind("--", 0) == 0 ? arg.find('=') : std::string::npos;
    const std::string flag = arg.substr(0, eq);
    const Option* o = find_option(flag);
    if (!o) {
      if (flag.empty() || flag[0] != '-') return "unexpected argument '" + arg + "' (options only)";
      std::vector<std::string> names;
      for (const Option& x : kOptions) names.push_back(std::string("--") + x.name);
      const std::string near = nearest_word(flag, names);
      return "unknown option '" + flag + "'" + (near.empty() ? "" : "; did you mean '" + near + "'?");
    }
    const std::string name = std::string("--") + o->name;
    if (std::string(o->name) != "set" && !seen.insert(o->name).second)
      return "option '" + name + "' cannot be specified more than once";
    std::string value;
    if (eq != std::string::npos) {
      if (o->kind == Kind::Switch) return "option '" + name + "' does not take any arguments";
      value = arg.substr(eq + 1);
    } else if (o->kind == Kind::Value) {
      if (i + 1 == args.size()) return "the required argument for option '" + name + "' is missing";
      value = args[++i];
    }
    if (const std::string e = apply(l, *o, value); !e.empty()) return e;
  }
  return options_error(l.run, &l.window);
}

}  // namespace

std::string launch_args_text(const LaunchArgs& l) {
  const RunOptions& a = l.run;
  std::vector<std::string> v{"--config=" + a.config, "--out=" + a.out_dir};
  for (const std::string& s : a.sets) v.push_back("--set=" + s);
  if (a.timing_only) v.push_back("--timing-only");
  if (a.instr_log) v.push_back("--instr-log");
  if (a.timeline) v.push_back("--timeline");
  if (a.vcd) v.push_back("--vcd");
  if (!a.window.empty()) v.push_back("--window=" + a.window);
  if (a.quiet) v.push_back("--quiet");
  if (a.verbosity) v.push_back("--verbose=" + std::to_string(a.verbosity));
  if (a.check != RunOptions().check) v.push_back(std::string("--check=") + to_string(a.check));
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
  if (const std::string e = parse_args(args, l); !e.empty()) {
    err << "aicore-sim kernel: error: " << e << "\n";
    return std::nullopt;
  }
  return l;
}

}  // namespace aicore::session
