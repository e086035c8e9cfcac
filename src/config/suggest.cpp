// The nearest valid key for an unknown one. Misspellings are found by edit distance over the
// key's siblings and over the full dotted paths; a right name in the wrong group by its leaf
// name; a truncated key by prefix; and a key named after what it means rather than how the
// table spells it ("gm.read.bandwidth") by the words of the descriptions in its group.
#include <algorithm>
#include <cctype>

#include "aicore/config/params.hpp"
#include "raw.hpp"

namespace aicore::config::detail {
namespace {

std::string leaf_of(const std::string& key) {
  return key.substr(key.rfind('.') + 1);
}

std::string join(const std::string& group, const std::string& name) {
  return group.empty() ? name : group + "." + name;
}

// The deepest group that `key` validly starts with ("" = the root), and the part of `key` right
// after it.
std::pair<std::string, std::string> valid_prefix(const std::string& key) {
  std::string group;
  size_t start = 0;
  for (;;) {
    const size_t dot = key.find('.', start);
    const std::string part = key.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (dot == std::string::npos || !is_group(join(group, part))) return {group, part};
    group = join(group, part);
    start = dot + 1;
  }
}

std::vector<std::string> lower_words(const std::string& text) {
  std::vector<std::string> words(1);
  for (char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c)))
      words.back() += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    else if (!words.back().empty())
      words.emplace_back();
  }
  if (words.back().empty()) words.pop_back();
  return words;
}

// A leaf under `group` whose description or unit uses a word (4+ letters) of `name`; the group's
// own leaves before those of its subgroups.
std::string by_meaning(const std::string& name, const std::string& group) {
  if (group.empty()) return "";  // top-level descriptions are too general to guess from
  std::vector<std::string> wanted;
  for (const std::string& w : lower_words(name))
    if (w.size() >= 4) wanted.push_back(w);
  const std::string prefix = group + ".";
  for (const bool direct : {true, false}) {
    for (const Param& p : params()) {
      if (p.key.compare(0, prefix.size(), prefix) != 0) continue;
      if (direct != (p.key.find('.', prefix.size()) == std::string::npos)) continue;
      const std::vector<std::string> words = lower_words(p.description + " " + p.unit);
      for (const std::string& w : wanted)
        if (std::find(words.begin(), words.end(), w) != words.end()) return p.key;
    }
  }
  return "";
}

std::string nearest_key(const std::string& key) {
  std::vector<std::string> leaves, leaf_names;
  for (const Param& p : params()) {
    leaves.push_back(p.key);
    leaf_names.push_back(leaf_of(p.key));
  }
  if (std::string near = nearest_word(key, leaves); !near.empty()) return near;
  const auto [group, part] = valid_prefix(key);
  if (std::string near = nearest_word(part, children(group)); !near.empty()) return join(group, near);
  for (const std::string& k : leaves)  // truncated: "cube.int8_k"
    if (!key.empty() && k.compare(0, key.size(), key) == 0) return k;
  if (std::string near = nearest_word(leaf_of(key), leaf_names); !near.empty())  // "l1_bytes" at the top
    for (size_t i = 0; i < leaves.size(); ++i)
      if (leaf_names[i] == near) return leaves[i];
  return by_meaning(leaf_of(key), group);
}

}  // namespace

std::string suggest_key(const std::string& key) {
  const std::string near = nearest_key(key);
  return near.empty() ? "" : "; did you mean '" + near + "'?";
}

}  // namespace aicore::config::detail
