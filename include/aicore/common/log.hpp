// The project's diagnostic logger (spdlog): one unregistered logger writing to stderr, quiet
// (warnings only) unless the CLI raises it with -v. Hot paths check should_log() first.
#pragma once
#include <spdlog/spdlog.h>

namespace aicore {

spdlog::logger& log();
// 0 = warnings only, 1 = info, 2 = debug (per-instruction trace of the model).
void set_verbosity(int level);

}  // namespace aicore
