// `aicore-sim diff RUN_A RUN_B [--csv] [--all]`: what changed between two runs (output
// directories or stats.json files). A difference is what the command reports, not a failure: the
// exit status is 0 whenever both runs could be read, 2 when one cannot.
#include <ostream>

#include "aicore/common/error.hpp"
#include "aicore/sweep/diff.hpp"
#include "commands.hpp"
#include "options.hpp"

namespace aicore::cli {

int diff_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  std::vector<std::string> runs;
  bool csv = false, all = false;
  po::options_description opts;
  opts.add_options()("help,h", "this help")("csv", po::bool_switch(&csv),
                                            "CSV for scripts: every field, changed or not")(
      "all", po::bool_switch(&all), "text: list unchanged metrics too");
  po::options_description all_opts;
  all_opts.add(opts).add_options()("run", po::value<std::vector<std::string>>(&runs), "the two runs");
  po::positional_options_description pos;
  pos.add("run", 2);
  po::variables_map vm;
  const char* synopsis = "diff RUN_A RUN_B [--csv] [--all]";
  if (!parse_options("diff", args, all_opts, &pos, vm, synopsis, err)) return kExitBadInput;
  if (vm.count("help")) {
    out << command_help_text(
        {synopsis, "what changed between two runs (output directories or stats.json files)",
         "  Exit status: 0 whenever both runs could be read (a difference is a result), 2 else.\n",
         format_options(opts, 2)});
    return kExitOk;
  }
  if (runs.size() != 2) {
    err << "aicore-sim diff: error: expected two runs (output directories or stats.json files), got "
        << runs.size() << "\n";
    return kExitBadInput;
  }
  try {
    const sweep::RunDiff d = sweep::diff_runs(runs[0], runs[1]);
    out << (csv ? sweep::diff_csv(d) : sweep::diff_text(d, all));
    return kExitOk;
  } catch (const InputError& e) {
    err << e.what() << "\n";
    return kExitBadInput;
  }
}

}  // namespace aicore::cli
