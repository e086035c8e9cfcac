// sweep --plot and tools/plot_sweep.py: a PNG when matplotlib is there, a clear error when not.
#include <catch2/catch.hpp>
#include <filesystem>

#include "sweep_harness.hpp"

using Catch::Contains;
using sweep_test::StudyDir;

namespace {

const std::string kScript = std::string(AICORE_TOOLS_DIR) + "/plot_sweep.py";

bool have_matplotlib() {
  return std::system("/usr/bin/python3 -c 'import matplotlib' >/dev/null 2>&1") == 0;
}

bool is_png(const std::string& path) {
  return sweep_test::slurp(path).rfind("\x89PNG\r\n\x1a\n", 0) == 0;
}

// `sh -c` result of a shell command line.
harness::Result shell(const std::string& cmd, const StudyDir& d) {
  const int raw = std::system((cmd + " >" + d.file("sh.out") + " 2>" + d.file("sh.err")).c_str());
  harness::Result r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.out = sweep_test::slurp(d.file("sh.out"));
  r.err = sweep_test::slurp(d.file("sh.err"));
  return r;
}

}  // namespace

TEST_CASE("sweep --plot draws DIR/sweep.png", "[sweep][plot]") {
  if (!have_matplotlib()) {
    WARN("python3-matplotlib is not installed: only the error path is checked");
    return;
  }
  StudyDir d;
  d.write("s.yaml",
          "traces: [seed_sparse_16x64x16.trace]\ngrid:\n  mte1.sparse.bytes_per_cycle: [32, 128]\n"
          "  cube.head_cycles: [0, 8, 16]\n");
  const auto r = d.sweep("s.yaml", "--plot -q");
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK_THAT(r.out, Contains("wrote " + d.file("out/sweep.png")));
  CHECK(is_png(d.file("out/sweep.png")));
  // One key, two traces: lines per trace.
  d.write("t.yaml",
          "traces: [seed_sparse_16x64x16.trace, tiled/tiled_sparse_512x1024x512.trace]\ntiming_only: true\n"
          "grid:\n  gm.read.bytes_per_cycle: [64, 128, 256]\n");
  CHECK(d.sweep("t.yaml", "--plot -q", "out2").status == 0);
  CHECK(is_png(d.file("out2/sweep.png")));
}

TEST_CASE("plot_sweep.py without matplotlib or on the wrong CSV exits 2 with a clear message",
          "[sweep][plot]") {
  StudyDir d;
  d.write("s.yaml", "traces: [seed_sparse_16x64x16.trace]\ngrid:\n  cube.head_cycles: [0, 8]\n");
  REQUIRE(d.sweep("s.yaml", "-q").status == 0);
  // -S: no site packages, so no matplotlib even where it is installed.
  auto r = shell("/usr/bin/python3 -S " + kScript + " " + d.file("out/results.csv"), d);
  CHECK(r.status == 2);
  CHECK_THAT(r.err,
             Contains("plot_sweep.py: error: matplotlib is not installed") && Contains("python3-matplotlib"));
  d.write("x.csv", "a,b\n1,2\n");
  r = shell("/usr/bin/python3 -S " + kScript + " " + d.file("x.csv"), d);
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Contains("not a sweep results.csv (missing column"));
  // The sweep says when its plot failed, and keeps the results.
  const auto s = sweep_test::run_env("AICORE_PYTHON=/nonexistent/python3",
                                     "sweep " + d.file("s.yaml") + " --out " + d.file("out") + " --plot -q");
  CHECK(s.status == 2);
  CHECK_THAT(s.err, Contains("--plot: cannot run /nonexistent/python3; the results are written"));
  CHECK(std::filesystem::exists(d.file("out/results.csv")));
}
