// What aicore_sim.sweep() and aicore_sim.gen() run (python/module.cpp wraps them): the sweep
// library's local flow, as `aicore-sim sweep` runs a study, and the generator's command. Plain C++,
// no Python: the module calls these with the GIL released.
#pragma once
#include <functional>
#include <string>
#include <vector>

namespace aicore::python {

struct SweepRequest {
  std::string study;      // the study file, or (with text) the name its messages give it
  std::string text;       // the study's YAML text ("" = read `study`)
  std::string out_dir;    // DIR: points/, results.csv, results.json, study.yaml, gen/
  int jobs = 0;           // worker processes; 0 = every core this process may use
  bool force = false;     // run every point again, even those with a final record
  bool progress = false;  // the CLI's progress lines on stderr
  // Polled while points run: a signal number stops the sweep as that signal would (sweep::PoolOptions).
  std::function<int()> stop;
};

struct SweepOutcome {
  std::string error;  // what `aicore-sim sweep` prints before exiting 2 ("" = none)
  std::string json;   // {columns, rows, missing, swept, warnings, summary, name, run, skipped, interrupted}
};

// Validates the study, generates its gen: cases, runs its unfinished points on a pool of forked
// workers (each point one `aicore-sim run` in its own process), writes DIR's records and results
// and returns the results table. Never throws for bad input: that is SweepOutcome::error.
SweepOutcome run_sweep(const SweepRequest& request);

struct GenOutcome {
  int status = 0;  // `aicore-sim gen`'s exit status
  std::string out, err;
};

// `aicore-sim gen ARGS`.
GenOutcome run_gen(const std::vector<std::string>& args);

}  // namespace aicore::python
