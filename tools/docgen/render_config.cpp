// docs/configuration.md's key tables: the declared parameter table for unit, range and meaning;
// the preset files for each value and its source (the comment after it).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <variant>

#include "aicore/common/format.hpp"
#include "aicore/config/caps.hpp"
#include "aicore/config/params.hpp"
#include "docgen.hpp"

namespace aicore::docgen {
namespace {

// "524288 (512 KiB)": byte counts are easier to check in binary units.
std::string with_size(double v, const std::string& unit) {
  const std::string plain = format_number(v);
  if (unit != "bytes" || v < 1024) return plain;
  const char* names[] = {"KiB", "MiB", "GiB", "TiB"};
  double scaled = v / 1024;
  int i = 0;
  while (i < 3 && std::fmod(scaled, 1024) == 0 && scaled >= 1024) {
    scaled /= 1024;
    ++i;
  }
  if (std::nearbyint(scaled) != scaled) return plain;
  return plain + " (" + format_number(scaled) + " " + names[i] + ")";
}

double value_of(const config::Param& p, const config::Config& c) {
  config::Config copy = c;  // Param::field hands out mutable addresses
  return std::visit([](auto* f) { return static_cast<double>(*f); }, p.field(copy));
}

bool is_integer(const config::Param& p) {
  config::Config c;
  return !std::holds_alternative<double*>(p.field(c));
}

std::string range_of(const config::Param& p) {
  std::string r = with_size(p.min, p.unit) + " .. " + with_size(p.max, p.unit);
  if (p.multiple_of > 1) r += ", a multiple of " + std::to_string(p.multiple_of);
  r += is_integer(p) ? " (integer)" : "";
  return r;
}

std::string cell(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

// "[perf]" in a preset comment names an entry of docs/sources.md: make it a link there.
std::string link_sources(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    const size_t close = s[i] == '[' ? s.find(']', i) : std::string::npos;
    bool name = close != std::string::npos && close > i + 1;
    for (size_t j = i + 1; name && j < close; ++j) name = (s[j] >= 'a' && s[j] <= 'z') || s[j] == '-';
    if (!name) {
      out += s[i];
      continue;
    }
    const std::string id = s.substr(i + 1, close - i - 1);
    out += "[" + id + "](sources.md#" + id + ")";
    i = close;
  }
  return out;
}

std::string group_of(const std::string& key) {
  const size_t dot = key.rfind('.');
  return dot == std::string::npos ? "" : key.substr(0, dot);
}

const PresetEntry& entry(const Preset& preset, const config::Param& p) {
  const auto it = preset.text.keys.find(p.key);
  if (it == preset.text.keys.end())
    throw std::runtime_error("preset " + preset.name + " has no line for key '" + p.key + "'");
  // The scanner reads text, the loader YAML: if they disagree, the scanner is wrong.
  char* end = nullptr;
  const double text_value = std::strtod(it->second.value.c_str(), &end);
  if (*end != '\0' || text_value != value_of(p, preset.config))
    throw std::runtime_error("preset " + preset.name + " line " + std::to_string(it->second.line) + ": '" +
                             it->second.value + "' is not the loaded value of " + p.key);
  return it->second;
}

}  // namespace

std::string config_keys(const std::vector<Preset>& presets) {
  if (presets.empty()) throw std::runtime_error("no presets");
  const Preset& base = presets.front();
  std::ostringstream out;
  std::string group = "?";
  for (const config::Param& p : config::params()) {
    const std::string g = group_of(p.key);
    if (g != group) {
      group = g;
      out << (p.key == config::params().front().key ? "" : "\n") << "### "
          << (g.empty() ? std::string("Top level") : "`" + g + "`") << "\n\n";
      const auto it = base.text.groups.find(g);
      if (it != base.text.groups.end() && !it->second.empty()) out << link_sources(it->second) << ".\n\n";
      out << "| key | " << base.name << " | unit | legal range | meaning | source |\n"
          << "|---|---|---|---|---|---|\n";
    }
    const PresetEntry& e = entry(base, p);
    std::string value = "`" + e.value + "`", source = e.comment;
    for (size_t i = 1; i < presets.size(); ++i) {
      const PresetEntry& o = entry(presets[i], p);
      if (value_of(p, presets[i].config) != value_of(p, base.config))
        value += " (" + presets[i].name + ": `" + o.value + "`)";
      if (o.comment != e.comment) source += " — " + presets[i].name + ": " + o.comment;
    }
    out << "| `" << p.key << "` | " << value << " | " << cell(p.unit) << " | " << cell(range_of(p)) << " | "
        << cell(p.description) << " | " << link_sources(cell(source)) << " |\n";
  }
  return out.str();
}

std::string config_caps() {
  std::ostringstream out;
  out << "| key | capped by | why |\n|---|---|---|\n";
  for (const config::Cap& c : config::caps())
    out << "| `" << c.key << "` | `" << c.capped_by << "` | " << cell(c.why) << " |\n";
  return out.str();
}

}  // namespace aicore::docgen
