// Internal: the raw layer of the loader. A file and the --set strings become
// a RawConfig (key -> text + where it came from) without interpreting any value; resolve() then
// turns it into a typed, validated Config in one place. yaml-cpp stays inside raw.cpp.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "aicore/common/error.hpp"
#include "aicore/common/format.hpp"
#include "aicore/config/config.hpp"

namespace aicore::config::detail {

struct RawValue {
  std::string text;  // the scalar exactly as written
  SourceLoc loc;     // of the value (file) or of the value part of a --set
};

struct RawConfig {
  std::string file;                         // for errors that have no better place
  std::map<std::string, RawValue> values;   // leaf key -> value
  std::map<std::string, SourceLoc> groups;  // group key ("" = root) -> where it is opened
  std::optional<RawValue> base;             // `base: PRESET|PATH`: the file is an overlay of that one
};

// Structure checks happen here: unknown, duplicate and misplaced keys; scalars vs mappings.
RawConfig parse_yaml(const std::string& text, const std::string& file);

// Applies the `ordinal`-th (1-based) --set "a.b.c=value" on top of `raw`.
void apply_set(RawConfig& raw, const std::string& set, uint32_t ordinal);

// Completeness, types, ranges and cross-field rules.
Config resolve(const RawConfig& raw, const std::string& name);

// "; did you mean 'x'?" for the valid key nearest to the unknown `key`, or "" when nothing is
// close (suggest.cpp).
std::string suggest_key(const std::string& key);

}  // namespace aicore::config::detail
