// What `sweep` and the hidden `sweep-worker` share: the local pool's options (running points with
// this binary's own `run`), the dry-run listing and the output folder.
#pragma once
#include <iosfwd>
#include <string>

#include "aicore/sweep/plan.hpp"
#include "aicore/sweep/pool.hpp"

namespace aicore::cli {

// `workers` 0 = every core this process may use. `launch` is "fork" or "exec".
sweep::PoolOptions pool_options(int workers, const std::string& launch);

// How often the Slurm executor polls the queue: $AICORE_SLURM_POLL_SECONDS, default 2.
double slurm_poll_seconds();

// --dry-run: the points, the swept keys and their values, warnings.
std::string dry_run_text(const sweep::Plan& plan);

// Creates DIR and DIR/points and keeps a copy of the study as DIR/study.yaml.
void prepare_out_dir(const std::string& study, const std::string& out_dir);

}  // namespace aicore::cli
