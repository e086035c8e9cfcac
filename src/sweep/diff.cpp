#include "aicore/sweep/diff.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "aicore/common/error.hpp"
#include "aicore/sweep/results.hpp"

namespace aicore::sweep {

namespace fs = std::filesystem;

namespace {

using Flat = std::map<std::string, nlohmann::json>;

// Leaves of a JSON tree under dotted names (array elements as name[i]).
void flatten(const nlohmann::json& j, const std::string& prefix, Flat& out) {
  if (j.is_object()) {
    for (const auto& [k, v] : j.items()) flatten(v, prefix.empty() ? k : prefix + "." + k, out);
  } else if (j.is_array()) {
    for (size_t i = 0; i < j.size(); ++i) flatten(j[i], prefix + "[" + std::to_string(i) + "]", out);
  } else {
    out[prefix] = j;
  }
}

bool same(const nlohmann::json& a, const nlohmann::json& b) {
  if (a.is_number() && b.is_number()) return a.get<double>() == b.get<double>();
  return a == b;
}

std::string text(const nlohmann::json& v) {
  if (v.is_null()) return "(absent)";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_float()) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.6g", v.get<double>());
    return buf;
  }
  return v.dump();
}

std::string bound(const nlohmann::json& s) {
  if (s.contains("summary") && s["summary"].is_object() && s["summary"].contains("bound_pipe") &&
      s["summary"]["bound_pipe"].is_string())
    return s["summary"]["bound_pipe"].get<std::string>();
  return "?";
}

// abs and rel change as text; "" where they do not apply.
std::pair<std::string, std::string> change_of(const Change& c) {
  if (!c.a.is_number() || !c.b.is_number()) return {"", ""};
  const double a = c.a.get<double>(), b = c.b.get<double>();
  char abs[40], rel[40] = "";
  if (!c.a.is_number_float() && !c.b.is_number_float() && std::fabs(b - a) < 9e15)
    std::snprintf(abs, sizeof abs, "%+lld", static_cast<long long>(b - a));
  else
    std::snprintf(abs, sizeof abs, "%+.6g", b - a);
  if (a != 0) std::snprintf(rel, sizeof rel, "%+.1f%%", 100.0 * (b - a) / std::fabs(a));
  return {abs, rel};
}

}  // namespace

nlohmann::json load_stats(const std::string& path_or_dir, std::string* file) {
  std::error_code ec;
  fs::path p(path_or_dir);
  if (fs::is_directory(p, ec)) p /= "stats.json";
  if (file) *file = p.string();
  if (!fs::is_regular_file(p, ec))
    throw InputError(SourceLoc{p.string()}, fs::exists(p, ec) ? "not a regular file"
                                                              : "no such file (give a run's --out directory "
                                                                "or its stats.json)");
  std::ifstream f(p, std::ios::binary);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(f);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(SourceLoc{p.string()}, std::string("not valid JSON: ") + e.what());
  }
  if (!j.is_object() || !j.contains("cycles"))
    throw InputError(SourceLoc{p.string()}, "not a stats.json of aicore-sim run (no \"cycles\")");
  return j;
}

RunDiff diff_runs(const std::string& a_path, const std::string& b_path) {
  RunDiff d;
  const nlohmann::json a = load_stats(a_path, &d.a_path), b = load_stats(b_path, &d.b_path);
  d.bound_a = bound(a);
  d.bound_b = bound(b);
  Flat fa, fb;
  flatten(a, "", fa);
  flatten(b, "", fb);
  // On a chip of one core the top level is that core's figures: its cores[0] would repeat each one.
  const auto one_core = [](const nlohmann::json& s) { return s.contains("cores") && s["cores"].size() == 1; };
  const bool skip_core = one_core(a) && one_core(b);
  std::set<std::string> names;
  for (const Flat* f : {&fa, &fb})
    for (const auto& [k, v] : *f)
      if (!skip_core || k.rfind("cores[0].", 0) != 0) names.insert(k);
  std::vector<Change> metrics, config, info;
  for (const std::string& n : names) {
    Change c;
    c.a = fa.count(n) ? fa[n] : nlohmann::json();
    c.b = fb.count(n) ? fb[n] : nlohmann::json();
    c.changed = !same(c.a, c.b);
    const bool numeric = c.a.is_number() || c.b.is_number();
    if (n.rfind("config.", 0) == 0) {
      c.section = "config";
      c.name = n.substr(7);
      config.push_back(c);
    } else {
      c.section = numeric ? "metric" : "info";
      c.name = n;
      (numeric ? metrics : info).push_back(c);
    }
  }
  // cycles and time first: what a reader looks for.
  std::stable_partition(metrics.begin(), metrics.end(),
                        [](const Change& c) { return c.name == "cycles" || c.name == "time_us"; });
  for (auto* part : {&metrics, &config, &info}) d.changes.insert(d.changes.end(), part->begin(), part->end());
  return d;
}

std::string diff_text(const RunDiff& d, bool all) {
  std::string out = "diff " + d.a_path + " -> " + d.b_path + "\n";
  out += "bound pipe: " + d.bound_a + (d.bound_a == d.bound_b ? " (unchanged)" : " -> " + d.bound_b) + "\n";
  for (const Change& c : d.changes)
    if (c.section != "metric" && c.changed && c.name != "summary.bound_pipe")
      out += c.section + " " + c.name + ": " + text(c.a) + " -> " + text(c.b) + "\n";
  size_t width = 6, changed = 0, unchanged = 0;
  for (const Change& c : d.changes)
    if (c.section == "metric" && (all || c.changed)) width = std::max(width, c.name.size());
  char buf[512];
  std::snprintf(buf, sizeof buf, "%-*s %14s %14s %14s %9s\n", static_cast<int>(width), "metric", "A", "B",
                "change", "relative");
  std::string table = buf;
  for (const Change& c : d.changes) {
    if (c.section != "metric") continue;
    (c.changed ? changed : unchanged) += 1;
    if (!all && !c.changed) continue;
    const auto [abs, rel] = change_of(c);
    std::snprintf(buf, sizeof buf, "%-*s %14s %14s %14s %9s\n", static_cast<int>(width), c.name.c_str(),
                  text(c.a).c_str(), text(c.b).c_str(), abs.c_str(), rel.c_str());
    table += buf;
  }
  if (changed || all) out += table;
  out += std::to_string(changed) + " metric(s) changed, " + std::to_string(unchanged) + " unchanged\n";
  return out;
}

std::string diff_csv(const RunDiff& d) {
  std::string out = "section,name,a,b,abs_change,rel_change,changed\n";
  for (const Change& c : d.changes) {
    auto [abs, rel] = change_of(c);
    if (!rel.empty()) rel.pop_back();  // a plain number for scripts: percent without the sign
    out += c.section + "," + csv_cell(c.name) + "," + csv_cell(c.a.is_null() ? "" : text(c.a)) + "," +
           csv_cell(c.b.is_null() ? "" : text(c.b)) + "," + abs + "," + rel + "," + (c.changed ? "1" : "0") +
           "\n";
  }
  return out;
}

}  // namespace aicore::sweep
