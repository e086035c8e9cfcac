// `aicore-sim config show`: the resolved configuration as YAML (the same tree as the presets).
#include <ostream>

#include "aicore/common/error.hpp"
#include "aicore/config/loader.hpp"
#include "commands.hpp"
#include "options.hpp"

namespace aicore::cli {

namespace {

const char* kSynopsis = "config show [options]";

struct ShowArgs {
  std::string config = "atlas-a2";
  std::vector<std::string> sets;
  bool help = false;
};

po::options_description show_options(ShowArgs& a) {
  po::options_description o;
  o.add_options()("config", po::value(&a.config)->value_name("PRESET|YAML"),
                  "preset (atlas-a2, atlas-a3) or YAML file, overlays ('base: ...') resolved (default "
                  "atlas-a2)")("set", po::value(&a.sets)->value_name("KEY=VALUE")->composing(),
                               "override one config key (repeatable; later ones win)")(
      "help,h", po::bool_switch(&a.help), "this help");
  return o;
}

bool is_help(const std::string& arg) {
  return arg == "--help" || arg == "-h" || arg == "help";
}

}  // namespace

CommandHelp config_help() {
  ShowArgs a;
  return {kSynopsis, "print the resolved configuration as YAML: every key with its unit and meaning",
          "  The output loads back as a config file (--config FILE) giving the same values; warnings\n"
          "  (a value past the key that caps it) go to stderr.\n",
          format_options(show_options(a), 2)};
}

int config_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (!args.empty() && is_help(args[0])) {
    out << command_help_text(config_help());
    return kExitOk;
  }
  if (args.empty() || args[0] != "show") {
    err << "aicore-sim config: error: expected 'config show'"
        << (args.empty() ? "" : ", not '" + args[0] + "'") << "\nusage: aicore-sim " << kSynopsis << "\n";
    return kExitBadInput;
  }
  ShowArgs a;
  po::variables_map vm;
  if (!parse_options("config show", {args.begin() + 1, args.end()}, show_options(a), nullptr, vm, kSynopsis,
                     err))
    return kExitBadInput;
  if (a.help) {
    out << command_help_text(config_help());
    return kExitOk;
  }
  Diagnostics diag(err, false);
  try {
    const config::Config cfg = load_config(a.config, a.sets, diag);
    out << config::to_yaml(cfg);
    return kExitOk;
  } catch (const InputError& e) {
    err << e.what() << "\n";
    return kExitBadInput;
  }
}

}  // namespace aicore::cli
