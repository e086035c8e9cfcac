// Preset/path resolution and file reading; the layers themselves are in raw.cpp and resolve.cpp.
#include "aicore/config/loader.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "raw.hpp"

namespace aicore::config {
namespace {

namespace fs = std::filesystem;

std::string preset_list() {
  std::string s;
  for (const std::string& p : preset_names()) s += (s.empty() ? "" : ", ") + p;
  return s;
}

// "atlas-a2" -> "atlas_a2.yaml": preset names follow the CLI's dash style, files the repo's.
std::string preset_file(const std::string& preset) {
  std::string f = preset;
  for (char& ch : f)
    if (ch == '-') ch = '_';
  return f + ".yaml";
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

std::string read_file(const std::string& path, const std::string& what) {
  std::error_code ec;
  if (!fs::exists(path, ec))
    throw InputError(SourceLoc{path}, "cannot open " + what + " '" + path +
                                          "': no such file (presets: " + preset_list() + ")");
  if (fs::is_directory(path, ec))
    throw InputError(SourceLoc{path}, "cannot open " + what + " '" + path + "': it is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(SourceLoc{path}, "cannot read " + what + " '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();  // an empty file only sets failbit on `text`; parse_yaml reports it
  return text.str();
}

}  // namespace

const std::vector<std::string>& preset_names() {
  static const std::vector<std::string> names = {"atlas-a2", "atlas-a3"};
  return names;
}

std::string default_configs_dir() {
  if (const char* env = std::getenv("AICORE_CONFIGS_DIR"); env && *env) return env;
#ifdef AICORE_CONFIGS_DIR
  return AICORE_CONFIGS_DIR;
#else
  return "configs";
#endif
}

Config load(const std::string& preset_or_path, const std::vector<std::string>& sets,
            const std::string& configs_dir) {
  for (const std::string& preset : preset_names()) {
    if (preset_or_path != preset) continue;
    const std::string path = (fs::path(configs_dir) / preset_file(preset)).string();
    std::error_code ec;
    if (!fs::exists(path, ec))
      throw InputError(SourceLoc{path}, "preset '" + preset + "' not found at '" + path +
                                            "'; point AICORE_CONFIGS_DIR at the configs/ folder");
    return load_yaml_text(read_file(path, "preset file"), path, sets, preset);
  }
  std::error_code ec;
  const bool looks_like_path = preset_or_path.find('/') != std::string::npos ||
                               ends_with(preset_or_path, ".yaml") || ends_with(preset_or_path, ".yml") ||
                               fs::exists(preset_or_path, ec);
  if (!looks_like_path) {
    const std::string near = nearest_word(preset_or_path, preset_names());
    throw InputError(SourceLoc{"--config"}, "unknown preset '" + preset_or_path + "'" +
                                                (near.empty() ? "" : "; did you mean '" + near + "'?") +
                                                " (presets: " + preset_list() +
                                                "; anything else must be a YAML file path)");
  }
  return load_yaml_text(read_file(preset_or_path, "config file"), preset_or_path, sets, preset_or_path);
}

Config load_yaml_text(const std::string& text, const std::string& file, const std::vector<std::string>& sets,
                      const std::string& name) {
  detail::RawConfig raw = detail::parse_yaml(text, file);
  for (size_t i = 0; i < sets.size(); ++i) detail::apply_set(raw, sets[i], static_cast<uint32_t>(i + 1));
  return detail::resolve(raw, name);
}

}  // namespace aicore::config
