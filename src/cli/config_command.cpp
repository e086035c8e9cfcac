// `aicore-sim config show`: the resolved configuration as YAML (the same tree as the presets);
// `aicore-sim config list`: the presets, what each SoC preset sets and where each value comes from.
#include <cstdio>
#include <fstream>
#include <ostream>
#include <sstream>

#include "aicore/common/error.hpp"
#include "aicore/config/loader.hpp"
#include "aicore/config/params.hpp"
#include "aicore/config/preset_text.hpp"
#include "commands.hpp"
#include "options.hpp"

namespace aicore::cli {

namespace {

const char* kSynopsis = "config show [options]";
const char* kListSynopsis = "config list";

struct ShowArgs {
  std::string config = "atlas-a2";
  std::vector<std::string> sets;
  bool help = false;
};

po::options_description show_options(ShowArgs& a) {
  po::options_description o;
  o.add_options()("config", po::value(&a.config)->value_name("PRESET|YAML"),
                  "preset (atlas-a2, atlas-a3 or a SoC: config list) or YAML file, overlays ('base: ...') "
                  "resolved (default "
                  "atlas-a2)")("set", po::value(&a.sets)->value_name("KEY=VALUE")->composing(),
                               "override one config key (repeatable; later ones win)")(
      "help,h", po::bool_switch(&a.help), "this help");
  return o;
}

bool is_help(const std::string& arg) {
  return arg == "--help" || arg == "-h" || arg == "help";
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(SourceLoc{path}, "cannot read preset file '" + path + "'");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// "Ascend 910B1 (Atlas A2; ...)": the preset's header comment up to its first ": ".
std::string title_of(const config::PresetText& t) {
  const size_t colon = t.header.find(": ");
  return t.header.substr(0, colon);
}

int list_presets(std::ostream& out, std::ostream& err) {
  const std::string dir = config::default_configs_dir();
  try {
    out << "presets (--config NAME): each SoC preset is " << dir
        << "/arch2201.yaml with the keys below on top;\n"
           "every other key, its value and its source: aicore-sim config show, docs/configuration.md\n";
    std::string aliases;
    for (const std::string& name : config::preset_names())
      if (const std::string of = config::preset_alias_of(name); !of.empty())
        aliases += (aliases.empty() ? "" : ", ") + name + " = " + of;
    out << "product names: " << aliases << " (atlas-a2 is the default)\n";
    for (const std::string& name : config::preset_names()) {
      if (!config::preset_alias_of(name).empty()) continue;
      const std::string path = config::preset_path(name, dir);
      config::PresetText text;
      try {
        text = config::scan_preset(read_text(path), path);
      } catch (const std::runtime_error& e) {
        throw InputError(SourceLoc{path}, e.what());
      }
      out << "\n" << name << ": " << title_of(text) << " (" << path << ")\n";
      config::load(name, {}, dir);  // a preset that does not load is reported, not listed
      for (const config::Param& p : config::params()) {
        const auto it = text.keys.find(p.key);
        if (it == text.keys.end()) continue;
        char line[96];
        std::snprintf(line, sizeof line, "  %-25s %-12s ", p.key.c_str(), it->second.value.c_str());
        out << line << it->second.comment << "\n";
      }
    }
    return kExitOk;
  } catch (const InputError& e) {
    err << e.what() << "\n";
    return kExitBadInput;
  }
}

}  // namespace

CommandHelp config_help() {
  ShowArgs a;
  return {kSynopsis, "print the resolved configuration as YAML: every key with its unit and meaning",
          "  The output loads back as a config file (--config FILE) giving the same values; warnings\n"
          "  (a value past the key that caps it) go to stderr. 'config list' lists the presets: what each\n"
          "  SoC preset sets on top of configs/arch2201.yaml, and the source of each value.\n",
          format_options(show_options(a), 2)};
}

CommandHelp config_list_help() {
  return {kListSynopsis, "list the presets: what each SoC preset sets and where each value comes from", "",
          ""};
}

int config_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (!args.empty() && is_help(args[0])) {
    out << command_help_text(config_help());
    return kExitOk;
  }
  if (!args.empty() && args[0] == "list") {
    if (args.size() > 1) {
      err << "aicore-sim config list: error: unexpected argument '" << args[1] << "'\nusage: aicore-sim "
          << kListSynopsis << "\n";
      return kExitBadInput;
    }
    return list_presets(out, err);
  }
  if (args.empty() || args[0] != "show") {
    err << "aicore-sim config: error: expected 'config show' or 'config list'"
        << (args.empty() ? "" : ", not '" + args[0] + "'") << "\nusage: aicore-sim " << kSynopsis
        << "\n       aicore-sim " << kListSynopsis << "\n";
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
