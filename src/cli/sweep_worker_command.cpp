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
  po::options_description opts("aicore-sim sweep-worker PLAN options (run by Slurm array tasks)");
  opts.add_options()("help,h", "this help")("plan", po::value<std::string>(&plan), "DIR/slurm/plan.json")(
      "task", po::value<size_t>(&task)->required(), "the array task: runs chunk TASK of the plan")(
      "jobs,j", po::value<int>(&jobs), "worker processes (default 1)")(
      "launch", po::value<std::string>(&launch), "fork (default) or exec");
  po::positional_options_description pos;
  pos.add("plan", 1);
  po::variables_map vm;
  if (!parse_options("sweep-worker", args, opts, &pos, vm, "sweep-worker PLAN TASK", err))
    return kExitBadInput;
  if (vm.count("help")) {
    out << opts;
    return kExitOk;
  }
  if (plan.empty() || jobs < 1 || (launch != "fork" && launch != "exec")) {
    err << "aicore-sim sweep-worker: error: expected PLAN --task N [-j W >= 1] [--launch fork|exec]\n";
    return kExitBadInput;
  }
  return sweep::run_worker(plan, task, pool_options(jobs, launch), err);
}

}  // namespace aicore::cli
