// A lock-step reference schedule of the timing rules, written apart from the model and as
// plainly as possible: simulated time advances one cycle at a time, and in each cycle every
// pipe of every core tries to start its front instruction, the scalar unit tries to issue,
// until nothing changes. No SystemC, no running ahead, no calendars: a port bank is busy until
// a cycle. It shares only the per-instruction cost formulas (model/timing.hpp, boundary-tested)
// and the bandwidth fluid (model/fluid_share.hpp, unit-tested) with the model; its L2 and GM
// address map are its own (ref_l2.hpp). The differential test compares the fast model's
// start/end cycles with it, instruction by instruction.
#pragma once
#include <cstdint>
#include <vector>

#include "aicore/config/config.hpp"
#include "aicore/isa/instructions.hpp"

namespace ref {

struct Timing {
  uint64_t issue = 0, start = 0, busy_end = 0, end = 0;
};

// cores[c] is core c's program; the result is indexed like it. tensor_bytes: the size of each GM
// tensor the programs name, by tensor id (their HBM addresses follow, ref_l2.hpp). Throws
// std::runtime_error when the program cannot finish (a deadlock) within `max_cycles`.
std::vector<std::vector<Timing>> schedule(const aicore::config::Config& cfg,
                                          const std::vector<std::vector<aicore::isa::Instruction>>& cores,
                                          const std::vector<uint64_t>& tensor_bytes,
                                          uint64_t max_cycles = 10'000'000);

}  // namespace ref
