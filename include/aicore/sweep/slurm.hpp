// The Slurm executor: the pending points go to DIR/slurm/plan.json, one `sbatch --array` job runs
// them (each array task a chunk of points, through the hidden `aicore-sim sweep-worker`, which
// runs its chunk on the local pool and writes the same per-point records), and the sweep polls
// squeue until the job has left the queue, then reads the records from the shared directory.
#pragma once
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "aicore/sweep/pool.hpp"
#include "aicore/sweep/record.hpp"

namespace aicore::sweep {

// Slurm could not be used: a missing command, a refused submission, a queue that cannot be read.
class SlurmError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct SlurmOptions {
  std::string partition;                 // "" = the cluster's default
  size_t chunk = 0;                      // points per array task; 0 = enough for at most 100 tasks
  int cpus_per_task = 1;                 // workers per task (its -j)
  std::vector<std::string> sbatch_args;  // passed to sbatch as they are (--account, --time, ...)
  std::string self_exe;                  // the aicore-sim the tasks run (on the shared file system)
  double poll_seconds = 2;
};

struct SlurmRun {
  std::string job_id;
  size_t tasks = 0;
  int interrupted = 0;                // the signal that stopped the wait (the job is then cancelled)
  std::vector<std::string> problems;  // tasks that ended without writing all their records
};

// `progress(done, failed)` is called after every poll. Throws SlurmError.
SlurmRun run_slurm(const std::vector<JobInfo>& jobs, const std::string& out_dir, const SlurmOptions& o,
                   const std::function<void(size_t done, size_t failed)>& progress);

// The array task's side: runs chunk `task` of PLAN (skipping points that already have a final
// record, so a requeued task does not redo work) on `workers` local processes. Returns the exit
// status: 0 when the chunk ran (whatever the points' results), 2 for a bad plan or task.
int run_worker(const std::string& plan_path, size_t task, const PoolOptions& pool, std::ostream& err);

nlohmann::json to_json(const JobInfo& j);
JobInfo job_from_json(const nlohmann::json& j);

}  // namespace aicore::sweep
