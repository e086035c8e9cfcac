#include "aicore/calib/fit.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>

#include "aicore/config/params.hpp"

namespace aicore::calib {

namespace {

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}
bool starts_with(const std::string& s, const std::string& head) {
  return s.compare(0, head.size(), head) == 0;
}

struct Range {
  double lo, hi;
};

// Plausible search ranges by kind of key (the legal ranges of the table are sanity limits, far
// too wide to search).
bool search_range(const std::string& key, Range& r) {
  if (ends_with(key, "bytes_per_cycle"))
    r = {8, 1024};
  else if (ends_with(key, "overhead_cycles"))
    r = {0, 1000};
  else if (ends_with(key, "latency_cycles"))
    r = {0, 2000};
  else if (ends_with(key, "window_bytes"))
    r = {512, 1 << 20};
  else if (ends_with(key, "row_cycles"))
    r = {0, 200};
  else if (key == "cube.head_cycles")
    r = {0, 500};
  else if (key == "cube.fixed_cycles")
    r = {0, 64};
  else if (ends_with(key, "k_per_cycle"))
    r = {1, 128};
  else if (key == "fixpipe.elements_per_cycle")
    r = {1, 512};
  else if (starts_with(key, "issue.min_interval_"))
    r = {0, 64};
  else if (key == "issue.instructions_per_cycle")
    r = {0.1, 8};
  else if (key == "issue.sync_cycles")
    r = {0, 64};
  else if (starts_with(key, "issue.queue_depth_"))
    r = {1, 256};
  else if (starts_with(key, "scalar."))
    r = {0, 2000};
  else if (ends_with(key, "unaligned_cost") || ends_with(key, "unaligned_read_cost"))
    r = {1, 8};  // factors on the bytes of an unaligned row
  else if (key == "chip.l2.write_read_cost")
    r = {0, 2};
  else if (key == "chip.l2.nd2nz_read_share")
    r = {0.1, 1};
  else if (key == "mte1.share_during_l1_write")
    r = {0.1, 1};
  else
    return false;
  return true;
}

std::vector<std::string> timing_keys() {
  std::vector<std::string> v;
  Range r;
  for (const config::Param& p : config::params())
    if (search_range(p.key, r)) v.push_back(p.key);
  return v;
}

// Four significant digits: values a person can read and write back.
double snap(double v) {
  if (v == 0) return 0;
  const double mag = std::pow(10.0, std::floor(std::log10(std::fabs(v))) - 3);
  return std::round(v / mag) * mag;
}

double legal(const FitKey& k, double v) {
  v = std::clamp(v, k.lo, k.hi);
  return k.integer ? std::round(v) : snap(v);
}

std::vector<double> grid(const FitKey& k) {
  std::vector<double> g;
  if (k.integer && k.hi - k.lo <= 8) {
    for (double v = k.lo; v <= k.hi; ++v) g.push_back(v);
    return g;
  }
  const double from = std::max(k.lo, 1.0);
  if (k.hi / from >= 16) {  // geometric, plus 0 when the range starts there
    if (k.lo < from) g.push_back(k.lo);
    for (int i = 0; i <= 9; ++i) g.push_back(from * std::pow(k.hi / from, i / 9.0));
  } else {
    for (int i = 0; i <= 8; ++i) g.push_back(k.lo + (k.hi - k.lo) * i / 8.0);
  }
  for (double& v : g) v = legal(k, v);
  std::sort(g.begin(), g.end());
  g.erase(std::unique(g.begin(), g.end()), g.end());
  return g;
}

std::vector<size_t> train_rows(const Evaluator& e) {
  std::vector<size_t> v;
  for (size_t r = 0; r < e.rows(); ++r)
    if (e.set_of(r) == RowSet::Train) v.push_back(r);
  return v;
}

// The search along one key: values tried so far and their cost over `rows`.
class Line {
 public:
  Line(Evaluator& e, const std::vector<double>& x, size_t key, const std::vector<size_t>& rows,
       const Tolerances& tol)
      : e_(e), x_(x), key_(key), rows_(rows), tol_(tol) {}

