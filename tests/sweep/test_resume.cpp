// Resuming: a re-run skips points with a result (keyed by the trace, its data files, the resolved
// config and the options), --force runs them again, and a sweep killed or interrupted mid-study
// keeps every finished point and continues where it stopped.
#include <signal.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <thread>

#include "sweep_harness.hpp"

using Catch::Contains;
using sweep_test::read_csv;
using sweep_test::record_count;
using sweep_test::StudyDir;

TEST_CASE("a re-run skips finished points; --force runs them again", "[sweep][resume]") {
  StudyDir d;
  d.write("s.yaml", "traces: [seed_sparse_16x64x16.trace]\ngrid:\n  cube.head_cycles: [0, 4, 8, 12]\n");
  REQUIRE(d.sweep("s.yaml").status == 0);
  const auto first = read_csv(d.file("out/results.csv"));
  auto r = d.sweep("s.yaml");
  CHECK(r.status == 0);
  CHECK_THAT(r.out, Contains("4 points: 0 run, 4 skipped (done before); 4 ok"));
  CHECK(read_csv(d.file("out/results.csv")).size() == 4);
  for (size_t i = 0; i < 4; ++i)
    CHECK(read_csv(d.file("out/results.csv"))[i].at("cycles") == first[i].at("cycles"));
  r = d.sweep("s.yaml", "--force");
  CHECK_THAT(r.out, Contains("4 points: 4 run, 0 skipped"));
}

TEST_CASE("what a point depends on decides whether it runs again", "[sweep][resume]") {
  StudyDir d;
  d.write("s.yaml", "traces: [seed_sparse_16x64x16.trace]\ngrid:\n  cube.head_cycles: [0, 4]\n");
  REQUIRE(d.sweep("s.yaml").status == 0);
  // One more value: only the new point runs.
  d.write("s.yaml", "traces: [seed_sparse_16x64x16.trace]\ngrid:\n  cube.head_cycles: [0, 4, 8]\n");
  CHECK_THAT(d.sweep("s.yaml").out, Contains("3 points: 1 run, 2 skipped"));
  // A comment in the trace changes nothing a run reads.
  d.write("seed_sparse_16x64x16.trace",
          "# a note\n" + sweep_test::slurp(d.file("seed_sparse_16x64x16.trace")));
  CHECK_THAT(d.sweep("s.yaml").out, Contains("0 run, 3 skipped"));
  // A data file does.
  std::string a = sweep_test::slurp(d.file("a.bin"));
  a[0] ^= 1;
  d.write("a.bin", a);
  CHECK_THAT(d.sweep("s.yaml").out, Contains("3 run, 0 skipped"));
  // So does an option (timing only), and a config value set to something else.
  d.write("s.yaml",
          "traces: [seed_sparse_16x64x16.trace]\ntiming_only: true\ngrid:\n  cube.head_cycles: [0, 4, 8]\n");
  CHECK_THAT(d.sweep("s.yaml").out, Contains("3 run, 0 skipped"));
  d.write("s.yaml",
          "traces: [seed_sparse_16x64x16.trace]\ntiming_only: true\nset: {issue.sync_cycles: 2}\n"
          "grid:\n  cube.head_cycles: [0, 4, 8]\n");
  CHECK_THAT(d.sweep("s.yaml").out, Contains("3 run, 0 skipped"));
  // Setting a key to the value it already has is the same configuration.
  d.write("s.yaml",
          "traces: [seed_sparse_16x64x16.trace]\ntiming_only: true\nset: {issue.sync_cycles: 2, clock_mhz: "
          "1850}\n"
          "grid:\n  cube.head_cycles: [0, 4, 8]\n");
  CHECK_THAT(d.sweep("s.yaml").out, Contains("0 run, 3 skipped"));
}

