// The cycle simulation of a launch, in a child process: the SystemC kernel is process-global and
// can be elaborated once, while a program may launch many kernels. The child builds one
// ProgramSource per block (the GM tensors shared by name), runs the chip timing-only (the data
// was computed already as the kernel ran) through the run command's pipeline, writes stats.json
// and the other outputs to the launch's directory and exits with the pipeline's status.
#pragma once
#include <string>

#include "aicore/frontend/launch_options.hpp"
#include "recording.hpp"

namespace aicore::frontend {

// The child's exit status: 0 ok, 2 input error, 3 fault (or the child died).
int simulate(const RecordedLaunch& rec, const std::string& dir, const LaunchOptions& opt);

}  // namespace aicore::frontend
