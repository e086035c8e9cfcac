// Simulating measured rows at given values of the fitted keys (docs/validation.md): the traces
// are written once, each point's runs go to a Simulator (the CLI's runs them in parallel worker
// processes), and results are cached by point, so a search that comes back to a point pays nothing.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "aicore/calib/bench.hpp"
#include "aicore/calib/data.hpp"
#include "aicore/config/config.hpp"

namespace aicore::calib {

// One simulation: a timing-only run of `trace` with the base config and these --set overrides.
struct SimJob {
  std::string trace;  // a trace, or (cores > 1) a kernel manifest
  std::vector<std::string> sets;
  uint32_t cores = 1;  // the trace's (or manifest's) cores
  bool chip = false;   // a kernel (one core or a whole chip): run alone, with the chip as configured
};
struct SimResult {
  bool ok = false;
  std::string message;  // why not (its run's error), when !ok
  uint64_t cycles = 0;
  // Each pipe as msprof counts it (stats.json aic_time_cycles), kKernelPipeNames order.
  std::array<uint64_t, kKernelPipeCount> active{};  // several cores: the mean over the cores
  uint64_t mean_core_cycles = 0;                    // several cores: msprof's aicore time
  double l2_read_hit_rate = 0;                      // several cores: the chip's L2 read hits / reads
};
// Runs every job (in any order, in parallel) and returns their results in job order.
using Simulator = std::function<std::vector<SimResult>(const std::vector<SimJob>&)>;

// A key being fitted and where its values may go.
struct FitKey {
  std::string key;
  double lo = 0, hi = 0;
  bool integer = false;
};

// A row's simulated figures: a microbenchmark's metric, or a kernel's time and pipe times (us).
struct RowFigures {
  double value = 0;                                // microbenchmark rows
  double task_us = 0;                              // kernel rows
  double aicore_us = 0;                            // kernel rows of several cores: the mean core
  double l2_hit_pct = 0;                           // kernel rows of several cores: L2 read hits, %
  std::array<double, kKernelPipeCount> pipe_us{};  // kernel rows
};

// Relative errors of the simulated figures and the tolerances they are judged by.
struct Tolerances {
  double micro = 0.05, task = 0.10, pipe = 0.20;
};

// Rows are numbered micro first, then kernels.
class Evaluator {
 public:
  // Writes every row's trace(s) into work_dir. Throws InputError (at the row) for a
  // microbenchmark the configuration's buffers cannot hold.
  Evaluator(const Dataset& data, const config::Config& base, std::vector<FitKey> keys,
            const std::string& work_dir, Simulator sim);

  size_t rows() const { return data_.micro.size() + data_.kernels.size(); }
  bool is_kernel(size_t row) const { return row >= data_.micro.size(); }
  RowSet set_of(size_t row) const;
  const SourceLoc& loc_of(size_t row) const;
  const std::vector<FitKey>& keys() const { return keys_; }

  // The figures of rows `which` at each point (one value per key), computed in one batch.
  // Throws std::runtime_error naming the row and point when a run fails.
  std::vector<std::vector<RowFigures>> run(const std::vector<std::vector<double>>& points,
                                           const std::vector<size_t>& which);
  // The --set strings of a point.
  std::vector<std::string> sets_of(const std::vector<double>& point) const;
  // How far a row's figures are from the measurement, squared and scaled by the tolerances:
  // the row's share of the fit's objective.
  double cost(size_t row, const RowFigures& f, const Tolerances& tol) const;
  // Each compared figure of a row: (label, measured, simulated, tolerance).
  struct Compared {
    std::string label;
    double measured, simulated, tolerance;
  };
  std::vector<Compared> compare(size_t row, const RowFigures& f, const Tolerances& tol) const;
  uint64_t simulations() const { return simulations_; }

 private:
  std::vector<std::string> row_traces(size_t row) const;
  RowFigures figures(size_t row, const std::vector<SimResult>& runs) const;

  const Dataset& data_;
  double clock_mhz_;
  std::vector<FitKey> keys_;
  Simulator sim_;
  std::vector<Micro> micro_;
  std::vector<std::vector<std::string>> traces_;  // per row: the trace files of its runs
  std::map<std::pair<size_t, std::vector<double>>, RowFigures> cache_;
  uint64_t simulations_ = 0;
};

}  // namespace aicore::calib
