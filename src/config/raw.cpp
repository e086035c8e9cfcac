#include "raw.hpp"

#include <yaml-cpp/yaml.h>

#include <set>

#include "aicore/config/params.hpp"

namespace aicore::config::detail {
namespace {

SourceLoc at(const std::string& file, const YAML::Mark& m) {
  // yaml-cpp marks are 0-based; SourceLoc is 1-based with 0 = unknown.
  if (m.is_null() || m.line < 0) return SourceLoc{file, 0, 0};
  return SourceLoc{file, static_cast<uint32_t>(m.line + 1), static_cast<uint32_t>(m.column + 1)};
}

std::string join(const std::string& group, const std::string& name) {
  return group.empty() ? name : group + "." + name;
}

std::string list_children(const std::string& group) {
  std::string s;
  for (const std::string& c : children(group)) s += (s.empty() ? "" : ", ") + c;
  return s;
}

class Walker {
 public:
  explicit Walker(RawConfig& raw) : raw_(raw) {}

  void map(const YAML::Node& node, const std::string& group) {
    std::set<std::string> seen;  // yaml-cpp keeps duplicate keys silently; we refuse them
    // Copies, not references: yaml-cpp's iterator hands out a temporary pair proxy.
    for (auto it = node.begin(); it != node.end(); ++it) {
      const YAML::Node k = it->first;
      const YAML::Node v = it->second;
      const SourceLoc kloc = at(raw_.file, k.Mark());
      if (!k.IsScalar()) throw InputError(kloc, "a key must be a plain name" + in(group));
      const std::string key = join(group, k.Scalar());
      if (!seen.insert(k.Scalar()).second) throw InputError(kloc, "duplicate key '" + key + "'");
      SourceLoc vloc = at(raw_.file, v.Mark());
      if (vloc.line == 0) vloc = kloc;
      if (key == "base") {
        base(v, kloc, vloc);
      } else if (find_param(key)) {
        if (v.IsNull()) throw InputError(kloc, "key '" + key + "' has no value");
        if (!v.IsScalar())
          throw InputError(vloc, "key '" + key + "' takes a single number, not a " + kind(v));
        raw_.values[key] = RawValue{v.Scalar(), vloc};
      } else if (is_group(key)) {
        if (!v.IsMap())
          throw InputError(v.IsNull() ? kloc : vloc,
                           "key '" + key + "' must be a mapping of " + list_children(key));
        raw_.groups[key] = kloc;
        map(v, key);
      } else {
        throw InputError(kloc, "unknown config key '" + key + "'" +
                                   (k.Scalar() == "base" ? " ('base' belongs at the top level of the file)"
                                                         : suggest_key(key)));
      }
    }
  }

 private:
  static std::string in(const std::string& group) { return group.empty() ? "" : " (under '" + group + "')"; }
  static std::string kind(const YAML::Node& v) { return v.IsMap() ? "mapping" : "list"; }

  // The top-level `base: PRESET|PATH` of an overlay: the file this one starts from.
  void base(const YAML::Node& v, const SourceLoc& kloc, const SourceLoc& vloc) {
    if (v.IsNull()) throw InputError(kloc, "key 'base' has no value (a preset name or a YAML file path)");
    if (!v.IsScalar())
      throw InputError(vloc, "key 'base' takes a preset name or a YAML file path, not a " + kind(v));
    if (v.Scalar().empty()) throw InputError(vloc, "key 'base' is empty (a preset name or a YAML file path)");
    raw_.base = RawValue{v.Scalar(), vloc};
  }

  RawConfig& raw_;
};

}  // namespace

RawConfig parse_yaml(const std::string& text, const std::string& file) {
  RawConfig raw;
  raw.file = file;
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw InputError(at(file, e.mark), "malformed YAML: " + e.msg);
  }
  const SourceLoc top{file, 1, 1};
  if (root.IsNull()) throw InputError(top, "empty config file (expected keys " + list_children("") + ")");
  if (!root.IsMap())
    throw InputError(at(file, root.Mark()).line ? at(file, root.Mark()) : top,
                     "a config file must be a mapping of keys " + list_children(""));
  raw.groups[""] = at(file, root.Mark()).line ? at(file, root.Mark()) : top;
  try {
    Walker(raw).map(root, "");
  } catch (const YAML::Exception& e) {  // defensive: the walk only reads parsed nodes
    throw InputError(at(file, e.mark), "invalid config: " + e.msg);
  }
  return raw;
}

void apply_set(RawConfig& raw, const std::string& set, uint32_t ordinal) {
  auto loc = [&](size_t col) { return SourceLoc{"--set", ordinal, static_cast<uint32_t>(col)}; };
  const size_t eq = set.find('=');
  if (eq == std::string::npos) throw InputError(loc(1), "expected KEY=VALUE, got '" + set + "'");
  const std::string key = set.substr(0, eq);
  const std::string value = set.substr(eq + 1);
  if (key.empty()) throw InputError(loc(1), "missing key before '=' in '" + set + "'");
  if (find_param(key)) {
    if (value.empty()) throw InputError(loc(eq + 2), "key '" + key + "' has no value");
    raw.values[key] = RawValue{value, loc(eq + 2)};
    return;
  }
  if (key == "base")
    throw InputError(loc(1), "'base' is given in a config file (--config FILE), not by --set");
  if (is_group(key))
    throw InputError(loc(1), "'" + key + "' is a group of keys, not a value; set one of " + key + ".{" +
                                 list_children(key) + "}");
  // Point at the first dotted part that does not continue a valid key path.
  size_t start = 0;
  std::string path;
  for (;;) {
    const size_t dot = key.find('.', start);
    const std::string next = join(path, key.substr(start, dot - start));
    if (dot == std::string::npos) break;
    if (find_param(next)) {  // "clock_mhz.x": the part after a leaf is the wrong one
      start = dot + 1;
      break;
    }
    if (!is_group(next)) break;
    path = next;
    start = dot + 1;
  }
  throw InputError(loc(start + 1), "unknown config key '" + key + "'" + suggest_key(key));
}

}  // namespace aicore::config::detail
