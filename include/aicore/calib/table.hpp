// What `calibrate` and `validate` print and write: the per-row table and its summary, the YAML
// overlay of fitted values, and the rows each key was fitted to.
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

#include "aicore/calib/evaluate.hpp"
#include "aicore/calib/fit.hpp"

namespace aicore::calib {

// One row per compared figure: where, what, measured, before (when given), now, error, set.
struct TableRow {
  std::string row, figure, set;
  double measured = 0, before = 0, now = 0, tolerance = 0;
};
std::vector<TableRow> table_rows(const Evaluator& e, const std::vector<RowFigures>& now,
                                 const std::vector<RowFigures>* before, const Tolerances& tol);
// The table, then per set the mean and worst |error| and the rows beyond their tolerance.
// Returns how many rows are beyond their tolerance.
size_t print_table(std::ostream& out, const std::vector<TableRow>& rows, bool with_before);

// The overlay: `base:` the config, each fitted key with its value and the rows it was fitted to.
std::string overlay_yaml(const std::string& base, const std::vector<std::string>& header,
                         const std::vector<FitKey>& keys, const std::vector<double>& values,
                         const std::vector<std::string>& fitted_to);
// "measured-910b1.csv:10-13,16; kernels-a2.csv:9" for rows of one or more files.
std::string rows_text(const Evaluator& e, const std::vector<size_t>& rows);

}  // namespace aicore::calib
