// `aicore-sim run`: trace in; stats.json (always), instr.csv (--instr-log), timeline.json
// (--timeline), waves.vcd (--vcd), .out files, and .expect checks out; exit status per
// docs/cli.md.
#include <filesystem>
#include <optional>
#include <ostream>

#include "aicore/common/log.hpp"
#include "aicore/config/loader.hpp"
#include "aicore/model/trace_source.hpp"
#include "aicore/report/window.hpp"
#include "aicore/trace/manifest.hpp"
#include "check_option.hpp"
#include "commands.hpp"
#include "diagnostics.hpp"
#include "load_config.hpp"
#include "options.hpp"
#include "run_args.hpp"
#include "run_pipeline.hpp"
#include "tensor_outputs.hpp"

namespace aicore::cli {

namespace fs = std::filesystem;

namespace {

const char* kSynopsis = "run TRACE|KERNEL.yaml [options]";

// The visible options of `run` (TRACE is positional): what parses and what --help shows.
po::options_description run_options(RunArgs& a) {
  po::options_description o;
  o.add_options()("config", po::value(&a.config)->value_name("PRESET|YAML"),
                  "preset (atlas-a2, atlas-a3 or a SoC: config list) or YAML file; a YAML file may start "
                  "from another with "
                  "'base: PRESET|PATH' and give only the keys it changes (default atlas-a2)")(
      "set", po::value(&a.sets)->value_name("KEY=VALUE")->composing(),
      "override one config key, e.g. --set gm.read.bytes_per_cycle=128 (repeatable; later ones win)")(
      "out", po::value(&a.out_dir)->value_name("DIR"),
      "output directory (default ./out): stats.json always, .out files, and the files below")(
      "timing-only", po::bool_switch(&a.timing_only),
      "timing without data: nothing allocated or computed; .out and .expect are skipped")(
      "instr-log", po::bool_switch(&a.instr_log), "write DIR/instr.csv, one row per instruction")(
      "timeline", po::bool_switch(&a.timeline),
      "write DIR/timeline.json (Chrome trace events: Perfetto, chrome://tracing)")(
      "vcd", po::bool_switch(&a.vcd), "write DIR/waves.vcd (value change dump: GTKWave)")(
      "window", po::value(&a.window)->value_name("START:END"),
      "limit timeline.json and waves.vcd to cycles START..END-1 ('START:' = to the end)")(
      "quiet,q", po::bool_switch(&a.quiet),
      "no summary, .expect results or notes; warnings and errors still go to stderr")(
      "check", po::value(&a.check)->value_name("error|warn|none"),
      "race/sync checker (docs/checking.md): error (default: reports, and errors make the run exit 3), "
      "warn (reports only) or none")("verbose,v",
                                     po::value(&a.verbosity)->value_name("N")->implicit_value(1, ""),
                                     "diagnostics on stderr: -v info, -v 2 every instruction as it runs")(
      "help,h", po::bool_switch(&a.help), "this help");
  return o;
}

// Parses the command line into `a`; returns an exit status when the command is done already
// (--help, or a bad command line), nothing when the run should go ahead.
std::optional<int> parse_run(const std::vector<std::string>& args, RunArgs& a, report::CycleWindow& window,
                             std::ostream& out, std::ostream& err) {
  po::options_description all;
  all.add(run_options(a)).add_options()("trace", po::value(&a.trace), "the .trace file");
  po::positional_options_description pos;
  pos.add("trace", 1);
  po::variables_map vm;
  if (!parse_options("run", args, all, &pos, vm, kSynopsis, err)) return kExitBadInput;
  if (a.help) {
    out << command_help_text(run_help());
    return kExitOk;
  }
  if (a.trace.empty()) {
    err << "aicore-sim run: error: missing TRACE (the .trace file, or kernel manifest, to simulate)\n"
        << "usage: aicore-sim " << kSynopsis << "\n";
    return kExitBadInput;
  }
  CheckMode mode;
  if (!parse_check_mode(a.check, mode, err)) return kExitBadInput;
  if (!vm.count("window")) return std::nullopt;
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
  return std::nullopt;
}

// The traces of the kernel: one for a .trace, one per core for a manifest.
std::vector<std::unique_ptr<model::TraceSource>> open_sources(const std::string& path,
                                                              const config::Config& cfg) {
  std::vector<std::unique_ptr<model::TraceSource>> out;
  if (!trace::is_manifest_path(path)) {
    out.push_back(std::make_unique<model::TraceSource>(path));
    return out;
  }
  const trace::KernelManifest m = trace::read_manifest(path);
  if (m.cores.size() > cfg.chip.cores)
    throw InputError(SourceLoc{path, 0, 0},
                     "the kernel has " + std::to_string(m.cores.size()) +
                         " cores but chip.cores = " + std::to_string(cfg.chip.cores) +
                         " (raise it with --set chip.cores=" + std::to_string(m.cores.size()) + ")");
  for (const trace::ManifestEntry& e : m.cores) {
    try {
      out.push_back(std::make_unique<model::TraceSource>(e.trace));
    } catch (const InputError& err) {
      throw InputError(e.loc, "core " + std::to_string(out.size()) + ": " + err.what());
    }
  }
  return out;
}

}  // namespace

CommandHelp run_help() {
  RunArgs a;
  return {kSynopsis, "simulate a .trace on one core, or a kernel manifest (KERNEL.yaml, one trace per core)",
          "  stdout: the summary, .expect results and the files written; notes, warnings and errors go to\n"
          "  stderr. Exit status: 0 ok, 1 .expect mismatch, 2 bad input, 3 fault while simulating.\n",
          format_options(run_options(a), 2)};
}

int run_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  RunArgs a;
  report::CycleWindow window;
  if (const auto done = parse_run(args, a, window, out, err)) return *done;
  set_verbosity(a.verbosity);
  Diagnostics diag(err, a.quiet);
  try {
    const config::Config cfg = load_config(a.config, a.sets, diag);
    log().info("config {} ({} MHz), {} override(s); trace {}{}", cfg.name, cfg.clock_mhz, a.sets.size(),
               a.trace, a.timing_only ? " (timing only)" : "");
    std::error_code ec;
    fs::create_directories(a.out_dir, ec);
    if (ec)
      throw InputError(SourceLoc{a.out_dir, 0, 0}, "cannot create the output directory: " + ec.message());

    const auto sources = open_sources(a.trace, cfg);
    PipelineRun run;
    run.args = &a;
    run.window = window;
    run.cfg = &cfg;
    for (const auto& src : sources) run.sources.push_back(src.get());
    run.tensor_outputs = [&](const model::Chip& sim, Diagnostics& d) {
      return finish_tensor_outputs(a, sim, sources, err, d);
    };
    return run_pipeline(run, out, err);
  } catch (const InputError& e) {
    err << e.what() << "\n";
    return kExitBadInput;
  }
}

}  // namespace aicore::cli
