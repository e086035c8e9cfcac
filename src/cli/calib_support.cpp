#include "calib_support.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <set>

#include "aicore/sweep/pool.hpp"
#include "sweep_support.hpp"

namespace aicore::cli {

namespace fs = std::filesystem;

WorkDir::WorkDir() {
  std::string t = (fs::temp_directory_path() / "aicore-calib-XXXXXX").string();
  if (!mkdtemp(t.data())) throw InputError(SourceLoc{t}, "cannot create a temporary folder");
  path_ = t;
}

WorkDir::~WorkDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

namespace {

// A run's figures per core, from its stats.json.
std::vector<calib::SimResult> read_cores(const std::string& dir, size_t cores) {
  std::ifstream f(fs::path(dir) / "stats.json");
  const nlohmann::json j = nlohmann::json::parse(f, nullptr, false);
  std::vector<calib::SimResult> out(cores);
  if (j.is_discarded() || !j.contains("cores") || j["cores"].size() != cores) {
    for (auto& r : out) r.message = "the run wrote no readable stats.json (see " + dir + "/run.log)";
    return out;
  }
  for (size_t c = 0; c < cores; ++c) {
    const nlohmann::json& core = j["cores"][c];
    calib::SimResult& r = out[c];
    r.ok = true;
    r.cycles = core["cycles"].get<uint64_t>();
    for (size_t p = 0; p < calib::kKernelPipeCount; ++p)
      r.active[p] = core["pipes"][calib::kKernelPipeNames[p]]["active_cycles"].get<uint64_t>();
  }
  return out;
}

bool may_share_chip(const std::vector<std::string>& sets, const config::Config& base) {
  for (const std::string& s : sets)
    if (s.rfind("chip.", 0) == 0 || s.rfind("gm.shared_bytes_per_cycle=", 0) == 0) return false;
  // A lone job does not meet the chip's shared bandwidths when its core's port is below them (the
  // calibration rows move rows of 128 B or more, which an L2 line fill cannot inflate past them),
  // so jobs on the cores of one run do not slow each other once those are lifted (make_simulator).
  const config::ChipConfig& ch = base.chip;
  return std::min({ch.hbm_capacity(), ch.l2_read_capacity(), ch.l2_write_capacity()}) >=
         base.gm.shared_bytes_per_cycle;
}

// chip.cores is at most 128 (config/params.cpp).
constexpr size_t kMaxCoresPerRun = 128;

struct Process {
  std::vector<size_t> jobs;  // indexes into the batch
  std::vector<std::string> sets;
};

std::vector<Process> group(const std::vector<calib::SimJob>& jobs, const config::Config& base, int workers) {
  std::map<std::vector<std::string>, std::vector<size_t>> by_sets;
  std::vector<std::vector<std::string>> order;
  for (size_t i = 0; i < jobs.size(); ++i) {
    auto& v = by_sets[jobs[i].sets];
    if (v.empty()) order.push_back(jobs[i].sets);
    v.push_back(i);
  }
  std::vector<Process> out;
  // Enough processes to keep every worker busy, as few as that allows.
  const size_t split =
      order.size() >= static_cast<size_t>(workers) ? 1 : (workers + order.size() - 1) / order.size();
  for (const auto& sets : order) {
    const std::vector<size_t>& idx = by_sets[sets];
    if (!may_share_chip(sets, base)) {
      for (size_t i : idx) out.push_back({{i}, sets});
      continue;
    }
    const size_t per = std::min<size_t>((idx.size() + split - 1) / split, kMaxCoresPerRun);
    for (size_t at = 0; at < idx.size(); at += per)
      out.push_back(
          {std::vector<size_t>(idx.begin() + at, idx.begin() + std::min(idx.size(), at + per)), sets});
  }
  return out;
}

}  // namespace

calib::Simulator make_simulator(const std::string& config_arg, const config::Config& base, int workers,
                                const std::string& work_dir) {
  const sweep::PoolOptions options = pool_options(workers, "fork");
  auto counter = std::make_shared<uint64_t>(0);
  return [=](const std::vector<calib::SimJob>& jobs) {
    std::vector<calib::SimResult> results(jobs.size());
    const std::vector<Process> procs = group(jobs, base, options.workers);
    std::vector<sweep::JobInfo> infos;
    for (const Process& p : procs) {
      sweep::JobInfo info;
      info.id = std::to_string((*counter)++);
      info.dir = (fs::path(work_dir) / "runs" / info.id).string();
      std::string input = jobs[p.jobs[0]].trace;
      if (p.jobs.size() > 1) {
        fs::create_directories(info.dir);
        input = (fs::path(info.dir) / "kernel.yaml").string();
        std::ofstream m(input);
        m << "cores:\n";
        for (size_t j : p.jobs) m << "  - " << jobs[j].trace << "\n";
      }
      // --check none: a microbenchmark repeats one instruction onto the same bytes with no flags on
      // purpose (a race by the checker's rules, harmless to its timing), and calibration asks only for
      // cycles. That gen's kernels are race-free is tested with the checker on (tests/cli).
      info.args = {input,           "--config", config_arg, "--out", info.dir,
                   "--timing-only", "-q",       "--check",  "none"};
      for (const std::string& s : p.sets) info.args.insert(info.args.end(), {"--set", s});
      if (p.jobs.size() > 1)
        info.args.insert(
            info.args.end(),
            {"--set", "chip.cores=" + std::to_string(std::max<size_t>(p.jobs.size(), base.chip.cores)),
             "--set", "chip.hbm.bytes_per_cycle=1000000", "--set",
             "chip.hbm.bytes_per_cycle_per_core=1000000", "--set", "chip.l2.read_bytes_per_cycle=1000000",
             "--set", "chip.l2.write_bytes_per_cycle=1000000", "--set",
             "chip.l2.read_bytes_per_cycle_per_core=1000000", "--set",
             "chip.l2.write_bytes_per_cycle_per_core=1000000"});
      infos.push_back(std::move(info));
    }
    std::map<std::string, sweep::Record> records;
    sweep::run_pool(
        infos, options, [&](const sweep::Record& r) { records[r.id] = r; }, nullptr);
    for (size_t i = 0; i < procs.size(); ++i) {
      const auto it = records.find(infos[i].id);
      std::vector<calib::SimResult> got(procs[i].jobs.size());
      if (it == records.end() || it->second.status != sweep::Status::Ok) {
        const std::string why = it == records.end() ? "interrupted" : it->second.message;
        for (auto& r : got)
          r.message = why.empty() ? "the run failed (see " + infos[i].dir + "/run.log)" : why;
      } else {
        got = read_cores(infos[i].dir, procs[i].jobs.size());
      }
      for (size_t k = 0; k < procs[i].jobs.size(); ++k) results[procs[i].jobs[k]] = got[k];
      std::error_code ec;
      fs::remove_all(infos[i].dir, ec);
    }
    return results;
  };
}

std::vector<TableRow> table_rows(const calib::Evaluator& e, const std::vector<calib::RowFigures>& now,
                                 const std::vector<calib::RowFigures>* before, const calib::Tolerances& tol) {
  std::vector<TableRow> out;
  for (size_t r = 0; r < e.rows(); ++r) {
    const auto cmp_now = e.compare(r, now[r], tol);
    const auto cmp_before = before ? e.compare(r, (*before)[r], tol) : cmp_now;
    for (size_t i = 0; i < cmp_now.size(); ++i) {
      TableRow t;
      t.row = calib::row_name(e.loc_of(r));
      t.figure = cmp_now[i].label;
      t.set = calib::to_string(e.set_of(r));
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
  for (const auto& [set, s] : per_set) {
    std::snprintf(line, sizeof line, "%s rows (%zu figures): mean |error| %.1f%%, worst %.1f%% (%s)\n",
                  set.c_str(), s.n, 100 * s.sum / static_cast<double>(s.n), 100 * s.worst,
                  s.worst_at.c_str());
    out << line;
  }
  return beyond;
}

std::string rows_text(const calib::Evaluator& e, const std::vector<size_t>& rows) {
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
                         const std::vector<calib::FitKey>& keys, const std::vector<double>& values,
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

}  // namespace aicore::cli
