#include "aicore/sweep/summary.hpp"

#include <cstdio>
#include <filesystem>
#include <map>

namespace aicore::sweep {

namespace fs = std::filesystem;

namespace {

bool ok_with_cycles(const nlohmann::json& row) {
  return row.value("status", "") == "ok" && row.contains("cycles") && row["cycles"].is_number();
}

std::string point_values(const Plan& plan, const nlohmann::json& row) {
  std::string s;
  for (const std::string& k : plan.swept) s += (s.empty() ? "" : " ") + k + "=" + row.value(k, "");
  return s;
}

// "point 42 (id 3f2a...)": the number counts points in study order; the id names its folder
// (points/ID), which is what diff and the records take.
std::string point_name(const nlohmann::json& row) {
  return "point " + std::to_string(row["point"].get<size_t>()) + " (id " + row.value("id", std::string("?")) +
         ")";
}

std::string point_line(const Plan& plan, const char* label, const nlohmann::json& row) {
  char buf[240];
  const double us = row.contains("time_us") && row["time_us"].is_number() ? row["time_us"].get<double>() : 0;
  std::snprintf(buf, sizeof buf, "%-6s %-32s %10.0f cycles (%.3f us), bound %-4s ", label,
                point_name(row).c_str(), row["cycles"].get<double>(), us,
                row.value("bound_pipe", std::string("?")).c_str());
  return std::string(buf) + point_values(plan, row) + "\n";
}

std::string sensitivity_lines(const Plan& plan, const Table& t) {
  const auto s = sensitivities(plan, t);
  if (s.empty()) return "";
  size_t width = 3;
  for (const auto& x : s) width = std::max(width, x.key.size());
  char buf[400];
  std::snprintf(
      buf, sizeof buf,
      "sensitivity of cycles (mean over the other keys' values, ok points):\n  %-*s %6s  %-22s %-22s %7s\n",
      static_cast<int>(width), "key", "values", "lowest mean @ value", "highest mean @ value", "spread");
  std::string out = buf;
  for (const auto& x : s) {
    char lo[64], hi[64];
    std::snprintf(lo, sizeof lo, "%.0f @ %s", x.low, x.low_at.c_str());
    std::snprintf(hi, sizeof hi, "%.0f @ %s", x.high, x.high_at.c_str());
    char spread[16] = "      -";  // one value with ok points: nothing to compare
    if (x.values > 1) std::snprintf(spread, sizeof spread, "%6.1f%%", 100.0 * x.spread());
    std::snprintf(buf, sizeof buf, "  %-*s %6zu  %-22s %-22s %s\n", static_cast<int>(width), x.key.c_str(),
                  x.values, lo, hi, spread);
    out += buf;
  }
  return out;
}

std::string failure_lines(const Table& t) {
  std::map<std::string, size_t> by_status;
  const nlohmann::json* first = nullptr;
  for (const auto& row : t.rows) {
    const std::string st = row.value("status", "");
    if (st == "ok") continue;
    ++by_status[st];
    if (!first) first = &row;
  }
  if (!first) return "";
  size_t n = 0;
  std::string kinds;
  for (const auto& [st, count] : by_status) {
    n += count;
    kinds += (kinds.empty() ? "" : ", ") + st + " " + std::to_string(count);
  }
  return "failed: " + std::to_string(n) + " point(s) (" + kinds + "); first: " + point_name(*first) + ": " +
         first->value("message", "") + "\n";
}

}  // namespace

std::vector<Sensitivity> sensitivities(const Plan& plan, const Table& t) {
  std::vector<Sensitivity> out;
  for (const std::string& key : plan.swept) {
    std::map<std::string, std::pair<double, size_t>> sum;  // value -> (sum of cycles, count)
    std::vector<std::string> order;                        // values in table order
    for (const auto& row : t.rows) {
      if (!ok_with_cycles(row)) continue;
      const std::string v = row.value(key, "");
      auto [it, fresh] = sum.emplace(v, std::make_pair(0.0, size_t{0}));
      if (fresh) order.push_back(v);
      it->second.first += row["cycles"].get<double>();
      ++it->second.second;
    }
    if (order.empty()) continue;
    Sensitivity s;
    s.key = key;
    s.values = order.size();
    bool first = true;
    for (const std::string& v : order) {
      const double mean = sum[v].first / static_cast<double>(sum[v].second);
      if (first || mean < s.low) s.low = mean, s.low_at = v;
      if (first || mean > s.high) s.high = mean, s.high_at = v;
      first = false;
    }
    out.push_back(s);
  }
  return out;
}

std::string summary_text(const Plan& plan, const Table& t, const RunCounts& c, const std::string& out_dir) {
  std::string out;
  size_t ok = 0;
  std::map<std::string, size_t> bound;
  const nlohmann::json *best = nullptr, *worst = nullptr;
  for (const auto& row : t.rows) {
    if (!ok_with_cycles(row)) continue;
    ++ok;
    ++bound[row.value("bound_pipe", std::string("?"))];
    const double cyc = row["cycles"].get<double>();
    if (!best || cyc < (*best)["cycles"].get<double>()) best = &row;
    if (!worst || cyc > (*worst)["cycles"].get<double>()) worst = &row;
  }
  char buf[300];
  std::snprintf(buf, sizeof buf,
                "sweep %s: %zu points: %zu run, %zu skipped (done before); %zu ok, %zu failed",
                plan.study.name.c_str(), plan.points.size(), c.run, c.skipped, ok, t.rows.size() - ok);
  out += buf;
  if (!t.missing.empty()) out += ", " + std::to_string(t.missing.size()) + " without a result";
  std::snprintf(buf, sizeof buf, " (%.1f s, %s)\n", c.seconds, c.executor.c_str());
  out += buf;
  if (best) {
    out += point_line(plan, "best", *best);
    out += point_line(plan, "worst", *worst);
    std::string b;
    for (const auto& [pipe, n] : bound) b += (b.empty() ? "" : ", ") + pipe + " " + std::to_string(n);
    out += "bound pipe: " + b + "\n";
    const fs::path points = fs::path(out_dir) / "points";
    if (best != worst)
      out += "compare them: aicore-sim diff " + (points / best->value("id", "")).string() + " " +
             (points / worst->value("id", "")).string() + "\n";
  }
  out += sensitivity_lines(plan, t);
  out += failure_lines(t);
  for (const std::string& w : plan.warnings) out += w + "\n";
  out += "results: " + (fs::path(out_dir) / "results.csv").string() +
         ", results.json; per point: " + (fs::path(out_dir) / "points").string() + "/ID/stats.json\n";
  return out;
}

}  // namespace aicore::sweep
