// What the race/sync checker needs to know besides the instructions: the Mmad interlock
// threshold (a config key, check.mmad_interlock_fractals), the buffer sizes (to skip instructions
// the model will reject as out of bounds), how many cores share GM, and how many reports to keep.
#pragma once
#include <array>
#include <cstdint>

#include "aicore/config/config.hpp"
#include "aicore/isa/types.hpp"

namespace aicore::check {

struct CheckOptions {
  // Two Mmads accumulating into the same L0C bytes are ordered by the Cube itself when the
  // earlier one has (m/16)*(n/16) >= this many fractals; exactly this many is reported as a
  // warning (sources disagree on < versus <=; docs/checking.md).
  uint32_t mmad_interlock_fractals = 10;
  // Cores issuing into this checker (core ids 0..cores-1). With more than one, GM accesses of
  // different cores are compared as well: no instruction orders two cores.
  uint16_t cores = 1;
  // Bytes of each memory (for GM: of any one tensor). An instruction reaching past them is left
  // to the model, which stops at it with an out-of-bounds fault.
  std::array<uint64_t, isa::kSpaceCount> capacity = {uint64_t{1} << 40, uint64_t{1} << 40, uint64_t{1} << 40,
                                                     uint64_t{1} << 40, uint64_t{1} << 40, uint64_t{1} << 40,
                                                     uint64_t{1} << 40};
  // Distinct reports kept in full; further ones are only counted (a trace without a single
  // flag can race at every instruction).
  uint32_t max_reports = 1000;
};

// The options a run with configuration `cfg` uses (one core).
CheckOptions options_from(const config::Config& cfg);

}  // namespace aicore::check
