// The local pool inside a host process with children of its own (the Python API's case): it reaps
// only its workers, and a host's stop callback ends it as a signal would.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>

#include "aicore/common/temp_dir.hpp"
#include "aicore/sweep/pool.hpp"

using namespace aicore::sweep;

namespace {

std::vector<JobInfo> jobs(const aicore::TempDir& d, int n) {
  std::vector<JobInfo> out;
  for (int i = 0; i < n; ++i)
    out.push_back(JobInfo{
        "job" + std::to_string(i), d.file("job" + std::to_string(i)), nlohmann::json::object(), {}, 0});
  return out;
}

// A worker that "runs" for `ms` and exits 0.
PoolOptions sleeping_pool(int ms) {
  PoolOptions o;
  o.workers = 1;
  o.runner = [ms](const std::vector<std::string>&) {
    usleep(static_cast<useconds_t>(ms) * 1000);
    return 0;
  };
  return o;
}

}  // namespace

TEST_CASE("the pool reaps its own workers only: the host's child keeps its exit status", "[sweep][pool]") {
  aicore::TempDir d("aicore-pool");
  const pid_t host_child = fork();
  if (host_child == 0) {
    usleep(20 * 1000);  // ends while the pool's first worker runs
    _exit(7);
  }
  REQUIRE(host_child > 0);
  size_t done = 0;
  const int interrupted = run_pool(
      jobs(d, 3), sleeping_pool(60), [&](const Record&) { ++done; }, nullptr);
  CHECK(interrupted == 0);
  CHECK(done == 3);
  int st = 0;
  REQUIRE(waitpid(host_child, &st, WNOHANG) == host_child);  // still the host's to reap
  CHECK(WIFEXITED(st));
  CHECK(WEXITSTATUS(st) == 7);
}

TEST_CASE("a stop callback ends the pool as its signal would: running points are killed, not recorded",
          "[sweep][pool]") {
  aicore::TempDir d("aicore-pool");
  PoolOptions o = sleeping_pool(10000);
  o.wake_ms = 5;
  int calls = 0;
  o.stop = [&] { return ++calls >= 3 ? SIGINT : 0; };
  size_t done = 0;
  const auto t0 = std::chrono::steady_clock::now();
  const int interrupted = run_pool(
      jobs(d, 4), o, [&](const Record&) { ++done; }, nullptr);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CHECK(interrupted == SIGINT);
  CHECK(done == 0);
  CHECK(calls == 3);  // asked at every wake until it said stop, then no more
  CHECK(s < 5);       // the 10 s worker was killed
}
