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

std::vector<std::string> all_leaf_keys() {
  std::vector<std::string> keys;
  for (const Param& p : params()) keys.push_back(p.key);
  return keys;
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
      if (find_param(key)) {
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
        throw InputError(kloc, "unknown config key '" + key + "'" + hint(k.Scalar(), group, key));
      }
    }
  }

 private:
  static std::string in(const std::string& group) { return group.empty() ? "" : " (under '" + group + "')"; }
  static std::string kind(const YAML::Node& v) { return v.IsMap() ? "mapping" : "list"; }

  // A misspelt sibling is the likeliest mistake; a key put under the wrong group is next.
  static std::string hint(const std::string& name, const std::string& group, const std::string& key) {
    std::vector<std::string> siblings = children(group);
    const std::string near = nearest_word(name, siblings);
    if (!near.empty()) return "; did you mean '" + join(group, near) + "'?";
    return did_you_mean(key, all_leaf_keys());
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
  throw InputError(loc(start + 1), "unknown config key '" + key + "'" + did_you_mean(key, all_leaf_keys()));
}

std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates) {
  std::string near = nearest_word(word, candidates);
  // A truncated key ("cube.int8_k") is far in edit distance but plainly meant.
  for (size_t i = 0; near.empty() && !word.empty() && i < candidates.size(); ++i)
    if (candidates[i].compare(0, word.size(), word) == 0) near = candidates[i];
  // So is a right name in the wrong group ("l1_bytes" at the top level): match last parts.
  if (near.empty()) {
    auto last = [](const std::string& k) { return k.substr(k.rfind('.') + 1); };
    std::vector<std::string> lasts;
    for (const std::string& c : candidates) lasts.push_back(last(c));
    const std::string tail = nearest_word(last(word), lasts);
    for (size_t i = 0; near.empty() && !tail.empty() && i < candidates.size(); ++i)
      if (lasts[i] == tail) near = candidates[i];
  }
  return near.empty() ? "" : "; did you mean '" + near + "'?";
}

}  // namespace aicore::config::detail
