#include <array>
#include <ostream>

#include "aicore/common/error.hpp"
#include "aicore/common/version.hpp"
#include "aicore/gen/cli.hpp"
#include "commands.hpp"
#include "kernel_build.hpp"

namespace aicore::cli {

namespace {

constexpr const char* kProgram = "aicore-sim";

// One command in the top-level help: "  SYNOPSIS" and its summary, then its options (if it has
// a po description) indented under it.
std::string command_entry(const std::string& synopsis, const std::string& summary,
                          const std::string& options) {
  std::string s = "  " + synopsis + "\n      " + summary + "\n";
  std::string indented;
  for (size_t start = 0; start < options.size();) {
    const size_t end = options.find('\n', start);
    indented += "    " + options.substr(start, end - start) + "\n";
    start = end == std::string::npos ? options.size() : end + 1;
  }
  return s + indented;
}

// The top-level help, made of the commands' own help descriptions.
std::string usage() {
  const CommandHelp run = run_help(), config = config_help(), list = config_list_help(),
                    kernel = kernel_help();
  return std::string("usage: ") + kProgram + " <command> [options]\n" +
         "Cycle-approximate simulator of one Ascend AI Core (Cube side, Atlas A2/A3)\n\ncommands:\n" +
         command_entry(run.synopsis, run.summary, run.options) +
         command_entry(kernel.synopsis, kernel.summary, "") +
         command_entry(config.synopsis, config.summary, config.options) +
         command_entry(list.synopsis, list.summary, "") +
         command_entry(gen::gen_synopsis(), gen::gen_summary(), "") +
         command_entry(gen::matmul_synopsis(), gen::matmul_summary(), "") +
         command_entry(gen::densify_synopsis(), gen::densify_summary(), "") +
         command_entry("sweep STUDY.yaml [-j N] [--out DIR] [--plot] [--executor local|slurm]",
                       "run a what-if study: every point of a grid of config keys (sweep --help)", "") +
         command_entry("diff RUN_A RUN_B [--csv]",
                       "what changed between two runs (output directories or stats.json files)", "") +
         command_entry(
             "calibrate DATA.csv... --fit KEY[,KEY...] [--config X] [--rows train|all] [-o fitted.yaml] [-j "
             "N]",
             "fit config keys to measured silicon data; write them as an overlay (calibrate --help)", "") +
         command_entry(
             "validate DATA.csv... [--config X] [--tolerance P] [--only train|check] [--plot out.png] [-j N]",
             "compare a config's timing with measured silicon data; exit 1 beyond tolerance", "") +
         "  --version\n      print the version\n\nrun '" + kProgram +
         " <command> --help' for the full help of a command\n";
}

}  // namespace

int dispatch(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    (args.empty() ? err : out) << usage();
    return args.empty() ? kExitBadInput : kExitOk;
  }
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  const std::string& cmd = args[0];
  if (cmd == "run") return run_command(rest, out, err);
  if (cmd == "config") return config_command(rest, out, err);
  if (cmd == "kernel") return kernel_command(rest, out, err);
  if (cmd == "densify") return gen::densify_main(rest, out, err, kProgram);
  if (cmd == "gen") return gen::gen_main(rest, out, err, kProgram);
  if (cmd == "sweep") return sweep_command(rest, out, err);
  if (cmd == "asc-cc") return asc_cc_command(rest, err);  // the ASC CMake language's compiler
  if (cmd == "sweep-worker") return sweep_worker_command(rest, out, err);
  if (cmd == "diff") return diff_command(rest, out, err);
  if (cmd == "calibrate") return calibrate_command(rest, out, err);
  if (cmd == "validate") return validate_command(rest, out, err);
  if (cmd == "--version") {
    out << kProgram << " " << kVersion << "\n";
    return kExitOk;
  }
  static const std::array<std::string, 9> kCommands = {"run",   "kernel", "config",    "densify", "gen",
                                                       "sweep", "diff",   "calibrate", "validate"};
  const std::string near = nearest_word(cmd, kCommands);
  err << kProgram << ": error: unknown command '" << cmd << "'"
      << (near.empty() ? "" : "; did you mean '" + near + "'?") << "\n"
      << "run '" << kProgram << " --help' for the commands\n";
  return kExitBadInput;
}

}  // namespace aicore::cli
