// `aicore-sim diff RUN_A RUN_B`: two runs' stats.json compared metric by metric (every numeric
// field, flattened to dotted names; the resolved configs compared key by key), with absolute and
// relative change and the bound pipe before and after.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace aicore::sweep {

struct Change {
  std::string section;  // "metric", "config" or "info" (text fields: trace, status, ...)
  std::string name;     // dotted: cycles, pipes.MTE2.busy_cycles, gm.read.bytes_per_cycle
  nlohmann::json a, b;  // null when absent on that side
  bool changed = false;
};

struct RunDiff {
  std::string a_path, b_path;  // the stats.json files
  std::string bound_a, bound_b;
  std::vector<Change> changes;  // every field of either side, metrics first, then config, info
};

// A run's output directory (its stats.json) or a stats.json file. Throws aicore::InputError when
// it is missing or is not a stats.json.
nlohmann::json load_stats(const std::string& path_or_dir, std::string* file);

RunDiff diff_runs(const std::string& a, const std::string& b);

// Text: the bound pipe, changed config keys and info fields, and a table of the changed metrics
// (all of them with `all`); a count of the unchanged.
std::string diff_text(const RunDiff& d, bool all);
// CSV for scripts: header section,name,a,b,abs_change,rel_change,changed and one row per field of
// either side, changed or not.
std::string diff_csv(const RunDiff& d);

}  // namespace aicore::sweep
