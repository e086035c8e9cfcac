// `aicore-sim sweep STUDY.yaml`: validate the whole study, run its unfinished points (local
// process pool or Slurm), rebuild results.csv/json from the per-point records, print the summary
// and optionally plot. docs/sweeps.md is the user's guide.
#include <sched.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <map>

#include "aicore/sweep/generate.hpp"
#include "aicore/sweep/plot.hpp"
#include "aicore/sweep/progress.hpp"
#include "aicore/sweep/slurm.hpp"
#include "aicore/sweep/summary.hpp"
#include "aicore/sweep/work.hpp"
#include "commands.hpp"
#include "options.hpp"
#include "sweep_support.hpp"

namespace aicore::cli {

namespace fs = std::filesystem;
using namespace aicore::sweep;

namespace {

struct SweepArgs {
  std::string study, out_dir, executor = "local", launch = "fork", partition;
  std::vector<std::string> sbatch_args;
  int jobs = 0, cpus_per_task = 1;
  size_t chunk = 0;
  bool force = false, plot = false, quiet = false, dry_run = false;
};

struct Executed {
  std::map<std::string, Record> records;
  int interrupted = 0;
  std::vector<std::string> problems;
  std::string executor;
};

Executed execute_local(const Work& w, const SweepArgs& a, Progress& progress) {
  Executed x;
  const PoolOptions pool = pool_options(a.jobs, a.launch);
  x.executor = std::to_string(pool.workers) + " local worker" + (pool.workers == 1 ? "" : "s");
  x.interrupted = run_pool(
      w.jobs, pool,
      [&](const Record& r) {
        x.records[r.id] = r;
        progress.point_done(r.status == Status::Ok);
      },
      [&] { progress.tick(); });
  return x;
}

Executed execute_slurm(const Work& w, const SweepArgs& a, Progress& progress) {
  SlurmOptions o;
  o.partition = a.partition;
  o.chunk = a.chunk;
  o.cpus_per_task = a.cpus_per_task;
  o.sbatch_args = a.sbatch_args;
  o.self_exe = sweep::self_exe();
  o.poll_seconds = slurm_poll_seconds();
  const SlurmRun run = run_slurm(w.jobs, a.out_dir, o, [&](size_t done, size_t failed) {
    progress.set_done(done, failed);
    progress.tick();
  });
  Executed x;
  x.interrupted = run.interrupted;
  x.problems = run.problems;
  x.executor = w.jobs.empty() ? "Slurm (nothing to submit)"
                              : "Slurm job " + run.job_id + ", " + std::to_string(run.tasks) + " task(s)";
  for (const JobInfo& j : w.jobs)
    if (auto r = read_record(j.dir); r && r->id == j.id) x.records[j.id] = *r;
  return x;
}

int finish(const Plan& plan, Work& w, const Executed& x, const SweepArgs& a, double seconds,
           std::ostream& out, std::ostream& err) {
  fill_records(plan, w, x.records);
  const Table t = build_table(plan, w.records);
  write_results(plan, t, a.out_dir);
  RunCounts c{x.records.size(), w.skipped, seconds, x.executor};
  out << summary_text(plan, t, c, a.out_dir);
  for (const std::string& p : x.problems) err << "aicore-sim sweep: error: " << p << "\n";
  if (x.interrupted) {
    err << "aicore-sim sweep: interrupted (signal " << x.interrupted << "): " << t.rows.size() << " of "
        << plan.points.size() << " points have results; run the same command again to continue\n";
    return 128 + x.interrupted;
  }
  int status = kExitOk;
  for (const auto& row : t.rows)
    if (row.value("status", "") != "ok") status = kExitFault;
  if (!t.missing.empty()) status = kExitFault;
  if (a.plot && !plot_results(a.out_dir, err)) return kExitBadInput;
  return status;
}

bool parse_args(const std::vector<std::string>& args, SweepArgs& a, std::ostream& out, std::ostream& err,
                int& status) {
  po::options_description opts;
  opts.add_options()("help,h", "this help")("jobs,j", po::value<int>(&a.jobs)->value_name("N"),
                                            "worker processes (default: every core)")(
      "out", po::value<std::string>(&a.out_dir)->value_name("DIR"),
      "output directory (default: out/STEM, STEM the study file's name without .yaml)")(
      "force", po::bool_switch(&a.force), "run every point again, even those with a result")(
      "plot", po::bool_switch(&a.plot), "draw DIR/sweep.png (tools/plot_sweep.py; needs python3-matplotlib)")(
      "quiet,q", po::bool_switch(&a.quiet), "no progress output")(
      "dry-run", po::bool_switch(&a.dry_run), "validate the study and list what would run; run nothing")(
      "executor", po::value<std::string>(&a.executor)->value_name("local|slurm"), "local (default) or slurm")(
      "partition", po::value<std::string>(&a.partition)->value_name("P"),
      "Slurm partition (--executor slurm)")("chunk", po::value<size_t>(&a.chunk)->value_name("N"),
                                            "points per Slurm array task (default: at most 100 tasks)")(
      "cpus-per-task", po::value<int>(&a.cpus_per_task)->value_name("N"),
      "worker processes per Slurm task (default 1)")(
      "sbatch-arg", po::value<std::vector<std::string>>(&a.sbatch_args)->value_name("ARG")->composing(),
      "extra sbatch option, e.g. --sbatch-arg=--time=10 (repeatable)")(
      "launch", po::value<std::string>(&a.launch)->value_name("fork|exec"),
      "how a point's process starts: fork (default) or exec");
  po::options_description all;
  all.add(opts).add_options()("study", po::value<std::string>(&a.study), "the study file");
  po::positional_options_description pos;
  pos.add("study", 1);
  po::variables_map vm;
  status = kExitBadInput;
  if (!parse_options("sweep", args, all, &pos, vm, "sweep STUDY.yaml [options]", err)) return false;
  if (vm.count("help")) {
    out << command_help_text(
        {"sweep STUDY.yaml [options]",
         "run a what-if study: every point of a grid of config keys, on worker processes",
         "  Outputs DIR/results.csv, results.json, points/ID/; docs/sweeps.md has the study format.\n"
         "  Exit status: 0 every point ok, 3 a point failed, 2 a bad study, 130 interrupted.\n",
         format_options(opts, 2)});
    status = kExitOk;
    return false;
  }
  std::string problem;
  if (a.study.empty())
    problem = "missing STUDY (the study file, e.g. studies/tiled_sparse_bandwidth.yaml)";
  else if (a.executor != "local" && a.executor != "slurm")
    problem = "--executor must be local or slurm, not '" + a.executor + "'";
  else if (a.launch != "fork" && a.launch != "exec")
    problem = "--launch must be fork or exec, not '" + a.launch + "'";
  else if (vm.count("jobs") && a.jobs < 1)
    problem = "-j must be at least 1";
  else if (a.cpus_per_task < 1)
    problem = "--cpus-per-task must be at least 1";
  else if (a.executor != "slurm" && (vm.count("partition") || vm.count("chunk") ||
                                     vm.count("cpus-per-task") || vm.count("sbatch-arg")))
    problem = "--partition, --chunk, --cpus-per-task and --sbatch-arg need --executor slurm";
  if (!problem.empty()) {
    err << "aicore-sim sweep: error: " << problem << "\n";
    return false;
  }
  if (a.out_dir.empty()) a.out_dir = (fs::path("out") / fs::path(a.study).stem()).string();
  return true;
}

}  // namespace

int sweep_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  SweepArgs a;
  int status = kExitOk;
  if (!parse_args(args, a, out, err, status)) return status;
  try {
    Plan plan = load_plan(a.study, a.out_dir);
    if (a.dry_run) {
      out << dry_run_text(plan);
      return kExitOk;
    }
    prepare_out_dir(a.study, a.out_dir);
    generate_cases(plan);
    assign_ids(plan);
    Work w = collect(plan, a.out_dir, a.force);
    Progress progress(w.jobs.size(), !a.quiet, isatty(2) != 0, err);
    if (!a.quiet && w.skipped)
      err << "sweep: " << w.skipped << " of " << plan.points.size()
          << " points done before (skipped; --force runs them again)\n";
    const auto t0 = std::chrono::steady_clock::now();
    const Executed x = a.executor == "slurm" ? execute_slurm(w, a, progress) : execute_local(w, a, progress);
    progress.finish();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return finish(plan, w, x, a, seconds, out, err);
  } catch (const StudyErrors& e) {
    for (const std::string& m : e.messages()) err << m << "\n";
  } catch (const InputError& e) {
    err << e.what() << "\n";
  } catch (const SlurmError& e) {
    err << "aicore-sim sweep: error: " << e.what() << "\n";
  } catch (const fs::filesystem_error& e) {
    err << "aicore-sim sweep: error: " << e.what() << "\n";
  }
  return kExitBadInput;
}

}  // namespace aicore::cli
