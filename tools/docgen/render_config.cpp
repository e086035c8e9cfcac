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

static bool set_by_a_soc(const std::vector<Preset>& socs, const std::string& key) {
  for (const Preset& s : socs)
    if (s.text.keys.count(key)) return true;
  return false;
}

std::string config_keys(const Preset& base, const std::vector<Preset>& socs) {
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
      out << "| key | value | unit | legal range | meaning | source |\n"
          << "|---|---|---|---|---|---|\n";
    }
    const PresetEntry& e = entry(base, p);
    std::string value = "`" + e.value + "`";
    if (set_by_a_soc(socs, p.key)) value += " (per SoC: [SoC presets](#soc-presets))";
    out << "| `" << p.key << "` | " << value << " | " << cell(p.unit) << " | " << cell(range_of(p)) << " | "
        << cell(p.description) << " | " << link_sources(cell(e.comment)) << " |\n";
  }
  return out.str();
}

std::string soc_presets(const std::vector<Preset>& socs) {
  // The keys any SoC sets, in parameter-table order.
  std::vector<const config::Param*> keys;
  for (const config::Param& p : config::params())
    if (set_by_a_soc(socs, p.key)) keys.push_back(&p);
  for (const Preset& s : socs)
    for (const auto& [key, entry] : s.text.keys)
      if (key != "base" && !config::find_param(key))
        throw std::runtime_error("preset " + s.name + " sets '" + key + "', which is not a parameter");
  std::ostringstream out;
  out << "| preset |";
  for (const config::Param* p : keys) out << " `" << p->key << "` |";
  out << "\n|---|";
  for (size_t i = 0; i < keys.size(); ++i) out << "---|";
  out << "\n";
  for (const Preset& s : socs) {
    out << "| `" << s.name << "` |";
    for (const config::Param* p : keys) out << " " << with_size(value_of(*p, s.config), p->unit) << " |";
    out << "\n";
  }
  out << "\nWhere each value comes from:\n\n";
  for (const Preset& s : socs) {
    out << "* `" << s.name << "`:";
    const char* sep = " ";
    for (const config::Param* p : keys) {
      const auto it = s.text.keys.find(p->key);
      if (it == s.text.keys.end()) continue;
      entry(s, *p);  // the text agrees with the loaded value
      out << sep << "`" << p->key << "` " << link_sources(cell(it->second.comment));
      sep = "; ";
    }
    out << ".\n";
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
