#include "sweep_support.hpp"

#include <sched.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "aicore/common/error.hpp"
#include "commands.hpp"

namespace aicore::cli {

namespace fs = std::filesystem;

namespace {

int usable_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
  const long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? static_cast<int>(n) : 1;
}

}  // namespace

sweep::PoolOptions pool_options(int workers, const std::string& launch) {
  sweep::PoolOptions o;
  o.workers = workers > 0 ? workers : usable_cores();
  o.launch = launch == "exec" ? sweep::Launch::Exec : sweep::Launch::Fork;
  o.self_exe = sweep::self_exe();
  // A point runs as `aicore-sim run` would, in a fresh process; its summary and notes go to run.log.
  o.runner = [](const std::vector<std::string>& args) { return run_command(args, std::cout, std::cerr); };
  return o;
}

double slurm_poll_seconds() {
  if (const char* env = std::getenv("AICORE_SLURM_POLL_SECONDS"); env && *env) {
    const double s = std::atof(env);
    if (s > 0) return s;
  }
  return 2;
}

std::string dry_run_text(const sweep::Plan& plan) {
  std::string s = "study " + plan.study.name + ": " + std::to_string(plan.points.size()) +
                  " point(s) = " + std::to_string(plan.inputs.size()) + " input(s) x " +
                  std::to_string(plan.combos.size()) + " configuration(s)\n";
  for (const sweep::Input& in : plan.inputs) s += "  input " + in.label + "\n";
  for (const sweep::Axis& a : plan.study.axes) {
    for (size_t k = 0; k < a.keys.size(); ++k) {
      s += std::string(a.zip ? "  zip  " : "  grid ") + a.keys[k].text + ":";
      for (const sweep::Scalar& v : a.values[k]) s += " " + v.text;
      s += "\n";
    }
  }
  for (const auto& [k, v] : plan.study.sets) s += "  set  " + k.text + " = " + v.text + "\n";
  for (const std::string& w : plan.warnings) s += w + "\n";
  return s;
}

void prepare_out_dir(const std::string& study, const std::string& out_dir) {
  std::error_code ec;
  fs::create_directories(fs::path(out_dir) / "points", ec);
  if (ec) throw InputError(SourceLoc{out_dir}, "cannot create the output directory: " + ec.message());
  fs::copy_file(study, fs::path(out_dir) / "study.yaml", fs::copy_options::overwrite_existing, ec);
}

}  // namespace aicore::cli
