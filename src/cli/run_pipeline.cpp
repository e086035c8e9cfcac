#include "run_pipeline.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>

#include "aicore/common/log.hpp"
#include "aicore/report/stats.hpp"
#include "check_option.hpp"
#include "commands.hpp"
#include "inspection.hpp"

namespace aicore::cli {

namespace fs = std::filesystem;

namespace {

void write_stats(const RunArgs& a, const model::ChipSummary& s, const report::StatsCollector& c,
                 const config::Config& cfg, const std::string& status, const std::string& message) {
  report::RunInfo info{a.trace, a.timing_only, status, message};
  const std::string path = (fs::path(a.out_dir) / "stats.json").string();
  std::ofstream f(path);
  if (!f)
    throw InputError(SourceLoc{path, 0, 0}, std::string("cannot create stats.json: ") + std::strerror(errno));
  f << report::stats_json(s, c, cfg, info).dump(2) << "\n";
  if (!f.flush()) throw InputError(SourceLoc{path, 0, 0}, "cannot write stats.json (disk full?)");
}

}  // namespace

int run_pipeline(const PipelineRun& run, std::ostream& out, std::ostream& err) {
  const RunArgs& a = *run.args;
  const config::Config& cfg = *run.cfg;
  Diagnostics diag(err, a.quiet);
  try {
    model::Chip sim(cfg, run.sources, a.timing_only);
    report::StatsCollector stats;
    sim.add_observer(&stats);
    Inspection inspect(a, run.window, cfg, sim);
    CheckMode check_mode = CheckMode::Error;
    if (!parse_check_mode(a.check, check_mode, err)) return kExitBadInput;
    CheckSession check(check_mode, cfg, sim);
    const model::ChipSummary s = sim.run();
    if (s.late_requests)
      diag.warning(std::to_string(s.late_requests) +
                   " shared-resource request(s) came after their cycle (the model's time-order rule was "
                   "broken; their timing is approximate)");
    log().info("run ended at cycle {} after {} instructions", s.cycles, s.instructions);
    inspect.finish(s.cycles, diag);
    if (s.input_error) {
      err << s.input_error->what() << "\n";  // first: writing stats.json can fail too
      write_stats(a, s, stats, cfg, "input_error", s.input_error->what());
      check.finish(s, sim, a.out_dir, err, true);
      return kExitBadInput;
    }
    if (s.fault) {
      err << "aicore-sim: fault: " << s.fault->what() << "\n";
      write_stats(a, s, stats, cfg, "fault", s.fault->what());
      check.finish(s, sim, a.out_dir, err);
      return kExitFault;
    }
    check.finish(s, sim, a.out_dir, err);  // before the .expect results, which a race may explain
    const TensorOutputs tensors = run.tensor_outputs ? run.tensor_outputs(sim, diag) : TensorOutputs{};
    write_stats(a, s, stats, cfg, tensors.status == kExitOk ? "completed" : "mismatch", "");
    if (s.flags_left_set)
      diag.warning(std::to_string(s.flags_left_set) + " flag(s) left set " + run.end_name);
    if (!a.quiet) {
      for (const std::string& line : tensors.results) out << line << "\n";
      out << report::summary_text(s, stats, cfg);
      for (const std::string& path : tensors.written) out << "wrote " << path << "\n";
      inspect.announce(out);
      out << "wrote " << (fs::path(a.out_dir) / "stats.json").string() << "\n";
    }
    return check.status(tensors.status);
  } catch (const InputError& e) {
    err << e.what() << "\n";
    return kExitBadInput;
  }
}

}  // namespace aicore::cli
