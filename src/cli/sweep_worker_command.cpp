// `aicore-sim sweep-worker PLAN --task N [-j W]`: what one Slurm array task of `sweep --executor
// slurm` runs (DIR/slurm/job.sh calls it). Hidden from the usage text: users never type it.
#include <iostream>

#include "aicore/sweep/slurm.hpp"
#include "commands.hpp"
#include "options.hpp"
#include "sweep_support.hpp"

namespace aicore::cli {

int sweep_worker_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  std::string plan, launch = "fork";
  size_t task = 0;
  int jobs = 1;
  bool help = false;
  po::options_description opts;
  opts.add_options()("help,h", po::bool_switch(&help), "this help")(
      "task", po::value<size_t>(&task)->value_name("N"),
      "the array task: runs chunk N of the plan (required)")("jobs,j", po::value<int>(&jobs)->value_name("W"),
                                                             "worker processes (default 1)")(
      "launch", po::value<std::string>(&launch)->value_name("fork|exec"), "fork (default) or exec");
  po::options_description all;
  all.add(opts).add_options()("plan", po::value<std::string>(&plan), "DIR/slurm/plan.json");
  po::positional_options_description pos;
  pos.add("plan", 1);
  po::variables_map vm;
  const char* synopsis = "sweep-worker PLAN --task N [-j W] [--launch fork|exec]";
  if (!parse_options("sweep-worker", args, all, &pos, vm, synopsis, err)) return kExitBadInput;
  if (help) {
    out << command_help_text({synopsis,
                              "internal: what one Slurm array task of 'sweep --executor slurm' runs", "",
                              format_options(opts, 2)});
    return kExitOk;
  }
  if (plan.empty() || !vm.count("task") || jobs < 1 || (launch != "fork" && launch != "exec")) {
    err << "aicore-sim sweep-worker: error: expected PLAN --task N [-j W >= 1] [--launch fork|exec]\n";
    return kExitBadInput;
  }
  return sweep::run_worker(plan, task, pool_options(jobs, launch), err);
}

}  // namespace aicore::cli
