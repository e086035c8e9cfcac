// `aicore-sim run`: the command line of a trace run; the run itself is session::run_trace
// (stats.json always, instr.csv, timeline.json, waves.vcd, .out files, .expect checks, checks.json;
// exit status per docs/cli.md).
#include <optional>
#include <ostream>

#include "aicore/session/session.hpp"
#include "commands.hpp"
#include "options.hpp"

namespace aicore::cli {

namespace {

const char* kSynopsis = "run TRACE|KERNEL.yaml [options]";

struct RunArgs {
  std::string trace;
  session::RunOptions run;
  std::string check = "error";  // --check as typed: session::check_mode_from
  bool help = false;
};

// The visible options of `run` (TRACE is positional): what parses and what --help shows.
po::options_description run_options(RunArgs& r) {
  session::RunOptions& a = r.run;
  po::options_description o;
  o.add_options()("config", po::value(&a.config)->value_name("PRESET|YAML"),
                  "preset (atlas-a2, atlas-a3 or a SoC: config list) or YAML file; a YAML file may start "
                  "from another with "
                  "'base: PRESET|PATH' and give only the keys it changes (default atlas-a2)")(
      "set", po::value(&a.sets)->value_name("KEY=VALUE")->composing(),
      "override one config key, e.g. --set gm.read.bytes_per_cycle=128 (repeatable; later ones win)")(
      "out", po::value(&a.out_dir)->value_name("DIR"),
      "output directory (default ./out): stats.json and checks.json always, .out files, and the files below")(
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
      "check", po::value(&r.check)->value_name("error|warn|none"),
      "race/sync checker (docs/checking.md): error (default: reports, and errors make the run exit 3), "
      "warn (reports only) or none")("verbose,v",
                                     po::value(&a.verbosity)->value_name("N")->implicit_value(1, ""),
                                     "diagnostics on stderr: -v info, -v 2 every instruction as it runs")(
      "help,h", po::bool_switch(&r.help), "this help");
  return o;
}

// Parses the command line into `a`; returns an exit status when the command is done already
// (--help, or a bad command line), nothing when the run should go ahead.
std::optional<int> parse_run(const std::vector<std::string>& args, RunArgs& a, std::ostream& out,
                             std::ostream& err) {
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
  const auto mode = session::check_mode_from(a.check);
  if (!mode) {
    err << "aicore-sim run: error: " << session::check_mode_error(a.check) << "\n";
    return kExitBadInput;
  }
  a.run.check = *mode;
  if (const std::string e = session::options_error(a.run); !e.empty()) {
    err << "aicore-sim run: error: " << e << "\n";
    return kExitBadInput;
  }
  return std::nullopt;
}

}  // namespace

CommandHelp run_help() {
  RunArgs a;
  return {kSynopsis, "simulate a .trace on one core, or a kernel manifest (KERNEL.yaml, one trace per core)",
          "  stdout: the summary, .expect results and the files written; notes, warnings and errors go to\n"
          "  stderr. Exit status: 0 ok, 1 .expect mismatch, 2 bad input, 3 fault while simulating or\n"
          "  checker errors.\n",
          format_options(run_options(a), 2)};
}

int run_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  RunArgs a;
  if (const auto done = parse_run(args, a, out, err)) return *done;
  return session::run_trace(a.trace, a.run, out, err).exit_status;
}

}  // namespace aicore::cli
