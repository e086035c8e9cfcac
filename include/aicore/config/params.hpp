// The one table of configuration parameters (after Ramulator 2.0's declared
// parameters): key path, unit, description, where the value lives in Config, and its legal range.
// Parsing, --set, completeness checking, to_yaml and to_json all walk this table, so adding a
// field to Config means adding exactly one row here.
#pragma once
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "aicore/config/config.hpp"

namespace aicore::config {

// Address of one numeric field of a Config; the alternative says the field's type.
using FieldRef = std::variant<uint32_t*, uint64_t*, double*>;

struct Param {
  std::string key;          // dotted path in the YAML tree, e.g. "gm.read.bytes_per_cycle"
  std::string unit;         // "B/cycle", "cycles", "bytes", ...
  std::string description;  // one line, shown by `config show`
  FieldRef (*field)(Config&);
  double min = 0, max = 0;   // inclusive legal range (a min > 0 reads as "must be > 0" for 0)
  uint64_t multiple_of = 0;  // integers only; 0 = no constraint
};

// Rows in output order; keys of one group are contiguous.
const std::vector<Param>& params();
const Param* find_param(const std::string& key);  // nullptr if `key` is not a leaf

// Group paths ("buffers", "gm", "gm.read", ...), in table order; the root is not listed.
const std::vector<std::string>& groups();
bool is_group(const std::string& key);

// Immediate child names of a group ("" = root), in table order: children("gm") = read, write,
// shared_bytes_per_cycle.
std::vector<std::string> children(const std::string& group);

}  // namespace aicore::config
