// `aicore-sim run`: trace in; stats.json (always), instr.csv (--instr-log), timeline.json
// (--timeline), waves.vcd (--vcd), .out files, and .expect checks out; exit status per
// trace-format.md.
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <ostream>

#include "aicore/common/log.hpp"
#include "aicore/config/loader.hpp"
#include "aicore/model/simulation.hpp"
#include "aicore/report/background.hpp"
#include "aicore/report/instr_csv.hpp"
#include "aicore/report/stats.hpp"
#include "aicore/report/timeline.hpp"
#include "aicore/report/vcd_writer.hpp"
#include "aicore/report/window.hpp"
#include "aicore/trace/data_file.hpp"
#include "check_option.hpp"
#include "commands.hpp"
#include "options.hpp"

namespace aicore::cli {

namespace fs = std::filesystem;

namespace {

struct RunArgs {
  std::string trace, config, out_dir;
  std::vector<std::string> sets;
  std::string window;
  bool timing_only = false, instr_log = false, timeline = false, vcd = false, quiet = false;
};

// Viewers load a timeline.json of up to about this size; past it, suggest --window.
constexpr uintmax_t kViewerLimitBytes = 256u << 20;

// The inspection outputs, written while the model runs and closed after it, even when the run
// stops at a fault (they show what led to it).
struct Inspection {
  std::unique_ptr<report::InstrCsvWriter> csv;
  std::unique_ptr<report::SignalTracker> signals;  // feeds the timeline's counters and the waves
  std::unique_ptr<report::TimelineWriter> timeline;
  std::unique_ptr<report::VcdWriter> vcd;
  // Runs the writers above on a worker thread; declared last so it stops before they go.
  std::unique_ptr<report::BackgroundObservers> worker;

  Inspection(const RunArgs& a, const report::CycleWindow& w, const config::Config& cfg,
             model::Simulation& sim) {
    const fs::path dir(a.out_dir);
    const std::string name = fs::path(a.trace).filename().string();
    if (!a.instr_log && !a.timeline && !a.vcd) return;
    worker = std::make_unique<report::BackgroundObservers>(sim.tensors());
    if (a.instr_log) csv = std::make_unique<report::InstrCsvWriter>((dir / "instr.csv").string());
    if (a.timeline || a.vcd) signals = std::make_unique<report::SignalTracker>(w, a.vcd);
    if (a.timeline)
      timeline = std::make_unique<report::TimelineWriter>((dir / "timeline.json").string(), cfg, name,
                                                          *signals, worker->tensors());
    if (a.vcd) vcd = std::make_unique<report::VcdWriter>((dir / "waves.vcd").string(), cfg, name, *signals);
    if (csv) worker->add(*csv);
    if (signals) worker->add(*signals);
    if (timeline) worker->add(*timeline);
    sim.add_observer(worker.get());
  }

  // Closes the files; reports on err what went wrong, if anything.
  void finish(const RunArgs& a, uint64_t cycles, std::ostream& err) {
    if (worker) worker->finish();  // every event delivered; the writers are ours again
    if (csv) csv->finish();
    const fs::path dir(a.out_dir);
    if (signals) signals->finish(cycles);  // the last values, to both files
    if (timeline) {
      timeline->finish();
      std::error_code ec;
      const uintmax_t size = fs::file_size(dir / "timeline.json", ec);
      if (!ec && size > kViewerLimitBytes)
        err << "note: timeline.json is " << (size >> 20)
            << " MB; viewers load about 256 MB: use --window START:END\n";
    }
    if (vcd) vcd->finish(cycles);
    if (signals && signals->late_changes())
      err << "warning: " << signals->late_changes()
          << " signal change(s) reached the timeline/waves after their cycle was written "
          << "(the model broke the observer timing contract); they are shown late\n";
  }

