// The summary a sweep prints on stdout: counts, the best and worst point, a one-line sensitivity
// per swept key (how far the mean cycles move across its values), failures and cap warnings.
#pragma once
#include <string>

#include "aicore/sweep/results.hpp"

namespace aicore::sweep {

struct RunCounts {
  size_t run = 0, skipped = 0;  // points executed now / reused from earlier records
  double seconds = 0;           // wall time of this sweep's execution
  std::string executor;         // "2 local workers", "Slurm job 17 (4 tasks)"
};

// Sensitivity of one swept key: mean cycles of the ok points at each of its values.
struct Sensitivity {
  std::string key;
  size_t values = 0;
  double low = 0, high = 0;                                           // lowest and highest mean cycles
  std::string low_at, high_at;                                        // the values they occur at
  double spread() const { return low > 0 ? (high - low) / low : 0; }  // (high - low) / low
};

std::vector<Sensitivity> sensitivities(const Plan& plan, const Table& t);

std::string summary_text(const Plan& plan, const Table& t, const RunCounts& c, const std::string& out_dir);

}  // namespace aicore::sweep
