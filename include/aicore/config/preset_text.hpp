// The preset files as text: yaml-cpp drops comments, and the comment after each value is where
// the presets name their source. `aicore-sim config list` and the documentation generator
// (tools/docgen) read them through this scanner.
#pragma once
#include <map>
#include <string>

namespace aicore::config {

// One key of a preset file as written: its value text and the comment after it (continuation
// comment lines aligned under it are joined with a space).
struct PresetEntry {
  std::string value;
  std::string comment;
  unsigned line = 0;
};
struct PresetText {
  std::string header;                         // the comment lines before the first key, joined
  std::map<std::string, PresetEntry> keys;    // dotted leaf key -> entry (`base` included)
  std::map<std::string, std::string> groups;  // dotted group key -> its comment
};
// Reads the YAML subset the presets use (nested mappings of scalars, '#' comments). Throws
// std::runtime_error naming file:line for anything else.
PresetText scan_preset(const std::string& text, const std::string& file);

}  // namespace aicore::config
