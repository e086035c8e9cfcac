// A line scanner for the preset files (preset_text.hpp).
#include "aicore/config/preset_text.hpp"

#include <stdexcept>
#include <vector>

namespace aicore::config {
namespace {

std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

bool name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

}  // namespace

PresetText scan_preset(const std::string& text, const std::string& file) {
  PresetText out;
  std::vector<std::pair<size_t, std::string>> open;  // (indent, name) of the enclosing groups
  std::string* last_comment = nullptr;               // where a continuation comment line goes
  size_t last_comment_col = 0;
  unsigned lineno = 0;
  size_t pos = 0;
  while (pos <= text.size()) {
    const size_t nl = text.find('\n', pos);
    std::string line = text.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
    pos = nl == std::string::npos ? text.size() + 1 : nl + 1;
    ++lineno;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const auto fail = [&](const std::string& msg) {
      throw std::runtime_error(file + ":" + std::to_string(lineno) + ": " + msg);
    };
    const size_t indent = line.find_first_not_of(' ');
    if (indent == std::string::npos) {  // blank: a comment block ends
      last_comment = nullptr;
      continue;
    }
    if (line[indent] == '\t') fail("tab in indentation");
    if (line[indent] == '#') {
      // A comment aligned under the previous value's comment continues it; any other comment
      // line (the file header, a note at column 0) belongs to no key.
      if (last_comment && indent == last_comment_col) {
        *last_comment += " " + trim(line.substr(indent + 1));
      } else {
        last_comment = nullptr;
        if (indent == 0 && out.keys.empty() && out.groups.empty())
          out.header += (out.header.empty() ? "" : " ") + trim(line.substr(1));
      }
      continue;
    }
    size_t end = indent;
    while (end < line.size() && name_char(line[end])) ++end;
    if (end == indent || end >= line.size() || line[end] != ':') fail("expected 'key:' or 'key: value'");
    const std::string name = line.substr(indent, end - indent);
    std::string rest = line.substr(end + 1);
    std::string comment;
    const size_t hash = rest.find('#');
    size_t comment_col = 0;
    if (hash != std::string::npos) {
      comment = trim(rest.substr(hash + 1));
      comment_col = end + 1 + hash;
      rest = rest.substr(0, hash);
    }
    const std::string value = trim(rest);
    while (!open.empty() && open.back().first >= indent) open.pop_back();
    std::string key;
    for (const auto& g : open) key += g.second + ".";
    key += name;
    if (value.empty()) {
      open.emplace_back(indent, name);
      last_comment = &out.groups[key];
      *last_comment = comment;
    } else {
      if (out.keys.count(key)) fail("duplicate key '" + key + "'");
      PresetEntry& e = out.keys[key];
      e.value = value;
      e.comment = comment;
      e.line = lineno;
      last_comment = &e.comment;
    }
    last_comment_col = comment_col;
    if (hash == std::string::npos) last_comment = nullptr;
  }
  return out;
}

}  // namespace aicore::config
