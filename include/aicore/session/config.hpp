// The configuration of a run: preset or file (overlays resolved) plus --set, with a warning for
// every changed key that another key caps (config::cap_warning): the run would silently simulate
// the cap instead.
#pragma once
#include <string>
#include <vector>

#include "aicore/config/config.hpp"
#include "aicore/session/diagnostics.hpp"

namespace aicore::session {

// InputError on any config problem.
config::Config load_config(const std::string& preset_or_path, const std::vector<std::string>& sets,
                           Diagnostics& diag);

}  // namespace aicore::session