namespace {

// Starts a 60-point study on one worker, stops it once `at_least` points have records, with
// `sig`; returns the sweep's exit status and the record count left behind.
std::pair<int, size_t> stop_mid_study(const StudyDir& d, int sig, size_t at_least) {
  // Timing-only runs of the tiled 512 x 1024 x 512 trace: about 10 ms each (a second under ASan),
  // long enough to stop the study between points, short enough to resume it quickly.
  d.write("s.yaml",
          "traces: [tiled/tiled_sparse_512x1024x512.trace]\ntiming_only: true\ngrid:\n  cube.head_cycles: "
          "{from: 0, to: 59, step: 1}\n");
  const int pid = sweep_test::spawn({"sweep", d.file("s.yaml"), "--out", d.file("out"), "-j", "1"},
                                    d.file("o1"), d.file("e1"));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (record_count(d.file("out")) < at_least && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  kill(pid, sig);
  const int status = sweep_test::wait_exit(pid);
  return {status, record_count(d.file("out"))};
}

}  // namespace

TEST_CASE("a sweep killed mid-study keeps its finished points and resumes", "[sweep][resume]") {
  StudyDir d;
  const auto [status, done] = stop_mid_study(d, SIGKILL, 3);
  CHECK(status == 128 + SIGKILL);
  REQUIRE(done >= 3);
  REQUIRE(done < 60);  // it really stopped mid-study
  const auto r = d.sweep("s.yaml", "-q");
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK_THAT(r.out, Contains("60 points: " + std::to_string(60 - done) + " run, " + std::to_string(done) +
                             " skipped (done before); 60 ok"));
  const auto rows = read_csv(d.file("out/results.csv"));
  CHECK(rows.size() == 60);
  CHECK(record_count(d.file("out")) == 60);
}

TEST_CASE("Ctrl-C stops the sweep, writes the results so far and says how to continue", "[sweep][resume]") {
  StudyDir d;
  const auto [status, done] = stop_mid_study(d, SIGINT, 3);
  CHECK(status == 130);
  REQUIRE(done < 60);
  const std::string err = sweep_test::slurp(d.file("e1"));
  CHECK_THAT(err, Contains("interrupted (signal 2): " + std::to_string(done) +
                           " of 60 points have results; run the "
                           "same command again to continue"));
  CHECK_THAT(sweep_test::slurp(d.file("o1")), Contains(std::to_string(60 - done) + " without a result"));
  CHECK(read_csv(d.file("out/results.csv")).size() == done);
  CHECK(sweep_test::read_json(d.file("out/results.json"))["missing"].size() == 60 - done);
  const auto r = d.sweep("s.yaml", "-q");
  CHECK(r.status == 0);
  CHECK_THAT(r.out, Contains(std::to_string(done) + " skipped"));
  CHECK(read_csv(d.file("out/results.csv")).size() == 60);
}

namespace {

// The pid of a child process of `parent`, waiting up to 30 s for one to appear; 0 if none.
int child_of(int parent) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < deadline) {
    for (const auto& e : std::filesystem::directory_iterator("/proc")) {
      const std::string stat = sweep_test::slurp((e.path() / "stat").string());
      const size_t close = stat.rfind(')');  // the command name may hold spaces
      if (close == std::string::npos) continue;
      int ppid = 0;
      char state = 0;
      if (std::sscanf(stat.c_str() + close + 1, " %c %d", &state, &ppid) == 2 && ppid == parent &&
          state != 'Z')
        return std::stoi(e.path().filename().string());
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return 0;
}

}  // namespace

TEST_CASE("a point whose process dies by a signal is recorded as crashed and retried on a re-run",
          "[sweep][resume]") {
  StudyDir d;
  // 150k flag round trips M -> FIX -> M: long enough to be caught running (and race-free: the
  // way back orders each SetFlag after the WaitFlag of the one before).
  std::string trace;
  for (int i = 0; i < 150000; ++i)
    trace +=
        "SetFlag event=M_FIX id=0\nWaitFlag event=M_FIX id=0\nSetFlag event=FIX_M id=0\nWaitFlag event=FIX_M "
        "id=0\n";
  d.write("long.trace", trace);
  d.write("s.yaml", "traces: [long.trace]\ntiming_only: true\n");
  const int pid = sweep_test::spawn({"sweep", d.file("s.yaml"), "--out", d.file("out"), "-q"}, d.file("o1"),
                                    d.file("e1"));
  const int child = child_of(pid);
  REQUIRE(child > 0);
  kill(child, SIGABRT);  // not SIGSEGV: ASan builds catch that one and exit normally
  CHECK(sweep_test::wait_exit(pid) == 3);
  const auto rows = read_csv(d.file("out/results.csv"));
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].at("status") == "crashed");
  CHECK(rows[0].at("message") == "killed by signal 6 (Aborted)");
  const auto r = d.sweep("s.yaml", "-q");
  CHECK(r.status == 0);
  CHECK_THAT(r.out, Contains("1 points: 1 run, 0 skipped (done before); 1 ok"));
}
