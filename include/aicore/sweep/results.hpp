// The results table of a study, rebuilt from the per-point records every time (so it is always
// exactly what the records say): DIR/results.csv and DIR/results.json, one row per point with a
// record, in point order.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "aicore/sweep/plan.hpp"
#include "aicore/sweep/record.hpp"

namespace aicore::sweep {

struct Table {
  std::vector<std::string>
      columns;  // point, id, key columns, status, exit_code, metrics..., seconds, message
  std::vector<nlohmann::json> rows;  // column -> value (numbers stay numbers)
  std::vector<size_t> missing;       // points without a record (interrupted, or a Slurm task failed)
};

// `records[i]` is point i's record, if it has one.
Table build_table(const Plan& plan, const std::vector<std::optional<Record>>& records);

// results.csv (header + rows; cells quoted when needed) and results.json ({study, name, points,
// done, swept, columns, rows, missing}), each written atomically.
void write_results(const Plan& plan, const Table& t, const std::string& out_dir);

// One CSV cell: quoted when it holds a comma, quote or line break.
std::string csv_cell(const std::string& s);

}  // namespace aicore::sweep