  static void announce(const RunArgs& a, std::ostream& out) {
    const fs::path dir(a.out_dir);
    if (a.instr_log) out << "wrote " << (dir / "instr.csv").string() << "\n";
    if (a.timeline) out << "wrote " << (dir / "timeline.json").string() << "\n";
    if (a.vcd) out << "wrote " << (dir / "waves.vcd").string() << "\n";
  }
};

void write_stats(const RunArgs& a, const model::RunSummary& s, const report::StatsCollector& c,
                 const config::Config& cfg, const std::string& status, const std::string& message) {
  report::RunInfo info{a.trace, a.timing_only, status, message};
  const std::string path = (fs::path(a.out_dir) / "stats.json").string();
  std::ofstream f(path);
  if (!f)
    throw InputError(SourceLoc{path, 0, 0}, std::string("cannot create stats.json: ") + std::strerror(errno));
  f << report::stats_json(s, c, cfg, info).dump(2) << "\n";
  if (!f.flush()) throw InputError(SourceLoc{path, 0, 0}, "cannot write stats.json (disk full?)");
}

// .out files and .expect checks; returns the exit status.
int finish_outputs(const RunArgs& a, const model::Simulation& sim, std::ostream& out, std::ostream& err) {
  if (a.timing_only) {
    if (!sim.outs().empty() || !sim.expects().empty())
      out << "note: --timing-only: .out and .expect are skipped (no data was computed)\n";
    return kExitOk;
  }
  for (const auto& o : sim.outs()) {
    const auto& t = sim.tensors()[o.tensor];
    trace::write_tensor_file((fs::path(a.out_dir) / o.file).string(), sim.tensor_data(o.tensor), t.size,
                             o.dtype);
  }
  int status = kExitOk;
  for (const auto& e : sim.expects()) {
    const auto& t = sim.tensors()[e.tensor];
    const auto mismatch = trace::compare_expect(e, sim.tensor_data(e.tensor), t.size);
    if (!mismatch) {
      out << "expect " << t.name << ": match (" << t.size << " bytes)\n";
      continue;
    }
    status = kExitMismatch;
    err << e.loc.str() << ": error: tensor " << t.name << " differs from " << e.file << " in "
        << mismatch->count << " elements";
    for (const auto& [index, want, got] : mismatch->first)
      err << "\n  [" << index << "] expected " << want << ", got " << got;
    err << "\n";
  }
  return status;
}

}  // namespace

int run_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  RunArgs a;
  po::options_description opts("aicore-sim run TRACE options");
  opts.add_options()("help,h", "this help")("trace", po::value<std::string>(&a.trace), "the .trace file")(
      "config", po::value<std::string>(&a.config)->default_value("atlas-a2"),
      "preset (atlas-a2, atlas-a3) or YAML file")("set",
                                                  po::value<std::vector<std::string>>(&a.sets)->composing(),
                                                  "override one config key: --set a.b=value (repeatable)")(
      "out", po::value<std::string>(&a.out_dir)->default_value("out"), "output directory")(
      "timing-only", po::bool_switch(&a.timing_only), "timing without data: nothing allocated or computed")(
      "instr-log", po::bool_switch(&a.instr_log), "write instr.csv, one row per instruction")(
      "timeline", po::bool_switch(&a.timeline),
      "write timeline.json (Chrome trace events: Perfetto, chrome://tracing)")(
      "vcd", po::bool_switch(&a.vcd), "write waves.vcd (value change dump: GTKWave)")(
      "window", po::value<std::string>(&a.window),
      "limit timeline.json and waves.vcd to cycles START:END (END exclusive; START: to the end)")(
      "quiet,q", po::bool_switch(&a.quiet), "print nothing on success")(
      "verbose,v", po::value<int>()->implicit_value(1)->default_value(0),
      "diagnostics on stderr: -v info, -v 2 every instruction as it runs");
  std::string check_value;
  add_check_option(opts, check_value);
  po::positional_options_description pos;
  pos.add("trace", 1);
  po::variables_map vm;
  if (!parse_options("run", args, opts, &pos, vm, err)) return kExitBadInput;
  if (vm.count("help")) {
    out << opts;
    return kExitOk;
  }
  if (a.trace.empty()) {
    err << "aicore-sim run: error: missing TRACE (the .trace file to simulate)\n";
    return kExitBadInput;
  }
  report::CycleWindow window;
  if (vm.count("window")) {
    if (!a.timeline && !a.vcd) {
      err << "aicore-sim run: error: --window limits --timeline and --vcd; give at least one of them\n";
      return kExitBadInput;
    }
    try {
      window = report::parse_window(a.window);
    } catch (const std::invalid_argument& e) {
      err << "aicore-sim run: error: " << e.what() << "\n";
      return kExitBadInput;
    }
  }

  CheckMode check_mode = CheckMode::Error;
  if (!parse_check_mode(check_value, check_mode, err)) return kExitBadInput;

  set_verbosity(vm["verbose"].as<int>());
  try {
    const config::Config cfg = config::load(a.config, a.sets, config::default_configs_dir());
    log().info("config {} ({} MHz), {} override(s); trace {}{}", cfg.name, cfg.clock_mhz, a.sets.size(),
               a.trace, a.timing_only ? " (timing only)" : "");
    std::error_code ec;
    fs::create_directories(a.out_dir, ec);
    if (ec)
      throw InputError(SourceLoc{a.out_dir, 0, 0}, "cannot create the output directory: " + ec.message());

    model::Simulation sim(cfg, a.trace, a.timing_only);
    report::StatsCollector stats;
    sim.add_observer(&stats);
    Inspection inspect(a, window, cfg, sim);
    CheckSession check(check_mode, cfg, sim);
    const model::RunSummary s = sim.run();
    log().info("run ended at cycle {} after {} instructions", s.cycles, s.instructions);
    inspect.finish(a, s.cycles, err);
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
    const int status = finish_outputs(a, sim, out, err);
    write_stats(a, s, stats, cfg, status == kExitOk ? "completed" : "mismatch", "");
    if (!a.quiet) {
      out << report::summary_text(s, stats, cfg);
      if (s.flags_left_set)
        out << "warning: " << s.flags_left_set << " flag(s) left set at the end of the trace\n";
      Inspection::announce(a, out);
      out << "wrote " << (fs::path(a.out_dir) / "stats.json").string() << "\n";
    }
    return check.status(status);
  } catch (const InputError& e) {
    err << e.what() << "\n";
    return kExitBadInput;
  }
}

}  // namespace aicore::cli
