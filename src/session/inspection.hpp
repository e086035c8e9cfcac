// The inspection outputs of a run (instr.csv, timeline.json, waves.vcd): written while the model
// runs and closed after it, even when the run stops at a fault (they show what led to it).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "aicore/config/config.hpp"
#include "aicore/model/chip.hpp"
#include "aicore/report/background.hpp"
#include "aicore/report/instr_csv.hpp"
#include "aicore/report/signals.hpp"
#include "aicore/report/timeline.hpp"
#include "aicore/report/vcd_writer.hpp"
#include "aicore/report/window.hpp"
#include "aicore/session/diagnostics.hpp"
#include "aicore/session/options.hpp"

namespace aicore::session {

class Inspection {
 public:
  // Creates the files asked for and registers their writers with `sim` (InputError if a file
  // cannot be created). `name`: the run's trace or kernel, as the files' titles.
  Inspection(const RunOptions& o, const std::string& name, const report::CycleWindow& w,
             const config::Config& cfg, model::Chip& sim);

  // Closes the files; notes and warnings about them go to `diag`.
  void finish(uint64_t cycles, Diagnostics& diag);

  // The files written (DIR/instr.csv, ...).
  std::vector<std::string> files() const;

 private:
  const RunOptions& options_;
  std::unique_ptr<report::InstrCsvWriter> csv_;
  std::unique_ptr<report::SignalTracker> signals_;  // feeds the timeline's counters and the waves
  std::unique_ptr<report::TimelineWriter> timeline_;
  std::unique_ptr<report::VcdWriter> vcd_;
  // Runs the writers above on a worker thread; declared last so it stops before they go.
  std::unique_ptr<report::BackgroundObservers> worker_;
};

}  // namespace aicore::session