  void try_values(std::vector<double> values) {
    std::vector<std::vector<double>> points;
    std::vector<double> fresh;
    for (double v : values) {
      v = legal(e_.keys()[key_], v);
      if (tried_.count(v) || std::find(fresh.begin(), fresh.end(), v) != fresh.end()) continue;
      fresh.push_back(v);
      points.push_back(at(v));
    }
    if (points.empty()) return;
    const auto figs = e_.run(points, rows_);
    for (size_t i = 0; i < fresh.size(); ++i) {
      double c = 0;
      for (size_t r : rows_) c += e_.cost(r, figs[i][r], tol_);
      tried_[fresh[i]] = c;
    }
  }
  // The best value tried: the lowest cost; on a tie the current value, then the smaller one.
  double best() const {
    const double current = x_[key_];
    double best = current;
    double best_cost = tried_.count(current) ? tried_.at(current) : INFINITY;
    for (const auto& [v, c] : tried_)
      if (c < best_cost * (1 - 1e-12) - 1e-15) {
        best = v;
        best_cost = c;
      }
    return best;
  }
  // The tried values either side of v (v itself at an end).
  std::pair<double, double> bracket(double v) const {
    auto it = tried_.find(v);
    const double a = it == tried_.begin() ? v : std::prev(it)->first;
    const double b = std::next(it) == tried_.end() ? v : std::next(it)->first;
    return {a, b};
  }
  std::vector<double> at(double v) const {
    std::vector<double> p = x_;
    p[key_] = v;
    return p;
  }

 private:
  Evaluator& e_;
  const std::vector<double>& x_;
  size_t key_;
  const std::vector<size_t>& rows_;
  const Tolerances& tol_;
  std::map<double, double> tried_;
};

// The rows whose cost moves when `key` goes to either end of its range.
std::vector<size_t> rows_moved_by(Evaluator& e, const std::vector<double>& x, size_t key,
                                  const std::vector<size_t>& train, const Tolerances& tol) {
  const FitKey& k = e.keys()[key];
  std::vector<double> lo = x, hi = x;
  lo[key] = legal(k, k.lo);
  hi[key] = legal(k, k.hi);
  const auto figs = e.run({x, lo, hi}, train);
  std::vector<size_t> out;
  for (size_t r : train) {
    const double c0 = e.cost(r, figs[0][r], tol);
    const double near = 1e-12 * (1 + std::fabs(c0));
    if (std::fabs(e.cost(r, figs[1][r], tol) - c0) > near ||
        std::fabs(e.cost(r, figs[2][r], tol) - c0) > near)
      out.push_back(r);
  }
  return out;
}

// Around the current value, for the passes after the first: the key is near its best already.
std::vector<double> local_grid(const FitKey& k, double x) {
  const double span = std::max(std::fabs(x) * 0.25, (k.hi - k.lo) / 64);
  std::vector<double> g;
  for (double f : {-1.0, -0.5, 0.0, 0.5, 1.0}) g.push_back(legal(k, x + f * span));
  return g;
}

double search_key(Evaluator& e, const std::vector<double>& x, size_t key, const std::vector<size_t>& rows,
                  const Tolerances& tol, bool global) {
  const FitKey& k = e.keys()[key];
  Line line(e, x, key, rows, tol);
  std::vector<double> first = global ? grid(k) : local_grid(k, x[key]);
  first.push_back(x[key]);
  line.try_values(first);
  const double resolution = k.integer ? 1.0 : (k.hi - k.lo) * 5e-4;
  for (int round = 0; round < 40; ++round) {
    const double b = line.best();
    const auto [lo, hi] = line.bracket(b);
    if (hi - lo <= 2 * resolution) break;
    std::vector<double> next;
    if (k.integer && hi - lo <= 4) {
      for (double v = lo + 1; v < hi; ++v) next.push_back(v);
    } else {
      for (int j = 1; j <= 3; ++j) next.push_back(lo + (hi - lo) * j / 4.0);
    }
    const auto before = line.bracket(b);
    line.try_values(next);
    if (line.best() == b && line.bracket(b) == before) break;  // nothing new could be tried
  }
  return line.best();
}

}  // namespace

