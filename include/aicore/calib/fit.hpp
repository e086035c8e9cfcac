// The search `calibrate` runs (docs/validation.md, "How the fit works"): coordinate descent over
// the chosen keys, each within its range, starting from the config's values. For one key at a
// time, a coarse grid over the range (geometric when the range spans more than a factor 16; in
// the passes after the first, five points around the current value), then the bracket around the
// best point is narrowed until it is one integer (integer keys) or 1/2000 of the range wide
// (doubles, which keep four significant digits). Passes over all keys repeat until none moves or
// a pass gains less than min_gain. Deterministic: the same data, config and keys give the same
// values. It is a local search: coupled keys are found from a start near their basin (the
// --config values). Only the rows a key changes are simulated again for it: in the first pass a
// key's rows are found by simulating every training row at both ends of its range.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "aicore/calib/evaluate.hpp"

namespace aicore::calib {

// The default search range of a key (a plausible physical range, inside the key's legal
// range), and whether its values are integers. Throws InputError at `where` for a key that is
// not a timing key of the table, or one fitting cannot move (clock_mhz, buffer sizes, ...).
FitKey default_fit_key(const std::string& key, const SourceLoc& where);
// "KEY" or "KEY=LO:HI".
FitKey parse_fit_key(const std::string& spec, const SourceLoc& where);

struct FitOptions {
  Tolerances tolerances;
  int max_passes = 4;
  double min_gain = 0.01;  // stop after a pass that lowered the objective by less than this fraction
};

struct FitResult {
  std::vector<double> start, values;             // per key
  std::vector<std::vector<size_t>> rows_of_key;  // training rows each key changes
  double start_cost = 0, cost = 0;               // objective over the training rows
  int passes = 0;
};

// `start`: the base config's values of the keys (clamped into their ranges).
FitResult fit(Evaluator& eval, const std::vector<double>& start, const FitOptions& options);

// The training rows' objective at a point: the sum of Evaluator::cost.
double objective(Evaluator& eval, const std::vector<double>& point, const Tolerances& tol);

}  // namespace aicore::calib
