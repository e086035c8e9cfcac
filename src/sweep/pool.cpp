#include "aicore/sweep/pool.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <vector>

namespace aicore::sweep {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

constexpr int kInternalError = 70;  // an exception escaped run: recorded as crashed

struct Running {
  size_t job;
  Clock::time_point start, deadline;
  int time_pipe = -1;  // read end: the child writes the seconds it spent inside run (fork launcher)
  bool timed_out = false;
};

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// The child side of a fork: own process group, dies with the sweep, output to run.log. The
// point's folder is prepared here rather than in the sweep, so that this file work (ext4 unlinks
// are not cheap) runs in parallel instead of in the loop that starts every point.
[[noreturn]] void child(const JobInfo& job, const PoolOptions& o, const sigset_t& old_mask, pid_t parent,
                        int time_pipe) {
  setpgid(0, 0);
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(kInternalError);  // the sweep died before prctl took effect
  for (int s : {SIGINT, SIGTERM, SIGHUP, SIGCHLD}) signal(s, SIG_DFL);
  sigprocmask(SIG_SETMASK, &old_mask, nullptr);
  std::error_code ec;
  fs::create_directories(job.dir, ec);
  fs::remove(fs::path(job.dir) / "stats.json", ec);  // a stale one must not pass for this run's
  const std::string log = (fs::path(job.dir) / "run.log").string();
  const int out = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  const int in = open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (out < 0 || in < 0) _exit(kInternalError);
  dup2(in, 0);
  dup2(out, 1);
  dup2(out, 2);
  if (o.launch == Launch::Exec) {
    std::vector<std::string> args = {o.self_exe, "run"};
    args.insert(args.end(), job.args.begin(), job.args.end());
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(o.self_exe.c_str(), argv.data());
    std::fprintf(stderr, "aicore-sim sweep: cannot run %s: %s\n", o.self_exe.c_str(), std::strerror(errno));
    _exit(kInternalError);
  }
  const auto t0 = Clock::now();
  int status = kInternalError;
  try {
    status = o.runner(job.args);
  } catch (const std::exception& e) {
    std::cerr << "aicore-sim sweep: internal error in the point's run: " << e.what() << "\n";
  } catch (...) {
    std::cerr << "aicore-sim sweep: internal error in the point's run\n";
  }
  const double took = seconds_since(t0);
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  if (write(time_pipe, &took, sizeof took) != sizeof took) {
    // the sweep then records the time as unknown
  }
  _exit(status);  // no static destructors: the kernel's teardown is wasted work here
}

// What the child wrote into its time pipe (it has exited: the bytes are there or never will be).
double read_sim_seconds(int fd) {
  double s = -1;
  if (fd < 0) return s;
  if (read(fd, &s, sizeof s) != sizeof s) s = -1;
  close(fd);
  return s;
}

class Pool {
 public:
  Pool(const std::vector<JobInfo>& jobs, const PoolOptions& o,
       const std::function<void(const Record&)>& on_done)
      : jobs_(jobs), o_(o), on_done_(on_done) {}

  int run(const std::function<void()>& on_tick) {
    sigset_t set, old;
    sigemptyset(&set);
    for (int s : {SIGCHLD, SIGINT, SIGTERM, SIGHUP}) sigaddset(&set, s);
    struct sigaction dfl {
    }, old_chld{};
    dfl.sa_handler = SIG_DFL;
    sigaction(SIGCHLD, &dfl, &old_chld);  // an inherited SIG_IGN would reap our children for us
    sigprocmask(SIG_BLOCK, &set, &old);
    int interrupted = 0;
    size_t next = 0;
    while ((next < jobs_.size() && !interrupted) || !running_.empty()) {
      reap();  // first: a slot freed since the last wait is filled now, not after the next signal
      while (!interrupted && next < jobs_.size() &&
             running_.size() < static_cast<size_t>(std::max(1, o_.workers)))
        start(next++, old);
      if (running_.empty()) continue;
      int sig = wait_signal(set);
      if (sig != SIGINT && sig != SIGTERM && sig != SIGHUP && o_.stop) sig = o_.stop();
      if (!interrupted && (sig == SIGINT || sig == SIGTERM || sig == SIGHUP)) {
        interrupted = sig;
        kill_all();
      }
      enforce_deadlines();
      if (on_tick) on_tick();
    }
    timespec zero{0, 0};
    while (sigtimedwait(&set, nullptr, &zero) > 0) {
    }
    sigprocmask(SIG_SETMASK, &old, nullptr);
    sigaction(SIGCHLD, &old_chld, nullptr);
    return interrupted;
  }

