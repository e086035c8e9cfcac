// Preset/path resolution, file reading and overlays (`base:`); the layers themselves are in
// raw.cpp and resolve.cpp.
#include "aicore/config/loader.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "aicore/common/install.hpp"
#include "aicore/common/read_capped.hpp"
#include "aicore/config/params.hpp"
#include "raw.hpp"

namespace aicore::config {
namespace {

namespace fs = std::filesystem;

// No config is anywhere near this big; the limit keeps `--config /dev/zero` from eating memory.
constexpr std::streamsize kMaxFileBytes = 4 << 20;
// Overlays of overlays are fine; a chain this long is a mistake (cycles are caught separately).
constexpr size_t kMaxChain = 32;

std::string preset_list() {
  std::string s;
  for (const std::string& p : preset_names()) s += (s.empty() ? "" : ", ") + p;
  return s;
}

// Where the presets may be when $AICORE_CONFIGS_DIR is not set. A program running from an installed
// tree (P/share/aicore-sim exists, install.hpp) looks only there: an installed or moved tree must not
// quietly read the source tree it was built from. A build tree's program reads its source tree.
struct Place {
  std::string dir, what;
};
Place presets_place() {
  const Place installed{installed_data_dir("configs"), "in the installed tree aicore-sim runs from"};
#ifdef AICORE_CONFIGS_DIR
  if (!runs_installed()) return {AICORE_CONFIGS_DIR, "in the source tree aicore-sim was built from"};
#endif
  return installed;
}

// "preset 'atlas-a2' not found: no presets folder at /p/share/aicore-sim/configs (in the installed
// tree aicore-sim runs from); set AICORE_CONFIGS_DIR to a configs/ folder"
std::string no_presets_folder(const std::string& what, const std::string& name) {
  const Place p = presets_place();
  return what + " '" + name + "' not found: no presets folder at " + p.dir + " (" + p.what +
         "); set AICORE_CONFIGS_DIR to a configs/ folder";
}

bool is_preset(const std::string& name) {
  for (const std::string& p : preset_names())
    if (p == name) return true;
  return false;
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// Anything that is not a preset name is a file if it looks like one or exists.
bool looks_like_path(const std::string& s, const std::string& resolved) {
  std::error_code ec;
  return s.find('/') != std::string::npos || ends_with(s, ".yaml") || ends_with(s, ".yml") ||
         fs::exists(resolved, ec);
}

std::string unknown_preset(const std::string& what, const std::string& name, const std::string& paths) {
  const std::string near = nearest_word(name, preset_names());
  return "unknown " + what + " '" + name + "'" + (near.empty() ? "" : "; did you mean '" + near + "'?") +
         " (presets: " + preset_list() + "; anything else must be a YAML file path" + paths + ")";
}

// The text of a config file; problems are reported at `where` (the file itself, or the `base:`
// line that named it), starting with `what` ("config file 'x.yaml'").
std::string read_file(const std::string& path, const SourceLoc& where, const std::string& what,
                      const std::string& missing_hint) {
  std::error_code ec;
  if (!fs::exists(path, ec)) throw InputError(where, "cannot open " + what + ": no such file" + missing_hint);
  if (fs::is_directory(path, ec)) throw InputError(where, "cannot open " + what + ": it is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(where, "cannot read " + what);
  std::string text = read_capped(in, static_cast<size_t>(kMaxFileBytes));
  if (static_cast<std::streamsize>(text.size()) > kMaxFileBytes)
    throw InputError(where, what + " is larger than " + std::to_string(kMaxFileBytes >> 20) + " MiB");
  return text;
}

std::string identity(const std::string& path) {
  std::error_code ec;
  const fs::path p = fs::weakly_canonical(path, ec);
  return ec ? path : p.string();
}

// A file and the chain of files it is an overlay of, merged into one RawConfig: the base's
// values first, each overlay's on top. Remembers which keys the overlays set.
class Layers {
 public:
  explicit Layers(const std::string& configs_dir) : configs_dir_(configs_dir) {}

  // `preset`: the file is a shipped preset (named by its preset name): what it sets on top of
  // its own base is the preset, not a change the user made.
  detail::RawConfig load(const std::string& text, const std::string& path, bool preset = false) {
    chain_.push_back({identity(path), path});
    detail::RawConfig raw = detail::parse_yaml(text, path);
    if (!raw.base) {
      chain_.pop_back();
      return raw;
    }
    const detail::RawValue& base = *raw.base;
    if (chain_.size() >= kMaxChain)
      throw InputError(base.loc, "more than " + std::to_string(kMaxChain) + " files of overlays");
    const std::string base_path = resolve_base(base, path);
    check_cycle(base_path, base.loc);
    detail::RawConfig merged = load(read_file(base_path, base.loc, "base config '" + base_path + "'", ""),
                                    base_path, preset || is_preset(base.text));
    chain_.pop_back();
    for (const auto& [key, value] : raw.values) {
      merged.values[key] = value;
      if (!preset) changed_.insert(key);
    }
    merged.groups.insert(raw.groups.begin(), raw.groups.end());  // the base's places stay first
    merged.file = raw.file;
    return merged;
  }

  const std::set<std::string>& changed() const { return changed_; }
  void mark_changed(const std::string& key) { changed_.insert(key); }

 private:
  // `base:` names a preset, or a file relative to the overlay that names it.
  std::string resolve_base(const detail::RawValue& base, const std::string& overlay) const {
    if (is_preset(base.text)) {
      if (configs_dir_.empty()) throw InputError(base.loc, no_presets_folder("base preset", base.text));
      const std::string path = preset_path(base.text, configs_dir_);
      std::error_code ec;
      if (!fs::exists(path, ec))
        throw InputError(base.loc, "base preset '" + base.text + "' not found at '" + path +
                                       "'; point AICORE_CONFIGS_DIR at the configs/ folder");
      return path;
    }
    const fs::path p(base.text);
    const std::string resolved =
        p.is_absolute() ? p.string() : (fs::path(overlay).parent_path() / p).string();
    if (!looks_like_path(base.text, resolved))
      throw InputError(base.loc, unknown_preset("base preset", base.text, ", relative to this file"));
    return resolved;
  }

  void check_cycle(const std::string& base_path, const SourceLoc& where) const {
    const std::string id = identity(base_path);
    for (const auto& [open_id, shown] : chain_) {
      if (open_id != id) continue;
      std::string files;
      for (const auto& c : chain_) files += c.second + " -> ";
      throw InputError(where, "overlay cycle: " + files + base_path);
    }
  }

  const std::string& configs_dir_;
  std::vector<std::pair<std::string, std::string>> chain_;  // (identity, path as shown) of open files
  std::set<std::string> changed_;
};

Loaded load_text(const std::string& text, const std::string& file, const std::vector<std::string>& sets,
                 const std::string& name, const std::string& configs_dir, bool preset = false) {
  Layers layers(configs_dir);
  detail::RawConfig raw = layers.load(text, file, preset);
  for (size_t i = 0; i < sets.size(); ++i) {
    detail::apply_set(raw, sets[i], static_cast<uint32_t>(i + 1));
    layers.mark_changed(sets[i].substr(0, sets[i].find('=')));
  }
  Loaded out{detail::resolve(raw, name), {}};
  for (const Param& p : params())  // in table order
    if (layers.changed().count(p.key)) out.changed.push_back(p.key);
  return out;
}

}  // namespace

const std::vector<std::string>& preset_names() {
  static const std::vector<std::string> names = {"atlas-a2",    "atlas-a3",       "ascend910b1",
                                                 "ascend910b2", "ascend910b2c",   "ascend910b3",
                                                 "ascend910b4", "ascend910_9391", "ascend910_9362"};
  return names;
}

std::string preset_alias_of(const std::string& name) {
  if (name == "atlas-a2") return "ascend910b1";
  if (name == "atlas-a3") return "ascend910_9391";
  return "";
}

std::string preset_path(const std::string& preset, const std::string& configs_dir) {
  const std::string alias = preset_alias_of(preset);
  std::string f = alias.empty() ? preset : alias;
  for (char& ch : f)  // preset names follow the CLI's dash style, files the repo's
    if (ch == '-') ch = '_';
  return (fs::path(configs_dir) / (f + ".yaml")).string();
}

std::string default_configs_dir() {
  if (const char* env = std::getenv("AICORE_CONFIGS_DIR"); env && *env) return env;
  const Place p = presets_place();
  std::error_code ec;
  return fs::is_directory(p.dir, ec) ? p.dir : "";
}

Loaded load_with_changes(const std::string& preset_or_path, const std::vector<std::string>& sets,
                         const std::string& configs_dir) {
  if (is_preset(preset_or_path)) {
    if (configs_dir.empty())
      throw InputError(SourceLoc{"--config"}, no_presets_folder("preset", preset_or_path));
    const std::string path = preset_path(preset_or_path, configs_dir);
    std::error_code ec;
    if (!fs::exists(path, ec))
      throw InputError(SourceLoc{path}, "preset '" + preset_or_path + "' not found at '" + path +
                                            "'; point AICORE_CONFIGS_DIR at the configs/ folder");
    const std::string text = read_file(path, SourceLoc{path}, "preset file '" + path + "'", "");
    return load_text(text, path, sets, preset_or_path, configs_dir, true);
  }
  if (!looks_like_path(preset_or_path, preset_or_path))
    throw InputError(SourceLoc{"--config"}, unknown_preset("preset", preset_or_path, ""));
  const std::string text =
      read_file(preset_or_path, SourceLoc{preset_or_path}, "config file '" + preset_or_path + "'",
                " (presets: " + preset_list() + ")");
  return load_text(text, preset_or_path, sets, preset_or_path, configs_dir);
}

Config load(const std::string& preset_or_path, const std::vector<std::string>& sets,
            const std::string& configs_dir) {
  return load_with_changes(preset_or_path, sets, configs_dir).config;
}

Config load_yaml_text(const std::string& text, const std::string& file, const std::vector<std::string>& sets,
                      const std::string& name) {
  return load_text(text, file, sets, name, default_configs_dir()).config;
}

}  // namespace aicore::config
