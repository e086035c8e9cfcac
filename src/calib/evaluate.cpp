#include "aicore/calib/evaluate.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "aicore/config/params.hpp"

namespace aicore::calib {

namespace {

namespace fs = std::filesystem;

std::string write_file(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  if (!f.flush()) throw InputError(SourceLoc{path}, "cannot write the simulation's trace");
  return path;
}

// A key's value as --set text: integers as integers, others in the shortest exact form.
std::string value_text(double v, bool integer) {
  if (integer) return std::to_string(static_cast<uint64_t>(std::llround(v)));
  char buf[64];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

double rel(double simulated, double measured) {
  return simulated / measured - 1.0;
}

}  // namespace

Evaluator::Evaluator(const Dataset& data, const config::Config& base, std::vector<FitKey> keys,
                     const std::string& work_dir, Simulator sim)
    : data_(data), clock_mhz_(base.clock_mhz), keys_(std::move(keys)), sim_(std::move(sim)) {
  for (const MicroRow& r : data_.micro) {
    micro_.push_back(micro_of(r));
    check_micro(r, micro_.back(), base);
  }
  for (size_t row = 0; row < rows(); ++row) {
    const std::string prefix = "r" + std::to_string(row) + "_";
    std::vector<std::string> files;
    if (!is_kernel(row)) {
      files.push_back(write_file((fs::path(work_dir) / (prefix + "micro.trace")).string(),
                                 micro_trace(data_.micro[row], micro_[row], prefix)));
    } else {
      const KernelRow& k = data_.kernels[row - data_.micro.size()];
      if (k.cores > base.chip.cores)
        throw InputError(k.loc, "the kernel runs on " + std::to_string(k.cores) +
                                    " cores but the configuration's chip has chip.cores = " +
                                    std::to_string(base.chip.cores));
      if (k.cores > 1 || k.stream) {
        files.push_back(write_chip_kernel(k, (fs::path(work_dir) / (prefix + "kernel")).string()));
        traces_.push_back(std::move(files));
        continue;
      }
      for (uint64_t blocks : kernel_block_runs(k))
        files.push_back(write_file(
            (fs::path(work_dir) / (prefix + "kernel" + std::to_string(blocks) + ".trace")).string(),
            kernel_trace(k, blocks, prefix)));
    }
    traces_.push_back(std::move(files));
  }
}

RowSet Evaluator::set_of(size_t row) const {
  return is_kernel(row) ? data_.kernels[row - data_.micro.size()].set : data_.micro[row].set;
}

const SourceLoc& Evaluator::loc_of(size_t row) const {
  return is_kernel(row) ? data_.kernels[row - data_.micro.size()].loc : data_.micro[row].loc;
}

std::vector<std::string> Evaluator::sets_of(const std::vector<double>& point) const {
  std::vector<std::string> sets;
  for (size_t i = 0; i < keys_.size(); ++i)
    sets.push_back(keys_[i].key + "=" + value_text(point[i], keys_[i].integer));
  return sets;
}

RowFigures Evaluator::figures(size_t row, const std::vector<SimResult>& runs) const {
  RowFigures f;
  if (!is_kernel(row)) {
    f.value = micro_metric(data_.micro[row], micro_[row], runs[0].cycles, clock_mhz_);
    return f;
  }
  const KernelRow& k = data_.kernels[row - data_.micro.size()];
  if (k.cores > 1 || k.stream) {  // the whole kernel: the chip's time, and each pipe's mean over the cores
    f.task_us = static_cast<double>(runs[0].cycles) / clock_mhz_;
    f.l2_hit_pct = 100 * runs[0].l2_read_hit_rate;
    f.aicore_us = static_cast<double>(runs[0].mean_core_cycles) / clock_mhz_;
    for (size_t p = 0; p < kKernelPipeCount; ++p)
      f.pipe_us[p] = static_cast<double>(runs[0].active[p]) / clock_mhz_;
    return f;
  }
  std::vector<KernelCycles> cyc;
  for (const SimResult& r : runs) {
    KernelCycles k;
    k.task = static_cast<double>(r.cycles);
    for (size_t p = 0; p < kKernelPipeCount; ++p) k.pipes[p] = static_cast<double>(r.active[p]);
    cyc.push_back(k);
  }
  const KernelCycles all = extrapolate(data_.kernels[row - data_.micro.size()], cyc);
  f.task_us = all.task / clock_mhz_;
  for (size_t p = 0; p < kKernelPipeCount; ++p) f.pipe_us[p] = all.pipes[p] / clock_mhz_;
  return f;
}

std::vector<std::vector<RowFigures>> Evaluator::run(const std::vector<std::vector<double>>& points,
                                                    const std::vector<size_t>& which) {
  struct Pending {
    size_t point, row, first_job;
  };
  std::vector<SimJob> jobs;
  std::vector<Pending> pending;
  std::map<std::pair<size_t, std::vector<double>>, bool> queued;
  for (size_t p = 0; p < points.size(); ++p)
    for (size_t row : which) {
      const auto key = std::make_pair(row, points[p]);
      if (cache_.count(key) || queued.count(key)) continue;
      queued[key] = true;
      pending.push_back({p, row, jobs.size()});
      uint32_t cores = 1;
      bool chip = false;
      if (is_kernel(row)) {
        const KernelRow& k = data_.kernels[row - data_.micro.size()];
        cores = k.cores;
        // Every kernel runs alone: rows on the cores of one run would share the L2's capacity, and
        // a kernel's figures would depend on which rows were validated with it.
        chip = true;
      }
      for (const std::string& t : traces_[row]) jobs.push_back({t, sets_of(points[p]), cores, chip});
    }
  if (!jobs.empty()) {
    const std::vector<SimResult> results = sim_(jobs);
    simulations_ += jobs.size();
    for (const Pending& q : pending) {
      const size_t n = traces_[q.row].size();
      const std::vector<SimResult> runs(results.begin() + static_cast<long>(q.first_job),
                                        results.begin() + static_cast<long>(q.first_job + n));
      for (const SimResult& r : runs)
        if (!r.ok) {
          std::string at;
          for (const std::string& s : sets_of(points[q.point])) at += " " + s;
          throw std::runtime_error("simulating " + row_name(loc_of(q.row)) + " failed" +
                                   (at.empty() ? "" : " (with" + at + ")") + ": " + r.message);
        }
      cache_[{q.row, points[q.point]}] = figures(q.row, runs);
    }
  }
  std::vector<std::vector<RowFigures>> out(points.size(), std::vector<RowFigures>(rows()));
  for (size_t p = 0; p < points.size(); ++p)
    for (size_t row : which) out[p][row] = cache_.at({row, points[p]});
  return out;
}

std::vector<Evaluator::Compared> Evaluator::compare(size_t row, const RowFigures& f,
                                                    const Tolerances& tol) const {
  std::vector<Compared> out;
  if (!is_kernel(row)) {
    const MicroRow& m = data_.micro[row];
    out.push_back({m.kind + " " + m.dst + " " + std::to_string(m.param), m.value, f.value, tol.micro});
    return out;
  }
  const KernelRow& k = data_.kernels[row - data_.micro.size()];
  out.push_back({k.name + " task us", k.task_us, f.task_us, tol.task});
  if (k.aicore_us && k.cores > 1) out.push_back({k.name + " aicore us", *k.aicore_us, f.aicore_us, tol.task});
  // The hit rate in points: its tolerance is 10 points, as a share of the measured rate.
  if (k.l2_hit_pct)
    out.push_back({k.name + " L2 read hit %", *k.l2_hit_pct, f.l2_hit_pct, 10.0 / *k.l2_hit_pct});
  for (size_t p = 0; p < kKernelPipeCount; ++p)
    if (k.pipe_us[p])
      out.push_back(
          {k.name + " " + kKernelPipeNames[p] + " msprof us", *k.pipe_us[p], f.pipe_us[p], tol.pipe});
  return out;
}

double Evaluator::cost(size_t row, const RowFigures& f, const Tolerances& tol) const {
  double c = 0;
  for (const Compared& x : compare(row, f, tol)) {
    const double e = rel(x.simulated, x.measured) / x.tolerance;
    c += e * e;
  }
  return c;
}

}  // namespace aicore::calib
