#include "aicore/session/config.hpp"

#include <algorithm>

#include "aicore/config/caps.hpp"
#include "aicore/config/loader.hpp"

namespace aicore::session {

config::Config load_config(const std::string& preset_or_path, const std::vector<std::string>& sets,
                           Diagnostics& diag) {
  config::Loaded l = config::load_with_changes(preset_or_path, sets, config::default_configs_dir());
  // Only keys the user changed: the presets themselves sit past some caps on purpose (Fixpipe
  // reads L0C faster than it can write GM), and repeating that on every run would be noise.
  std::vector<std::string> said;
  for (const std::string& key : l.changed)
    for (const std::string& w : config::cap_warnings_for_change(l.config, key))
      if (std::find(said.begin(), said.end(), w) == said.end()) {
        said.push_back(w);
        diag.warning(w);
      }
  return std::move(l.config);
}

}  // namespace aicore::session
