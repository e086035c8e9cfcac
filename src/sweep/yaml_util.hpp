// Internal: yaml-cpp helpers shared by the study parser's files. yaml-cpp stays inside src/sweep.
#pragma once
#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "aicore/sweep/study.hpp"

namespace aicore::sweep::detail {

// yaml-cpp marks are 0-based; SourceLoc is 1-based with 0 = unknown.
inline SourceLoc at(const std::string& file, const YAML::Node& n) {
  const YAML::Mark m = n.Mark();
  if (m.is_null() || m.line < 0) return SourceLoc{file, 0, 0};
  return SourceLoc{file, static_cast<uint32_t>(m.line + 1), static_cast<uint32_t>(m.column + 1)};
}

inline const char* kind(const YAML::Node& n) {
  if (n.IsMap()) return "a mapping";
  if (n.IsSequence()) return "a list";
  if (n.IsNull()) return "nothing";
  return "a single value";
}

// One key of a mapping with its value and the key's location.
struct Entry {
  std::string key;
  SourceLoc key_loc;
  YAML::Node value;
  SourceLoc value_loc;  // the key's when the value has no mark of its own (null)
};

// The entries of a mapping in file order; non-scalar keys and duplicate keys are reported to
// `errors` and left out.
std::vector<Entry> entries(const YAML::Node& map, const std::string& file, const std::string& where,
                           ErrorSink& errors);

// A scalar or a list of scalars -> Scalars; anything else is reported ("`what` must be ...").
// Empty lists and repeated values are errors too.
std::vector<Scalar> scalar_list(const Entry& e, const std::string& file, const std::string& what,
                                ErrorSink& errors);

// The study's text -> a Study; structural problems go to `errors` (a YAML syntax error or a
// document that is not a mapping throws StudyErrors at once: nothing else can be checked).
Study parse_into(const std::string& text, const std::string& path, ErrorSink& errors);
// The study file's text; StudyErrors when it cannot be read.
std::string read_study(const std::string& path);

// The gen: block -> its cases (study_gen.cpp).
void parse_gen(const Entry& e, const std::string& file, Study& s, ErrorSink& errors);

}  // namespace aicore::sweep::detail
