// Loading a configuration: preset or YAML file, then `--set key=value` overrides, resolved and
// validated once into a Config (config.hpp). Every problem is an aicore::InputError whose
// location is file:line:column in the YAML file (1-based), or "--set:N:C" for the N-th --set
// (1-based, in command-line order) at column C of that KEY=VALUE string.
#pragma once
#include <string>
#include <vector>

#include "aicore/config/config.hpp"

namespace aicore::config {

// Accepted preset names: the SoC presets ("ascend910b1", ..., "ascend910_9362": the file
// <configs_dir>/<name>.yaml, an overlay of arch2201.yaml) and the product names kept as aliases
// of one of them ("atlas-a2" = ascend910b1, "atlas-a3" = ascend910_9391).
const std::vector<std::string>& preset_names();
// The SoC preset an alias stands for ("" when `name` is not an alias).
std::string preset_alias_of(const std::string& name);
// The file a preset name loads.
std::string preset_path(const std::string& preset, const std::string& configs_dir);

// Where the presets are: $AICORE_CONFIGS_DIR when set and non-empty; else, for a program running
// from an installed tree (common/install.hpp: P/share/aicore-sim exists), P/share/aicore-sim/configs;
// else the source tree's configs/ folder baked in at build time. "" when that folder is missing:
// loading a preset then fails saying where it looked.
std::string default_configs_dir();

// `preset_or_path` is a preset name or a YAML file path; `sets` are "a.b.c=value" strings applied
// on top of the file, later ones winning. Config::name is the preset name or the path as given.
//
// A file whose top level has `base: PRESET|PATH` is an overlay: it starts from that preset or file
// (a path is relative to the overlay's own directory) and gives only the keys it changes; bases
// may be overlays themselves. A cycle of bases is an error naming the files. Every value keeps the
// file:line:column it was written at, so errors point into whichever file of the chain holds it.
Config load(const std::string& preset_or_path, const std::vector<std::string>& sets,
            const std::string& configs_dir);

// load() plus the keys the user changed on top of a complete file: those given by --set and by
// overlay files, in param-table order (what cap warnings look at, caps.hpp). What a preset named
// by its name sets on top of its base (a SoC preset over configs/arch2201.yaml) is the preset,
// not a change.
struct Loaded {
  Config config;
  std::vector<std::string> changed;
};
Loaded load_with_changes(const std::string& preset_or_path, const std::vector<std::string>& sets,
                         const std::string& configs_dir);

// Same as load(), from YAML text already in memory; `file` is the name used in error locations
// and the directory a `base:` path is relative to; base presets come from default_configs_dir().
Config load_yaml_text(const std::string& text, const std::string& file, const std::vector<std::string>& sets,
                      const std::string& name);

// The resolved configuration as YAML with the same key tree as the preset files (every key, one
// comment with unit and meaning each); load() of this text gives back the same values.
std::string to_yaml(const Config& c);

}  // namespace aicore::config