FitKey default_fit_key(const std::string& key, const SourceLoc& where) {
  const config::Param* p = config::find_param(key);
  if (!p) {
    const std::vector<std::string> keys = timing_keys();
    std::string near;
    for (const std::string& k : keys)  // a key cut short ("gm.read.latency") is the likeliest slip
      if (near.empty() && !key.empty() && k.compare(0, key.size(), key) == 0) near = k;
    if (near.empty()) near = nearest_word(key, keys);
    throw InputError(
        where, "unknown config key '" + key + "'" + (near.empty() ? "" : "; did you mean '" + near + "'?"));
  }
  Range r;
  if (!search_range(key, r))
    throw InputError(
        where, "'" + key +
                   "' is not a timing key: calibrate fits bandwidths, overheads, latencies, "
                   "windows, row costs, intervals and scalar costs, not clock, core counts or buffer sizes");
  config::Config c;
  FitKey k;
  k.key = key;
  k.integer = !std::holds_alternative<double*>(p->field(c));
  k.lo = std::max(r.lo, p->min);
  k.hi = std::min(r.hi, p->max);
  return k;
}

FitKey parse_fit_key(const std::string& spec, const SourceLoc& where) {
  const size_t eq = spec.find('=');
  FitKey k = default_fit_key(spec.substr(0, eq), where);
  if (eq == std::string::npos) return k;
  const std::string range = spec.substr(eq + 1);
  const size_t colon = range.find(':');
  char* end = nullptr;
  const std::string a = range.substr(0, colon), b = colon == std::string::npos ? "" : range.substr(colon + 1);
  const double lo = std::strtod(a.c_str(), &end);
  const bool lo_ok = !a.empty() && end == a.c_str() + a.size();
  const double hi = std::strtod(b.c_str(), &end);
  const bool hi_ok = !b.empty() && end == b.c_str() + b.size();
  if (colon == std::string::npos || !lo_ok || !hi_ok || !std::isfinite(lo) || !std::isfinite(hi) || lo >= hi)
    throw InputError(where, "a fitted key's range is KEY=LO:HI with LO < HI, not '" + spec + "'");
  const config::Param* p = config::find_param(k.key);
  if (lo < p->min || hi > p->max) {
    char legal_range[96];
    std::snprintf(legal_range, sizeof legal_range, "%g..%g", p->min, p->max);
    throw InputError(where, "the range " + range + " of '" + k.key + "' leaves its legal range " +
                                legal_range + " " + p->unit);
  }
  k.lo = lo;
  k.hi = hi;
  return k;
}

double objective(Evaluator& eval, const std::vector<double>& point, const Tolerances& tol) {
  const std::vector<size_t> train = train_rows(eval);
  const auto figs = eval.run({point}, train);
  double c = 0;
  for (size_t r : train) c += eval.cost(r, figs[0][r], tol);
  return c;
}

FitResult fit(Evaluator& eval, const std::vector<double>& start, const FitOptions& options) {
  FitResult out;
  const std::vector<size_t> train = train_rows(eval);
  std::vector<double> x = start;
  for (size_t i = 0; i < x.size(); ++i) x[i] = legal(eval.keys()[i], x[i]);
  out.start = x;
  out.rows_of_key.resize(x.size());
  out.start_cost = objective(eval, x, options.tolerances);
  double cost = out.start_cost;
  for (out.passes = 1; out.passes <= options.max_passes; ++out.passes) {
    // The first pass searches each key over its whole range and finds the rows it moves; the
    // later ones search around the current values, on the same rows.
    const bool first = out.passes == 1;
    bool moved = false;
    for (size_t key = 0; key < x.size(); ++key) {
      if (first) out.rows_of_key[key] = rows_moved_by(eval, x, key, train, options.tolerances);
      if (out.rows_of_key[key].empty()) continue;
      const double v = search_key(eval, x, key, out.rows_of_key[key], options.tolerances, first);
      if (v != x[key]) {
        x[key] = v;
        moved = true;
      }
    }
    const double now = objective(eval, x, options.tolerances);
    const bool settled = now > cost * (1 - options.min_gain);
    cost = now;
    if (!moved || settled) break;
  }
  out.passes = std::min(out.passes, options.max_passes);
  out.values = x;
  out.cost = objective(eval, x, options.tolerances);
  return out;
}

}  // namespace aicore::calib
