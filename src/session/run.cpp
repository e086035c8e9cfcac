// session::run: the chip simulation, the race/sync checker (checks.json), stats.json, the
// inspection files, the summary, and the result with its status.
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>

#include "aicore/common/error.hpp"
#include "aicore/common/log.hpp"
#include "aicore/report/stats.hpp"
#include "aicore/session/process.hpp"
#include "aicore/session/session.hpp"
#include "check_session.hpp"
#include "inspection.hpp"
#include "instr_rows.hpp"

namespace aicore::session {

namespace fs = std::filesystem;

namespace {

// stats.json, kept in the result and written when there is an output folder.
void finish_stats(const Simulation& sim, const model::ChipSummary& s, const report::StatsCollector& c,
                  RunResult& r) {
  const config::Config& cfg = *sim.config;
  r.stats =
      report::stats_json(s, c, cfg, {sim.name, sim.options.timing_only, to_string(r.status), r.message});
  r.cycles = s.cycles;
  r.instructions = s.instructions;
  r.time_us = static_cast<double>(s.cycles) / cfg.clock_mhz;
  r.bound_pipe = r.stats["summary"]["bound_pipe"].get<std::string>();
  for (const auto& [pipe, p] : r.stats["pipes"].items())
    r.pipes.push_back({pipe, p["busy_cycles"].get<uint64_t>(), p["active_cycles"].get<uint64_t>(),
                       p["stall_cycles"].get<uint64_t>(), p["instructions"].get<uint64_t>(),
                       p["busy_ratio"].get<double>()});
  if (sim.options.out_dir.empty()) return;
  const std::string path = (fs::path(sim.options.out_dir) / "stats.json").string();
  std::ofstream f(path);
  if (!f)
    throw InputError(SourceLoc{path, 0, 0}, std::string("cannot create stats.json: ") + std::strerror(errno));
  f << r.stats.dump(2) << "\n";
  if (!f.flush()) throw InputError(SourceLoc{path, 0, 0}, "cannot write stats.json (disk full?)");
  r.files.push_back(path);
}

void set_status(RunResult& r, RunStatus s, const std::string& message = "") {
  r.status = s;
  r.exit_status = exit_status(s);
  r.message = message;
}

// Every GM tensor as the run left it (RunOptions::keep_tensors).
void keep_tensors(const model::Chip& chip, RunResult& r) {
  for (uint32_t id = 0; id < chip.tensors().size(); ++id) {
    const model::TensorInfo& t = chip.tensors()[id];
    const uint8_t* data = chip.tensor_data(id);
    r.tensors.push_back({t.name, data ? std::vector<uint8_t>(data, data + t.bytes) : std::vector<uint8_t>{}});
  }
}

// The pieces of one run, in the order they must be built and torn down.
struct Run {
  Run(const Simulation& s, Diagnostics& d)
      : sim(s), diag(d), chip(*s.config, s.sources, s.options.timing_only) {
    chip.add_observer(&stats);
    if (sim.options.keep_instructions) chip.add_observer(&rows);
  }
  const Simulation& sim;
  Diagnostics& diag;
  model::Chip chip;
  report::StatsCollector stats;
  InstrRows rows;
};

void simulate(const Simulation& sim, const report::CycleWindow& window, Diagnostics& diag, RunResult& r,
              std::ostream& out, std::ostream& err) {
  const RunOptions& o = sim.options;
  Run run(sim, diag);
  Inspection inspect(o, sim.name, window, *sim.config, run.chip);
  CheckSession check(o.check, *sim.config, run.chip);
  const model::ChipSummary s = run.chip.run();
  if (s.late_requests)
    diag.warning(std::to_string(s.late_requests) +
                 " shared-resource request(s) came after their cycle (the model's time-order rule was "
                 "broken; their timing is approximate)");
  log().info("run ended at cycle {} after {} instructions", s.cycles, s.instructions);
  inspect.finish(s.cycles, diag);
  r.rows = run.rows.take();
  const auto finish_check = [&](bool quiet_reports) {
    r.checks = check.finish(s, run.chip, o.out_dir, err, quiet_reports);
    r.check_errors = check.errors();
    r.check_warnings = check.warnings();
    if (!o.out_dir.empty()) r.files.push_back((fs::path(o.out_dir) / "checks.json").string());
  };
  if (s.input_error || s.fault) {
    const bool bad_input = s.input_error.has_value();
    const std::string what = bad_input ? s.input_error->what() : s.fault->what();
    diag.error(bad_input ? what : "aicore-sim: fault: " + what);  // first: writing stats.json can fail too
    set_status(r, bad_input ? RunStatus::InputError : RunStatus::Fault, what);
    finish_stats(sim, s, run.stats, r);
    finish_check(bad_input);
    return;
  }
  finish_check(false);  // before the .expect results, which a race may explain
  if (sim.after_run) sim.after_run(run.chip, r, diag);
  bool mismatch = false;
  for (const ExpectResult& e : r.expects) mismatch = mismatch || !e.match;
  set_status(r, check.failed() ? RunStatus::CheckError
                : mismatch     ? RunStatus::Mismatch
                               : RunStatus::Completed);
  if (o.keep_tensors && !o.timing_only) keep_tensors(run.chip, r);
  for (const std::string& f : inspect.files()) r.files.push_back(f);
  finish_stats(sim, s, run.stats, r);
  if (s.flags_left_set) diag.warning(std::to_string(s.flags_left_set) + " flag(s) left set " + sim.end_name);
  r.summary = report::summary_text(s, run.stats, *sim.config);
  if (o.quiet) return;
  for (const ExpectResult& e : r.expects)
    if (e.match) out << "expect " << e.tensor << ": match (" << e.bytes << " bytes)\n";
  out << r.summary;
  for (const std::string& f : r.files)
    if (fs::path(f).filename() != "checks.json") out << "wrote " << f << "\n";
}

}  // namespace

RunResult run(const Simulation& sim, std::ostream& out, std::ostream& err) {
  const RunOptions& o = sim.options;
  Diagnostics diag(err, o.quiet);
  RunResult r;
  report::CycleWindow window;
  if (std::string e = options_error(o, &window); !e.empty()) {
    diag.error("error: " + e);
    r = failed_result(RunStatus::InputError, e);
    return r;
  }
  if (o.out_dir.empty() && (o.instr_log || o.timeline || o.vcd)) {
    const std::string e = "--instr-log, --timeline and --vcd write files: give an output directory";
    diag.error("error: " + e);
    return failed_result(RunStatus::InputError, e);
  }
  claim_model("session::run");
  route_systemc_reports();
  set_verbosity(o.verbosity);
  try {
    simulate(sim, window, diag, r, out, err);
  } catch (const InputError& e) {
    diag.error(e.what());
    set_status(r, RunStatus::InputError, e.what());
  }
  r.messages = diag.messages();
  return r;
}

}  // namespace aicore::session
