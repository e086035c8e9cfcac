// to_yaml: walks the parameter table, so the output always has every key, in the preset files'
// tree, and reads back through load() to the same values.
#include <sstream>

#include "aicore/config/loader.hpp"
#include "aicore/config/params.hpp"
#include "raw.hpp"

namespace aicore::config {
namespace {

std::vector<std::string> split(const std::string& key) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t dot; (dot = key.find('.', start)) != std::string::npos; start = dot + 1)
    parts.push_back(key.substr(start, dot - start));
  parts.push_back(key.substr(start));
  return parts;
}

std::string value_text(FieldRef f) {
  if (auto* d = std::get_if<double*>(&f)) return format_number(**d);
  return std::visit([](auto* v) { return std::to_string(static_cast<uint64_t>(*v)); }, f);
}

// The name goes in a comment (it is not a parameter); keep it on one line whatever it holds.
std::string one_line(std::string s) {
  for (char& ch : s)
    if (ch == '\n' || ch == '\r') ch = ' ';
  return s;
}

}  // namespace

std::string to_yaml(const Config& c) {
  Config copy = c;  // the table hands out mutable field addresses
  std::ostringstream out;
  out << "# aicore-sim resolved configuration: " << one_line(c.name) << "\n"
      << "# sources of the preset values: configs/arch2201.yaml and the SoC presets "
         "configs/ascend910*.yaml\n";
  std::vector<std::string> open;  // the group path the previous key was in
  for (const Param& p : params()) {
    std::vector<std::string> parts = split(p.key);
    const std::string leaf = parts.back();
    parts.pop_back();
    size_t same = 0;
    while (same < open.size() && same < parts.size() && open[same] == parts[same]) ++same;
    for (size_t i = same; i < parts.size(); ++i)
      out << (i == 0 ? "\n" : "") << std::string(2 * i, ' ') << parts[i] << ":\n";
    open = parts;
    std::string line = std::string(2 * parts.size(), ' ') + leaf + ": " + value_text(p.field(copy));
    if (line.size() < 36) line.resize(36, ' ');
    out << line << "  # " << p.unit << ": " << p.description << "\n";
  }
  return out.str();
}

}  // namespace aicore::config
