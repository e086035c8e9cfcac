// The local executor: runs points on a pool of worker processes, one process per point (the
// SystemC kernel is process-global, so a point can never share a process with another), writing
// each point's record as soon as its process ends.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "aicore/sweep/record.hpp"

namespace aicore::sweep {

// How a point's process is made. Fork: a copy of this process calls Runner, with no exec or
// dynamic loading (the cheaper one; bench/ measures both). Exec: `SELF run ARGS...`.
enum class Launch { Fork, Exec };

// Runs `aicore-sim run ARGS` (without "run") in the calling process and returns its exit status.
using Runner = std::function<int(const std::vector<std::string>& args)>;

struct PoolOptions {
  int workers = 1;
  Launch launch = Launch::Fork;
  Runner runner;         // for Launch::Fork
  std::string self_exe;  // for Launch::Exec
  // How often the pool wakes at the latest while points run (a point's end wakes it at once when
  // its SIGCHLD reaches the pool's thread; in a process with other threads it may reach another).
  int wake_ms = 250;
  // Called at every wake: a signal number (SIGINT, ...) stops the pool as that signal would, 0
  // goes on. For a host that sees the user's signals itself (the Python API: Python's handler).
  std::function<int()> stop;
};

// Runs every job, `workers` at a time. A job's process gets its own process group, dies with the
// sweep (PR_SET_PDEATHSIG), and writes stdout and stderr to JOB.dir/run.log (creating JOB.dir). A
// job's previous stats.json is removed before it runs; its record (point.json) replaces the
// previous one atomically when it ends and is then handed to on_done. on_tick is called at least every
// options.wake_ms while waiting. SIGINT, SIGTERM and SIGHUP stop the pool: running points are killed and not
// recorded, and the signal's number is returned; 0 when every job ran.
int run_pool(const std::vector<JobInfo>& jobs, const PoolOptions& options,
             const std::function<void(const Record&)>& on_done, const std::function<void()>& on_tick);

// This process's own executable (/proc/self/exe), for Exec and for Slurm's job script.
std::string self_exe();

}  // namespace aicore::sweep
