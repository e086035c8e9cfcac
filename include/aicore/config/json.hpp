// The resolved configuration as JSON (the `config` object of stats.json): the same key tree as
// the YAML files plus "name". Kept apart from loader.hpp so users of JSON need not see YAML and
// the other way round.
#pragma once
#include <nlohmann/json.hpp>

#include "aicore/config/config.hpp"

namespace aicore::config {

nlohmann::json to_json(const Config& c);

// Lets `nlohmann::json j = config;` work (found by ADL).
void to_json(nlohmann::json& j, const Config& c);

}  // namespace aicore::config
