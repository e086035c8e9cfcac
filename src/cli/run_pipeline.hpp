// The part of `aicore-sim run` that turns a configuration and the instruction sources of a
// kernel's cores into every output: the chip simulation, the race/sync checker (checks.json),
// stats.json, the inspection files (instr.csv, timeline.json, waves.vcd), the summary, and the
// exit status. `run` feeds it traces;
// the Ascend C front end (src/frontend) feeds it the programs a kernel recorded.
#pragma once
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "aicore/config/config.hpp"
#include "aicore/model/chip.hpp"
#include "aicore/model/source.hpp"
#include "aicore/report/window.hpp"
#include "diagnostics.hpp"
#include "run_args.hpp"
#include "tensor_outputs.hpp"

namespace aicore::cli {

struct PipelineRun {
  const RunArgs* args =
      nullptr;  // out_dir (must exist), timing_only, the outputs, quiet; trace = the run's name
  report::CycleWindow window;
  const config::Config* cfg = nullptr;
  std::vector<model::InstructionSource*> sources;  // one per core
  // After a completed run: the .out files and .expect checks (none when not set).
  std::function<TensorOutputs(const model::Chip&, Diagnostics&)> tensor_outputs;
  // Said after "flags left set", e.g. "at the end of the trace".
  std::string end_name = "at the end of the trace";
};

// Simulates and writes the outputs; returns the exit status (0, 1 .expect mismatch, 2 input
// error, 3 fault). Messages go to out (results) and err (diagnostics) as for `run`.
int run_pipeline(const PipelineRun& run, std::ostream& out, std::ostream& err);

}  // namespace aicore::cli
