// Running a prepared simulation: a resolved configuration, one instruction source per core and the
// run options, in, a RunResult out, with every output the options ask for (stats.json and
// checks.json in the output folder, instr.csv, timeline.json, waves.vcd, the summary and
// messages on the given streams). `aicore-sim run` (run_trace) and the Ascend C front end (its
// recorded programs) both run through here; so can a library caller such as the Python API.
//
// SystemC elaborates one model per process (process.hpp): run() may be called once per process;
// run_in_child() runs any number, each in a fork of a process that never elaborated one.
#pragma once
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "aicore/config/config.hpp"
#include "aicore/model/chip.hpp"
#include "aicore/model/source.hpp"
#include "aicore/session/diagnostics.hpp"
#include "aicore/session/options.hpp"
#include "aicore/session/result.hpp"

namespace aicore::session {

struct Simulation {
  std::string name;                                  // stats.json "trace": the trace or kernel simulated
  const config::Config* config = nullptr;            // resolved (load_config)
  std::vector<model::InstructionSource*> sources;    // one per core, in core order
  RunOptions options;                                // options.config and .sets are not read here
  std::string end_name = "at the end of the trace";  // said after "N flag(s) left set"
  // After a run that completed, before stats.json: the .out files and .expect checks (each
  // ExpectResult that does not match makes the run a mismatch). Trace runs set it.
  std::function<void(const model::Chip&, RunResult&, Diagnostics&)> after_run;
};

// Simulates `sim` in this process and writes its outputs: results on `out` (unless quiet),
// everything else on `err`. Bad input is a result (status input_error), never an exception;
// std::logic_error when this process has simulated a model already.
RunResult run(const Simulation& sim, std::ostream& out, std::ostream& err);

// `aicore-sim run PATH`: a .trace (one core) or a kernel manifest (one trace per core), the
// config loaded from options.config and options.sets, .out files written and .expects checked.
RunResult run_trace(const std::string& path, const RunOptions& options, std::ostream& out, std::ostream& err);

}  // namespace aicore::session
