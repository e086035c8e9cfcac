// Replays a trace file without the timing model: the real reader parses it, its GM files are
// loaded, and the ops run in program order through sem::execute.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "aicore/isa/instructions.hpp"

namespace gentest {

std::vector<uint8_t> slurp(const std::string& path);

struct Replay {
  std::vector<aicore::isa::Op> ops;
  std::vector<uint8_t> c, golden;  // the .expect tensor after the run, and its expected bytes
};
Replay replay(const std::string& trace_path);

}  // namespace gentest
