// The cycle simulation of a launch, in a child process (session::run_in_child: SystemC elaborates
// one model per process, while a program may launch many kernels). The child builds one
// ProgramSource per block (the GM tensors shared by name), runs the chip timing-only (the data was
// computed already as the kernel ran) through the session layer, writes stats.json and the other
// outputs to the launch's directory, and hands its result back.
#pragma once
#include <string>

#include "aicore/frontend/launch_options.hpp"
#include "recording.hpp"

namespace aicore::frontend {

// The simulation's exit status: 0 ok, 2 input error, 3 fault or checker errors (or the child died).
int simulate(const RecordedLaunch& rec, const std::string& dir, const LaunchOptions& opt);

}  // namespace aicore::frontend
