// What a sweep run has to do: the points of a plan still to run (as pool jobs) and the records of
// those done before, and every point's record once the jobs ran. `aicore-sim sweep` and the Python
// API's sweep() both go through here, so they skip and share points the same way.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "aicore/sweep/plan.hpp"
#include "aicore/sweep/record.hpp"

namespace aicore::sweep {

struct Work {
  std::vector<JobInfo> jobs;                   // one per distinct point id to run now
  std::vector<std::optional<Record>> records;  // per point: its record from before, if final
  size_t skipped = 0;                          // points whose earlier record stands
};

// The plan's points (ids assigned) against OUT/points/ID/point.json: a point with a final record
// of its own id is skipped unless `force`; a repeated point is queued once (its twin's run stands
// for it).
Work collect(const Plan& plan, const std::string& out_dir, bool force);

// Gives every point the record of its id, from `fresh` (this run's) or from before.
void fill_records(const Plan& plan, Work& w, const std::map<std::string, Record>& fresh);

}  // namespace aicore::sweep
