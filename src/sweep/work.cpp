#include "aicore/sweep/work.hpp"

#include <filesystem>

namespace aicore::sweep {

namespace fs = std::filesystem;

Work collect(const Plan& plan, const std::string& out_dir, bool force) {
  Work w;
  w.records.resize(plan.points.size());
  std::map<std::string, bool> queued;
  for (const Point& p : plan.points) {
    if (queued.count(p.id)) continue;  // a repeated point: its twin's run stands for it
    queued[p.id] = true;
    const std::string dir = (fs::absolute(fs::path(out_dir)) / "points" / p.id).lexically_normal().string();
    const auto r = read_record(dir);
    if (!force && r && r->id == p.id && is_final(*r)) {
      w.records[p.index] = r;
      ++w.skipped;
      continue;
    }
    nlohmann::json values = nlohmann::json::object();
    for (const auto& [k, v] : plan.values(p)) values[k] = v;
    w.jobs.push_back(JobInfo{p.id, dir, values, plan.run_args(p, dir), plan.study.timeout_s});
  }
  return w;
}

void fill_records(const Plan& plan, Work& w, const std::map<std::string, Record>& fresh) {
  std::map<std::string, Record> by_id = fresh;
  for (const auto& r : w.records)
    if (r) by_id.emplace(r->id, *r);
  for (const Point& p : plan.points) {
    const auto it = by_id.find(p.id);
    if (it != by_id.end()) w.records[p.index] = it->second;
  }
}

}  // namespace aicore::sweep
