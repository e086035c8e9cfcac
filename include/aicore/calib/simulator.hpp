// The simulator calibration runs rows with (evaluate.hpp's Simulator): each job a timing-only run
// in a worker process of the sweep pool, whose runner (the CLI's `run`) the caller provides.
#pragma once
#include <string>

#include "aicore/calib/evaluate.hpp"
#include "aicore/config/config.hpp"
#include "aicore/sweep/pool.hpp"

namespace aicore::calib {

// Runs jobs as `run --timing-only` through `pool` (its runner, workers and launch), with --config
// `config_arg`, each in a folder under work_dir/runs. Jobs with the same --set values run as the
// cores of one chip in one process, with the chip's shared GM bandwidth lifted so that it never
// binds: each core then times exactly as alone (a core is capped by its own port), for one process
// start instead of many. Not done when a job sets a chip-level or GM-port key, or the config's chip
// bandwidth is below a core's port (then a core alone would be limited by the chip), nor for a
// kernel (SimJob::chip): the cores would share the L2's capacity, which a microbenchmark's few
// KiB never fill but a kernel's tensors do.
Simulator pool_simulator(const sweep::PoolOptions& pool, const std::string& config_arg,
                         const config::Config& base, const std::string& work_dir);

}  // namespace aicore::calib
