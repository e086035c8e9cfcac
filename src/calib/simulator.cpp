#include "aicore/calib/simulator.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

namespace aicore::calib {

namespace fs = std::filesystem;

namespace {

// A run's figures per core, from its stats.json.
std::vector<SimResult> read_cores(const std::string& dir, size_t cores) {
  std::ifstream f(fs::path(dir) / "stats.json");
  const nlohmann::json j = nlohmann::json::parse(f, nullptr, false);
  std::vector<SimResult> out(cores);
  if (j.is_discarded() || !j.contains("cores") || j["cores"].size() != cores) {
    for (auto& r : out) r.message = "the run wrote no readable stats.json (see " + dir + "/run.log)";
    return out;
  }
  for (size_t c = 0; c < cores; ++c) {
    const nlohmann::json& core = j["cores"][c];
    SimResult& r = out[c];
    r.ok = true;
    r.cycles = core["cycles"].get<uint64_t>();
    for (size_t p = 0; p < kKernelPipeCount; ++p)
      r.active[p] = core["pipes"][kKernelPipeNames[p]]["aic_time_cycles"].get<uint64_t>();
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
  uint32_t chip_cores = 0;  // a chip kernel of this many cores (one job), or 0
};

// A chip kernel's one result: the chip's cycles, the mean core time and each pipe's mean.
SimResult chip_result(const std::vector<SimResult>& cores, const std::string& dir) {
  SimResult out;
  for (const SimResult& c : cores)
    if (!c.ok) return c;
  std::ifstream f(fs::path(dir) / "stats.json");
  const nlohmann::json j = nlohmann::json::parse(f, nullptr, false);
  out.ok = true;
  out.cycles = j["cycles"].get<uint64_t>();
  if (j.contains("chip") && j["chip"].contains("l2"))
    out.l2_read_hit_rate = j["chip"]["l2"].value("read_hit_rate", 0.0);
  const uint64_t n = cores.size();
  uint64_t sum = 0;
  std::array<uint64_t, kKernelPipeCount> pipes{};
  for (const SimResult& c : cores) {
    sum += c.cycles;
    for (size_t p = 0; p < kKernelPipeCount; ++p) pipes[p] += c.active[p];
  }
  out.mean_core_cycles = (sum + n / 2) / n;
  for (size_t p = 0; p < kKernelPipeCount; ++p) out.active[p] = (pipes[p] + n / 2) / n;
  return out;
}

std::vector<Process> group(const std::vector<SimJob>& jobs, const config::Config& base, int workers) {
  std::map<std::vector<std::string>, std::vector<size_t>> by_sets;
  std::vector<std::vector<std::string>> order;
  std::vector<Process> out;
  for (size_t i = 0; i < jobs.size(); ++i) {
    if (jobs[i].chip) {  // a chip kernel: alone, the chip as configured
      out.push_back({{i}, jobs[i].sets, jobs[i].cores});
      continue;
    }
    auto& v = by_sets[jobs[i].sets];
    if (v.empty()) order.push_back(jobs[i].sets);
    v.push_back(i);
  }
  // Enough processes to keep every worker busy, as few as that allows.
  const size_t split = order.empty() || order.size() >= static_cast<size_t>(workers)
                           ? 1
                           : (workers + order.size() - 1) / order.size();
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

Simulator pool_simulator(const sweep::PoolOptions& options, const std::string& config_arg,
                         const config::Config& base, const std::string& work_dir) {
  auto counter = std::make_shared<uint64_t>(0);
  return [=](const std::vector<SimJob>& jobs) {
    std::vector<SimResult> results(jobs.size());
    const std::vector<Process> procs = group(jobs, base, options.workers);
    std::vector<sweep::JobInfo> infos;
    for (const Process& p : procs) {
      sweep::JobInfo info;
      info.id = std::to_string((*counter)++);
      info.dir = (fs::path(work_dir) / "runs" / info.id).string();
      std::string input = jobs[p.jobs[0]].trace;
      if (p.jobs.size() > 1 && !p.chip_cores) {
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
      if (p.jobs.size() > 1 && !p.chip_cores)
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
      std::vector<SimResult> got(procs[i].jobs.size());
      if (it == records.end() || it->second.status != sweep::Status::Ok) {
        const std::string why = it == records.end() ? "interrupted" : it->second.message;
        for (auto& r : got)
          r.message = why.empty() ? "the run failed (see " + infos[i].dir + "/run.log)" : why;
      } else {
        got = procs[i].chip_cores ? std::vector<SimResult>{chip_result(
                                        read_cores(infos[i].dir, procs[i].chip_cores), infos[i].dir)}
                                  : read_cores(infos[i].dir, procs[i].jobs.size());
      }
      for (size_t k = 0; k < procs[i].jobs.size(); ++k) results[procs[i].jobs[k]] = got[k];
      std::error_code ec;
      fs::remove_all(infos[i].dir, ec);
    }
    return results;
  };
}

}  // namespace aicore::calib
