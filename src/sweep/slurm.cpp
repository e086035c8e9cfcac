#include "aicore/sweep/slurm.hpp"

#include <signal.h>
#include <sys/stat.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>

#include "aicore/common/error.hpp"
#include "command.hpp"

namespace aicore::sweep {

namespace fs = std::filesystem;

namespace {

constexpr size_t kDefaultMaxTasks = 100;  // few enough for any MaxArraySize, enough to fill a partition
constexpr int kQueueRetries = 5;

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

std::string last_line(const fs::path& p) {
  std::ifstream f(p);
  std::string line, last;
  while (std::getline(f, line))
    if (!trim(line).empty()) last = trim(line);
  return last;
}

fs::path task_done(const fs::path& slurm_dir, size_t t) {
  return slurm_dir / ("task-" + std::to_string(t) + ".done");
}

void require(const std::string& program) {
  if (detail::find_in_path(program).empty())
    throw SlurmError("--executor slurm: '" + program +
                     "' is not in PATH; run the sweep on a Slurm submit host, or use --executor local");
}

void write_plan(const fs::path& dir, const std::vector<JobInfo>& jobs, size_t chunk) {
  nlohmann::json j = {{"version", 1}, {"chunk", chunk}, {"jobs", nlohmann::json::array()}};
  for (const JobInfo& job : jobs) j["jobs"].push_back(to_json(job));
  write_atomically((dir / "plan.json").string(), j.dump() + "\n");
}

void write_script(const fs::path& dir, const std::string& self, size_t chunk) {
  const fs::path script = dir / "job.sh";
  std::ostringstream s;
  s << "#!/bin/sh\n"
    << "# Written by aicore-sim sweep: Slurm array task N runs points N*" << chunk << " .. N*" << chunk << "+"
    << chunk - 1 << " of plan.json\n"
    << "# on SLURM_CPUS_PER_TASK local processes, writing ../points/ID/point.json for each.\n"
    << "exec " << shell_quote(self) << " sweep-worker " << shell_quote((dir / "plan.json").string())
    << " --task \"$SLURM_ARRAY_TASK_ID\" -j \"${SLURM_CPUS_PER_TASK:-1}\"\n";
  write_atomically(script.string(), s.str());
  fs::permissions(script, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                              fs::perms::others_read | fs::perms::others_exec);
}

std::string submit(const fs::path& dir, size_t tasks, const SlurmOptions& o) {
  std::vector<std::string> argv = {"sbatch", "--parsable", "--job-name=aicore-sweep",
                                   "--array=0-" + std::to_string(tasks - 1),
                                   "--output=" + (dir / "task-%a.log").string(),
                                   "--cpus-per-task=" + std::to_string(std::max(1, o.cpus_per_task)),
                                   // The points' paths are relative to here, as for the local executor.
                                   "--chdir=" + fs::current_path().string()};
  if (!o.partition.empty()) argv.push_back("--partition=" + o.partition);
  argv.insert(argv.end(), o.sbatch_args.begin(), o.sbatch_args.end());
  argv.push_back((dir / "job.sh").string());
  const detail::Captured c = detail::capture(argv, dir.string());
  if (!c.started) throw SlurmError("--executor slurm: cannot run sbatch");
  if (c.status != 0)
    throw SlurmError("sbatch refused the job (exit " + std::to_string(c.status) +
                     "): " + trim(c.err.empty() ? c.out : c.err));
  const std::string id = trim(c.out.substr(0, c.out.find(';')));
  if (id.empty()) throw SlurmError("sbatch printed no job id: " + trim(c.out + c.err));
  return id;
}

// True once the job has left the queue.
bool job_gone(const std::string& id, const fs::path& dir, int& failures) {
  const detail::Captured c = detail::capture({"squeue", "-h", "-j", id, "-o", "%T"}, dir.string());
  if (c.started && c.status == 0) {
    failures = 0;
    return trim(c.out).empty();
  }
  if (c.err.find("Invalid job id") != std::string::npos) return true;  // purged after finishing
  if (++failures > kQueueRetries)
    throw SlurmError("cannot read the queue of job " + id + ": squeue: " + trim(c.err));
  return false;
}

// The signal that arrived within `seconds`, or 0.
int wait_for_signal(double seconds) {
  sigset_t set;
  sigemptyset(&set);
  for (int s : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&set, s);
  timespec ts{static_cast<time_t>(seconds), static_cast<long>((seconds - std::floor(seconds)) * 1e9)};
  const int sig = sigtimedwait(&set, nullptr, &ts);
  return sig > 0 ? sig : 0;
}

}  // namespace

nlohmann::json to_json(const JobInfo& j) {
  return {{"id", j.id}, {"dir", j.dir}, {"values", j.values}, {"args", j.args}, {"timeout_s", j.timeout_s}};
}

JobInfo job_from_json(const nlohmann::json& j) {
  JobInfo job;
  job.id = j.at("id").get<std::string>();
  job.dir = j.at("dir").get<std::string>();
  job.values = j.value("values", nlohmann::json::object());
  job.args = j.at("args").get<std::vector<std::string>>();
  job.timeout_s = j.value("timeout_s", 0.0);
  return job;
}

SlurmRun run_slurm(const std::vector<JobInfo>& jobs, const std::string& out_dir, const SlurmOptions& o,
                   const std::function<void(size_t, size_t)>& progress) {
  SlurmRun run;
  if (jobs.empty()) return run;
  for (const char* p : {"sbatch", "squeue", "scancel"}) require(p);
  const fs::path dir = fs::absolute(fs::path(out_dir) / "slurm");
  fs::create_directories(dir);
  const size_t chunk = o.chunk ? o.chunk : (jobs.size() + kDefaultMaxTasks - 1) / kDefaultMaxTasks;
  run.tasks = (jobs.size() + chunk - 1) / chunk;
  for (size_t t = 0; t < run.tasks; ++t) fs::remove(task_done(dir, t));
  for (const JobInfo& j : jobs) {
    fs::create_directories(j.dir);
    fs::remove(fs::path(j.dir) / "point.json");  // a stale record must not count as this job's
  }
  write_plan(dir, jobs, chunk);
  write_script(dir, o.self_exe, chunk);

  sigset_t set, old;
  sigemptyset(&set);
  for (int s : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&set, s);
  sigprocmask(SIG_BLOCK, &set, &old);
  try {
    run.job_id = submit(dir, run.tasks, o);
    std::vector<bool> seen(jobs.size(), false);
    size_t done = 0, failed = 0;
    int failures = 0;
    for (bool gone = false; !gone;) {
      if ((run.interrupted = wait_for_signal(o.poll_seconds))) {
        detail::capture({"scancel", run.job_id}, dir.string());
        break;
      }
      gone = job_gone(run.job_id, dir, failures);
      for (size_t i = 0; i < jobs.size(); ++i) {
        if (seen[i]) continue;
        const auto r = read_record(jobs[i].dir);
        if (!r) continue;
        seen[i] = true;
        ++done;
        failed += r->status != Status::Ok;
      }
      if (progress) progress(done, failed);
    }
    for (size_t t = 0; t < run.tasks && !run.interrupted; ++t) {
      size_t missing = 0;
      for (size_t i = t * chunk; i < std::min(jobs.size(), (t + 1) * chunk); ++i) missing += !seen[i];
      if (!missing) continue;
      const fs::path log = dir / ("task-" + std::to_string(t) + ".log");
      run.problems.push_back("Slurm task " + run.job_id + "_" + std::to_string(t) + " left " +
                             std::to_string(missing) + " point(s) without a result" +
                             (fs::exists(task_done(dir, t)) ? "" : " and did not finish") + " (" +
                             log.string() + (fs::exists(log) ? ": " + last_line(log) : ": no log") + ")");
    }
  } catch (...) {
    sigprocmask(SIG_SETMASK, &old, nullptr);
    throw;
  }
  sigprocmask(SIG_SETMASK, &old, nullptr);
  return run;
}

int run_worker(const std::string& plan_path, size_t task, const PoolOptions& pool, std::ostream& err) {
  std::vector<JobInfo> mine;
  size_t chunk = 0, total = 0;
  try {
    std::ifstream f(plan_path);
    if (!f) throw std::runtime_error("cannot read it");
    const nlohmann::json plan = nlohmann::json::parse(f);
    chunk = plan.at("chunk").get<size_t>();
    const auto& jobs = plan.at("jobs");
    total = jobs.size();
    if (chunk == 0 || task * chunk >= total)
      throw std::runtime_error("task " + std::to_string(task) + " is outside the plan's " +
                               std::to_string(total) + " points in chunks of " + std::to_string(chunk));
    for (size_t i = task * chunk; i < std::min(total, (task + 1) * chunk); ++i) {
      JobInfo j = job_from_json(jobs[i]);
      const auto r = read_record(j.dir);
      if (!r || r->id != j.id || !is_final(*r)) mine.push_back(std::move(j));
    }
  } catch (const std::exception& e) {
    err << "aicore-sim sweep-worker: error: " << plan_path << ": " << e.what() << "\n";
    return 2;
  }
  const size_t first = task * chunk, count = std::min(total, (task + 1) * chunk) - first;
  err << "sweep-worker: task " << task << ": points " << first << ".." << first + count - 1 << " of " << total
      << ": " << mine.size() << " to run, " << count - mine.size() << " already done\n";
  const int sig = run_pool(mine, pool, nullptr, nullptr);
  if (sig) {
    err << "sweep-worker: task " << task << ": stopped by signal " << sig << "\n";
    return 128 + sig;
  }
  write_atomically(task_done(fs::path(plan_path).parent_path(), task).string(),
                   "ran " + std::to_string(mine.size()) + "\n");
  err << "sweep-worker: task " << task << ": done\n";
  return 0;
}

}  // namespace aicore::sweep
