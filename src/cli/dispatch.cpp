#include <array>
#include <ostream>

#include "aicore/common/error.hpp"
#include "aicore/gen/cli.hpp"
#include "commands.hpp"

namespace aicore::cli {

namespace {
const char* kUsage =
    "usage: aicore-sim <command> [options]\n"
    "commands:\n"
    "  run TRACE [--config PRESET|YAML] [--set KEY=VALUE]... [--out DIR] [--timing-only] [--instr-log]\n"
    "                         simulate a trace; writes DIR/stats.json (+ instr.csv)\n"
    "  config show [--config PRESET|YAML] [--set KEY=VALUE]...   print the resolved configuration\n"
    "  densify ...            4:2-densify a sparse int8 weight matrix (densify --help)\n"
    "  gen ...                generate a GEMM case: GM images, trace, golden result (gen --help)\n"
    "  sweep STUDY.yaml [-j N] [--out DIR] [--plot] [--executor local|slurm]\n"
    "                         run a what-if study: every point of a grid of config keys (sweep --help)\n"
    "  diff RUN_A RUN_B [--csv]   what changed between two runs (output directories or stats.json)\n"
    "run 'aicore-sim <command> --help' for the options of a command\n";
}

int dispatch(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    (args.empty() ? err : out) << kUsage;
    return args.empty() ? kExitBadInput : kExitOk;
  }
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  const std::string& cmd = args[0];
  if (cmd == "run") return run_command(rest, out, err);
  if (cmd == "config") return config_command(rest, out, err);
  if (cmd == "densify") return gen::densify_main(rest, out, err);
  if (cmd == "gen") return gen::gen_main(rest, out, err);
  if (cmd == "sweep") return sweep_command(rest, out, err);
  if (cmd == "sweep-worker") return sweep_worker_command(rest, out, err);
  if (cmd == "diff") return diff_command(rest, out, err);
  if (cmd == "--version") {
    out << "aicore-sim 0.1.0\n";
    return kExitOk;
  }
  static const std::array<std::string, 6> kCommands = {"run", "config", "densify", "gen", "sweep", "diff"};
  const std::string near = nearest_word(cmd, kCommands);
  err << "aicore-sim: error: unknown command '" << cmd << "'"
      << (near.empty() ? "" : "; did you mean '" + near + "'?") << "\n"
      << kUsage;
  return kExitBadInput;
}

}  // namespace aicore::cli
