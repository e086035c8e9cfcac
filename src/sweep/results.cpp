#include "aicore/sweep/results.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <set>

namespace aicore::sweep {

namespace fs = std::filesystem;

namespace {

// Metric columns in a fixed order first (the run's pipe and path order), then any metric a later
// stats.json adds, sorted.
const std::vector<std::string>& known_metrics() {
  static const std::vector<std::string> m = {"cycles",
                                             "time_us",
                                             "instructions",
                                             "bound_pipe",
                                             "busy_cycles.S",
                                             "busy_cycles.MTE2",
                                             "busy_cycles.MTE1",
                                             "busy_cycles.M",
                                             "busy_cycles.FIX",
                                             "busy_ratio.S",
                                             "busy_ratio.MTE2",
                                             "busy_ratio.MTE1",
                                             "busy_ratio.M",
                                             "busy_ratio.FIX",
                                             "stall_cycles.flag",
                                             "stall_cycles.barrier",
                                             "stall_cycles.port",
                                             "stall_cycles.queue_full",
                                             "mac_utilisation",
                                             "bytes.GM->L1",
                                             "bytes.L1->L0A",
                                             "bytes.L1->L0B",
                                             "bytes.L1->L0B(sparse)",
                                             "bytes.L0C->GM"};
  return m;
}

std::vector<std::string> metric_columns(const std::vector<std::optional<Record>>& records) {
  std::set<std::string> seen;
  for (const auto& r : records)
    if (r)
      for (const auto& [k, v] : r->metrics.items()) seen.insert(k);
  std::vector<std::string> out;
  for (const std::string& k : known_metrics()) out.push_back(k);  // stable columns, even if empty
  for (const std::string& k : seen)
    if (std::find(out.begin(), out.end(), k) == out.end()) out.push_back(k);
  return out;
}

std::string cell_text(const nlohmann::json& v) {
  if (v.is_null()) return "";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer() || v.is_number_unsigned()) return v.dump();
  if (v.is_number_float()) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.6g", v.get<double>());
    return buf;
  }
  return v.dump();
}

}  // namespace

std::string csv_cell(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

Table build_table(const Plan& plan, const std::vector<std::optional<Record>>& records) {
  Table t;
  t.columns = {"point", "id"};
  t.columns.insert(t.columns.end(), plan.columns.begin(), plan.columns.end());
  t.columns.insert(t.columns.end(), {"status", "exit_code"});
  const std::vector<std::string> metrics = metric_columns(records);
  t.columns.insert(t.columns.end(), metrics.begin(), metrics.end());
  t.columns.insert(t.columns.end(), {"seconds", "message"});
  for (const Point& p : plan.points) {
    const std::optional<Record>& r = records[p.index];
    if (!r) {
      t.missing.push_back(p.index);
      continue;
    }
    nlohmann::json row = nlohmann::json::object();
    row["point"] = p.index;
    row["id"] = p.id;
    for (const auto& [k, v] : plan.values(p)) row[k] = v;
    row["status"] = to_string(r->status);
    row["exit_code"] = r->exit_code;
    for (const std::string& m : metrics) row[m] = r->metrics.contains(m) ? r->metrics[m] : nlohmann::json();
    row["seconds"] = r->seconds;
    row["message"] = r->message;
    t.rows.push_back(std::move(row));
  }
  return t;
}

void write_results(const Plan& plan, const Table& t, const std::string& out_dir) {
  std::string csv;
  for (size_t i = 0; i < t.columns.size(); ++i) csv += (i ? "," : "") + csv_cell(t.columns[i]);
  csv += "\n";
  for (const nlohmann::json& row : t.rows) {
    for (size_t i = 0; i < t.columns.size(); ++i)
      csv += (i ? "," : "") + csv_cell(cell_text(row.value(t.columns[i], nlohmann::json())));
    csv += "\n";
  }
  write_atomically((fs::path(out_dir) / "results.csv").string(), csv);
  nlohmann::json j = {{"study", plan.study.path}, {"name", plan.study.name}, {"points", plan.points.size()},
                      {"done", t.rows.size()},    {"swept", plan.swept},     {"columns", t.columns},
                      {"rows", t.rows},           {"missing", t.missing}};
  write_atomically((fs::path(out_dir) / "results.json").string(), j.dump(1) + "\n");
}

}  // namespace aicore::sweep