 private:
  void start(size_t i, const sigset_t& old_mask) {
    const JobInfo& job = jobs_[i];
    // An older point.json stays until this run's replaces it: it has the same key, so if the sweep
    // stops before then, it still stands for the point.
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    int fds[2] = {-1, -1};
    if (pipe2(fds, O_CLOEXEC) != 0) fds[0] = fds[1] = -1;
    const pid_t parent = getpid();
    const auto t0 = Clock::now();
    const pid_t pid = fork();
    if (pid == 0) child(job, o_, old_mask, parent, fds[1]);
    if (fds[1] >= 0) close(fds[1]);  // now the read end sees EOF once the child is gone
    if (pid < 0) {
      const int e = errno;
      if (fds[0] >= 0) close(fds[0]);
      std::error_code ec;
      fs::create_directories(job.dir, ec);
      finish(i, Outcome{}, std::string("cannot start the point: fork failed: ") + std::strerror(e));
      return;
    }
    setpgid(pid, pid);  // also here: no window in which a kill(-pid) misses it
    const auto deadline =
        job.timeout_s > 0
            ? t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(job.timeout_s))
            : Clock::time_point::max();
    running_[pid] = Running{i, t0, deadline, fds[0]};
  }

  int wait_signal(const sigset_t& set) {
    auto wait = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::milliseconds(o_.wake_ms));
    const auto now = Clock::now();
    for (const auto& [pid, r] : running_)
      if (r.deadline != Clock::time_point::max())
        wait = std::min(wait, std::chrono::duration_cast<std::chrono::nanoseconds>(r.deadline - now));
    if (wait.count() < 0) wait = std::chrono::nanoseconds(0);
    timespec ts{static_cast<time_t>(wait.count() / 1000000000), static_cast<long>(wait.count() % 1000000000)};
    return sigtimedwait(&set, nullptr, &ts);
  }

  // Only the pool's own children, by pid: a host process (the Python API's, a notebook's) may have
  // children of its own whose exit statuses are not the pool's to take.
  void reap() {
    std::vector<pid_t> pids;
    for (const auto& [pid, r] : running_) pids.push_back(pid);
    for (const pid_t pid : pids) {
      int st = 0;
      if (waitpid(pid, &st, WNOHANG) != pid) continue;
      const auto it = running_.find(pid);
      const Running r = it->second;
      running_.erase(it);
      const double sim_seconds = read_sim_seconds(r.time_pipe);
      if (killed_) continue;  // interrupted: an unfinished point is not a result
      Outcome o;
      o.seconds = seconds_since(r.start);
      o.timed_out = r.timed_out;
      if (WIFEXITED(st)) o.exit_code = WEXITSTATUS(st);
      if (WIFSIGNALED(st) && !r.timed_out) o.signal = WTERMSIG(st);
      o.sim_seconds = sim_seconds;
      finish(r.job, o, "");
    }
  }

  void finish(size_t i, const Outcome& o, const std::string& message) {
    // The child makes the point's folder; one killed (timeout) or failing before that has none.
    std::error_code ec;
    fs::create_directories(jobs_[i].dir, ec);
    Record rec = make_record(jobs_[i], o);
    if (!message.empty()) rec.message = message;
    write_record(jobs_[i].dir, rec);
    if (on_done_) on_done_(rec);
  }

  void enforce_deadlines() {
    const auto now = Clock::now();
    for (auto& [pid, r] : running_)
      if (!r.timed_out && now >= r.deadline) {
        r.timed_out = true;
        kill(-pid, SIGKILL);
      }
  }

  void kill_all() {
    killed_ = true;
    for (const auto& [pid, r] : running_) kill(-pid, SIGKILL);
    for (const auto& [pid, r] : running_) {
      int st = 0;
      waitpid(pid, &st, 0);
      if (r.time_pipe >= 0) close(r.time_pipe);
    }
    running_.clear();
  }

  const std::vector<JobInfo>& jobs_;
  const PoolOptions& o_;
  const std::function<void(const Record&)>& on_done_;
  std::map<pid_t, Running> running_;
  bool killed_ = false;
};

}  // namespace

int run_pool(const std::vector<JobInfo>& jobs, const PoolOptions& options,
             const std::function<void(const Record&)>& on_done, const std::function<void()>& on_tick) {
  return Pool(jobs, options, on_done).run(on_tick);
}

std::string self_exe() {
  std::error_code ec;
  const fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : p.string();
}

}  // namespace aicore::sweep
