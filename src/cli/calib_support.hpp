// What `calibrate` and `validate` share: the simulator that runs rows in worker processes, the
// per-row table and its summary, the YAML overlay of fitted values and the plot.
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

#include "aicore/calib/evaluate.hpp"
#include "aicore/calib/fit.hpp"

namespace aicore::cli {

// A fresh folder under $TMPDIR, removed at scope exit (the traces and runs of one command).
class WorkDir {
 public:
  WorkDir();
  ~WorkDir();
  WorkDir(const WorkDir&) = delete;
  WorkDir& operator=(const WorkDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Runs jobs as `aicore-sim run --timing-only` in `workers` forked processes (0 = every core),
// with --config `config_arg`. Jobs with the same --set values run as the cores of one chip in
// one process, with the chip's shared GM bandwidth lifted so that it never binds: each core then
// times exactly as alone (a core is capped by its own port), for one process start instead of
// many. Not done when a job sets a chip-level or GM-port key, or the config's chip bandwidth is
// below a core's port (then a core alone would be limited by the chip).
calib::Simulator make_simulator(const std::string& config_arg, const config::Config& base, int workers,
                                const std::string& work_dir);

// One row per compared figure: where, what, measured, before (when given), now, error, set.
struct TableRow {
  std::string row, figure, set;
  double measured = 0, before = 0, now = 0, tolerance = 0;
};
std::vector<TableRow> table_rows(const calib::Evaluator& e, const std::vector<calib::RowFigures>& now,
                                 const std::vector<calib::RowFigures>* before, const calib::Tolerances& tol);
// The table, then per set the mean and worst |error| and the rows beyond their tolerance.
// Returns how many rows are beyond their tolerance.
size_t print_table(std::ostream& out, const std::vector<TableRow>& rows, bool with_before);

// The overlay: `base:` the config, each fitted key with its value and the rows it was fitted to.
std::string overlay_yaml(const std::string& base, const std::vector<std::string>& header,
                         const std::vector<calib::FitKey>& keys, const std::vector<double>& values,
                         const std::vector<std::string>& fitted_to);
// "measured-910b1.csv:10-13,16; kernels-a2.csv:9" for rows of one or more files.
std::string rows_text(const calib::Evaluator& e, const std::vector<size_t>& rows);

}  // namespace aicore::cli
