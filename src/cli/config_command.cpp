#include <ostream>

#include "aicore/common/error.hpp"
#include "aicore/config/loader.hpp"
#include "commands.hpp"
#include "options.hpp"

namespace aicore::cli {

int config_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.empty() || args[0] != "show") {
    err << "aicore-sim config: error: expected 'config show'"
        << (args.empty() ? "" : ", not '" + args[0] + "'") << "\n";
    return kExitBadInput;
  }
  po::options_description opts("aicore-sim config show options");
  opts.add_options()("help,h", "this help")("config", po::value<std::string>()->default_value("atlas-a2"),
                                            "preset (atlas-a2, atlas-a3) or YAML file")(
      "set", po::value<std::vector<std::string>>()->composing(),
      "override one key: --set a.b=value (repeatable)");
  po::variables_map vm;
  if (!parse_options("config show", {args.begin() + 1, args.end()}, opts, nullptr, vm, err))
    return kExitBadInput;
  if (vm.count("help")) {
    out << opts;
    return kExitOk;
  }
  try {
    const auto sets = vm.count("set") ? vm["set"].as<std::vector<std::string>>() : std::vector<std::string>{};
    const config::Config cfg =
        config::load(vm["config"].as<std::string>(), sets, config::default_configs_dir());
    out << config::to_yaml(cfg);
    return kExitOk;
  } catch (const InputError& e) {
    err << e.what() << "\n";
    return kExitBadInput;
  }
}

}  // namespace aicore::cli
