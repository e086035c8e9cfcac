#include "aicore/calib/table.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <ostream>

namespace aicore::calib {

namespace fs = std::filesystem;

std::vector<TableRow> table_rows(const Evaluator& e, const std::vector<RowFigures>& now,
                                 const std::vector<RowFigures>* before, const Tolerances& tol) {
  std::vector<TableRow> out;
  for (size_t r = 0; r < e.rows(); ++r) {
    const auto cmp_now = e.compare(r, now[r], tol);
    const auto cmp_before = before ? e.compare(r, (*before)[r], tol) : cmp_now;
    for (size_t i = 0; i < cmp_now.size(); ++i) {
      TableRow t;
      t.row = row_name(e.loc_of(r));
      t.figure = cmp_now[i].label;
      t.set = to_string(e.set_of(r));
      t.measured = cmp_now[i].measured;
      t.now = cmp_now[i].simulated;
      t.before = cmp_before[i].simulated;
      t.tolerance = cmp_now[i].tolerance;
      out.push_back(t);
    }
  }
  return out;
}

size_t print_table(std::ostream& out, const std::vector<TableRow>& rows, bool with_before) {
  char line[320];
  std::snprintf(line, sizeof line, "%-24s %-30s %12s %12s%s %8s  %s\n", "row", "figure", "measured",
                with_before ? "before" : "simulated", with_before ? "        after" : "", "error", "set");
  out << line;
  size_t beyond = 0;
  struct Stats {
    double sum = 0, worst = -1;
    std::string worst_at;
    size_t n = 0;
  };
  std::map<std::string, Stats> per_set;
  for (const TableRow& t : rows) {
    const double err = t.now / t.measured - 1.0;
    const bool bad = std::fabs(err) > t.tolerance + 1e-12;
    beyond += bad;
    char after[32] = "";
    if (with_before) std::snprintf(after, sizeof after, " %12.6g", t.now);
    const std::string note =
        bad ? "  (beyond " + std::to_string(static_cast<int>(std::lround(100 * t.tolerance))) + "%)" : "";
    std::snprintf(line, sizeof line, "%-24s %-30s %12.6g %12.6g%s %+7.1f%%  %s%s\n", t.row.c_str(),
                  t.figure.c_str(), t.measured, with_before ? t.before : t.now, after, 100 * err,
                  t.set.c_str(), note.c_str());
    out << line;
    Stats& s = per_set[t.set];
    s.sum += std::fabs(err);
    ++s.n;
    if (std::fabs(err) > s.worst) {
      s.worst = std::fabs(err);
      s.worst_at = t.row + " " + t.figure;
    }
  }
  for (const TableRow& t : rows)
    if (t.figure.find(" msprof us") != std::string::npos) {
      out << "(P msprof us: each pipe's time as msprof counts it, stats.json aic_time_cycles: a Fixpipe's "
             "unitFlag wait included, not its busy time)\n";
      break;
    }
  for (const auto& [set, s] : per_set) {
    std::snprintf(line, sizeof line, "%s rows (%zu figures): mean |error| %.1f%%, worst %.1f%% (%s)\n",
                  set.c_str(), s.n, 100 * s.sum / static_cast<double>(s.n), 100 * s.worst,
                  s.worst_at.c_str());
    out << line;
  }
  return beyond;
}

std::string rows_text(const Evaluator& e, const std::vector<size_t>& rows) {
  std::map<std::string, std::vector<uint32_t>> lines;
  std::vector<std::string> files;
  for (size_t r : rows) {
    const std::string f = fs::path(e.loc_of(r).file).filename().string();
    if (!lines.count(f)) files.push_back(f);
    lines[f].push_back(e.loc_of(r).line);
  }
  std::string s;
  for (const std::string& f : files) {
    std::vector<uint32_t>& v = lines[f];
    std::sort(v.begin(), v.end());
    std::string part;
    for (size_t i = 0; i < v.size();) {
      size_t j = i;
      while (j + 1 < v.size() && v[j + 1] == v[j] + 1) ++j;
      part += (part.empty() ? "" : ",") + std::to_string(v[i]) + (j > i ? "-" + std::to_string(v[j]) : "");
      i = j + 1;
    }
    s += (s.empty() ? "" : "; ") + f + ":" + part;
  }
  return s;
}

std::string overlay_yaml(const std::string& base, const std::vector<std::string>& header,
                         const std::vector<FitKey>& keys, const std::vector<double>& values,
                         const std::vector<std::string>& fitted_to) {
  std::string y;
  for (const std::string& h : header) y += "# " + h + "\n";
  y += "base: " + base + "\n";
  // Keys in table order, nested like the presets.
  std::vector<size_t> order(keys.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::vector<std::string> open;
  for (size_t i : order) {
    std::vector<std::string> parts;
    for (size_t at = 0;;) {
      const size_t dot = keys[i].key.find('.', at);
      parts.push_back(keys[i].key.substr(at, dot == std::string::npos ? std::string::npos : dot - at));
      if (dot == std::string::npos) break;
      at = dot + 1;
    }
    const std::string leaf = parts.back();
    parts.pop_back();
    size_t same = 0;
    while (same < open.size() && same < parts.size() && open[same] == parts[same]) ++same;
    for (size_t d = same; d < parts.size(); ++d) y += std::string(2 * d, ' ') + parts[d] + ":\n";
    open = parts;
    char v[64];
    if (keys[i].integer)
      std::snprintf(v, sizeof v, "%lld", static_cast<long long>(std::llround(values[i])));
    else
      std::snprintf(v, sizeof v, "%.10g", values[i]);
    std::string line = std::string(2 * parts.size(), ' ') + leaf + ": " + v;
    if (line.size() < 34) line.resize(34, ' ');
    y += line + "  # fitted to " +
         (fitted_to[i].empty() ? "no row (no training row depends on it)" : fitted_to[i]) + "\n";
  }
  return y;
}

}  // namespace aicore::calib
