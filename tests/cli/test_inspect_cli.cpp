// The inspection options end to end: --window (and its errors), outputs that cannot be
// created, outputs of a run that faults, the end-of-run summary against stats.json, and
// tools/plot_gantt.py.
#include <sys/wait.h>
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "inspect.hpp"
#include "vcd.hpp"

using Catch::Matchers::Contains;
using harness::TempDir;

namespace {

const std::string kPython = "/usr/bin/python3";  // Debian's, where python3-matplotlib is
std::string plot_tool() {
  return std::string(AICORE_TOOLS_DIR) + "/plot_gantt.py";
}

harness::Result sh(const std::string& cmd) {
  TempDir io;
  harness::Result r;
  const int raw = std::system((cmd + " >" + io.file("o") + " 2>" + io.file("e")).c_str());
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  std::ifstream o(io.file("o")), e(io.file("e"));
  r.out.assign(std::istreambuf_iterator<char>(o), {});
  r.err.assign(std::istreambuf_iterator<char>(e), {});
  return r;
}

}  // namespace

TEST_CASE("window: bad --window values exit 2 with a message naming what is wrong",
          "[cli][inspect][errors]") {
  TempDir d;
  const std::string t = "DataCopy dst=L1:0 src=a blockLen=1\n";
  const std::string decl = ".gm a size=32\n";
  const struct {
    const char* args;
    const char* message;
  } cases[] = {
      {"--timeline --window 100", "--window 100: expected START:END in cycles"},
      {"--vcd --window 5:3", "--window 5:3: END must be greater than START"},
      {"--vcd --window 5:5", "--window 5:5: END must be greater than START"},
      {"--timeline --window x:5", "--window x:5: START 'x' is not a cycle count"},
      {"--timeline --window 1:2y", "--window 1:2y: END '2y' is not a cycle count"},
      {"--timeline --window=-1:5", "START '-1' is not a cycle count"},
      {"--timeline --window :5", "--window :5: missing START"},
      {"--timeline --window 99999999999999999999:", "START is too large"},
      {"--window 0:10", "--window limits --timeline and --vcd; give at least one of them"},
  };
  for (const auto& c : cases) {
    INFO(c.args);
    const auto r = harness::run_trace(d, decl + t, c.args);
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Contains("aicore-sim run: error: ") && Contains(c.message));
  }
}

TEST_CASE("an output that cannot be created is a clear exit-2 error", "[cli][inspect][errors]") {
  for (const char* file : {"timeline.json", "waves.vcd"}) {
    TempDir d;
    std::filesystem::create_directories(d.file(std::string("out/") + file));  // a directory in the way
    const auto r =
        harness::run_trace(d, ".gm a size=32\nDataCopy dst=L1:0 src=a blockLen=1\n", "--timeline --vcd");
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Contains(std::string("cannot create ") + file));
  }
}

TEST_CASE("an output that cannot be written (disk full) is a clear exit-2 error", "[cli][inspect][errors]") {
  // Each output in turn is a symlink to /dev/full: opening works, every write fails (ENOSPC).
  for (const char* file : {"instr.csv", "timeline.json", "waves.vcd", "stats.json"}) {
    INFO(file);
    TempDir d;
    std::filesystem::create_directories(d.file("out"));
    std::filesystem::create_symlink("/dev/full", d.file(std::string("out/") + file));
    const auto r = harness::run_trace(d, ".gm a size=32\nDataCopy dst=L1:0 src=a blockLen=1\n",
                                      "--instr-log --timeline --vcd");
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Contains(std::string("cannot write ") + file + " (disk full?)"));
  }
}

TEST_CASE("a fault is still reported when stats.json cannot be written", "[cli][inspect][errors]") {
  TempDir d;
  std::filesystem::create_directories(d.file("out"));
  std::filesystem::create_symlink("/dev/full", d.file("out/stats.json"));
  const auto r = harness::run_trace(d, "LoadData dst=L0A:0xFE00 src=L1:0 repeatTimes=2\n");  // past L0A
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Contains("aicore-sim: fault: ") && Contains("cannot write stats.json (disk full?)"));
}

TEST_CASE("window: keeps exactly what overlaps it, with the same values as the whole run",
          "[cli][inspect][window]") {
  TempDir whole, part;
  inspect::run_ok(whole, inspect::tiled_trace(), "--instr-log --vcd");
  inspect::run_ok(part, inspect::tiled_trace(), "--timeline --vcd --window 5000:12000");
  const auto rows = inspect::rows(whole);
  size_t want = 0;
  for (const auto& r : rows) want += r.start < 12000 && (r.start >= 5000 || r.busy_end > 5000);
  std::ifstream f(part.file("out/timeline.json"));
  const auto events = nlohmann::json::parse(f)["traceEvents"];
  size_t slices = 0;
  std::set<uint64_t> flow_starts;
  std::set<uint64_t> flow_ends;
  for (const auto& e : events) {
    if (e.value("flow_out", false)) flow_starts.insert(e["bind_id"].get<uint64_t>());
    if (e.value("flow_in", false)) flow_ends.insert(e["bind_id"].get<uint64_t>());
    if (e["ph"] == "X") {
      ++slices;
      const uint64_t s = e["args"]["start_cycle"], b = e["args"]["busy_end_cycle"];
      CHECK((s < 12000 && (s >= 5000 || b > 5000)));
    }
    if (e["ph"] == "C") CHECK(e["ts"].get<double>() * 1000 >= 5000 - 1e-6);  // one ns per cycle
  }
  CHECK(flow_starts == flow_ends);  // both ends of every arrow in the window
  CHECK(!flow_starts.empty());
  CHECK(slices == want);
  const vcd::File a = vcd::parse(whole.file("out/waves.vcd")), b = vcd::parse(part.file("out/waves.vcd"));
  REQUIRE(!b.times.empty());
  CHECK(b.times.front() == 5000);
  CHECK(b.times.back() == 12000);
  for (const auto& v : b.vars)
    for (uint64_t t : b.times) {
      INFO(v.path << " at " << t);
      CHECK(b.at(v.path, t) == a.at(v.path, t));
    }
}

TEST_CASE("a window past the end of the run gives valid, empty outputs", "[cli][inspect][window]") {
  TempDir d;
  inspect::run_ok(d, inspect::tiled_trace(), "--timeline --vcd --window 900000:");
  std::ifstream f(d.file("out/timeline.json"));
  const auto events = nlohmann::json::parse(f)["traceEvents"];  // a copy: the parsed document is a temporary
  for (const auto& e : events) CHECK(e["ph"] == "M");
  CHECK(vcd::parse(d.file("out/waves.vcd")).times.empty());
}

TEST_CASE("a run that faults still closes timeline.json and waves.vcd", "[cli][inspect][errors]") {
  TempDir d;
  const auto r = harness::run_trace(d,
                                    "LoadData dst=L0A:0 src=L1:0 repeatTimes=3\n"
                                    "LoadData dst=L0A:0xFE00 src=L1:0 repeatTimes=2\n",  // past L0A: a fault
                                    "--timeline --vcd");
  CHECK(r.status == 3);
  std::ifstream f(d.file("out/timeline.json"));
  const auto events = nlohmann::json::parse(f)["traceEvents"];
  CHECK(std::count_if(events.begin(), events.end(), [](const auto& e) { return e["ph"] == "X"; }) == 1);
  CHECK(vcd::parse(d.file("out/waves.vcd")).times.size() >= 2);
}

TEST_CASE("summary: ratios are busy/total, the bound pipe is named, bandwidth and stalls are printed",
          "[cli][inspect][summary]") {
  TempDir d;
  const auto r = inspect::run_ok(d, inspect::tiled_trace(), "");
  const auto s = harness::stats(d);
  const double cycles = s["cycles"];
  const std::pair<const char*, const char*> ratios[] = {{"S", "aic_scalar_ratio"},
                                                        {"MTE2", "aic_mte2_ratio"},
                                                        {"MTE1", "aic_mte1_ratio"},
                                                        {"M", "aic_mac_ratio"},
                                                        {"FIX", "aic_fixpipe_ratio"}};
  for (const auto& [pipe, name] : ratios) {
    // The summary's ratios are msprof's: the pipe's time as msprof counts it over the run; the
    // text gives the own busy share and that one.
    const double busy = s["pipes"][pipe]["busy_cycles"], msprof = s["pipes"][pipe]["aic_time_cycles"];
    CHECK(s["summary"][name].get<double>() == Approx(msprof / cycles));
    char pct[32], pct2[64];
    std::snprintf(pct, sizeof pct, "(%5.1f%%)", 100.0 * busy / cycles);
    std::snprintf(pct2, sizeof pct2, "(%5.1f%% %s)", 100.0 * msprof / cycles, name);
    CHECK_THAT(r.out, Contains(pct) && Contains(pct2));
  }
  const std::string bound = s["summary"]["bound_pipe"];
  CHECK(bound == "MTE2");  // the tiled sparse GEMM is limited by GM->L1 traffic
  CHECK_THAT(r.out, Contains("bound pipe: " + bound));
  char gm[96];
  std::snprintf(gm, sizeof gm, "GM->L1           %8.1f of %6.0f",
                s["paths"]["GM->L1"]["bytes_per_cycle"].get<double>(),
                s["paths"]["GM->L1"]["peak_bytes_per_cycle"].get<double>());
  CHECK_THAT(r.out, Contains(gm));
  uint64_t flag = 0;
  for (const auto& [pipe, p] : s["pipes"].items()) flag += p["wait_cycles"]["flag"].get<uint64_t>();
  CHECK_THAT(r.out, Contains("stall cycles: flag " + std::to_string(flag) + ", barrier"));
}

TEST_CASE("plot_gantt.py draws a PNG from instr.csv, bad input exits 2", "[cli][inspect][plot]") {
  TempDir d;
  inspect::run_ok(d, inspect::tiled_trace(), "--instr-log");
  const std::string csv = d.file("out/instr.csv"), png = d.file("g.png");
  const auto ok = sh(kPython + " " + plot_tool() + " " + csv + " -o " + png + " --window 0:20000");
  INFO(ok.err);
  REQUIRE(ok.status == 0);
  std::ifstream f(png, std::ios::binary);
  std::string magic(8, '\0');
  f.read(&magic[0], 8);
  CHECK(magic == "\x89PNG\r\n\x1a\n");
  const struct {
    std::string args, message;
  } bad[] = {
      {d.file("none.csv"), "cannot read"},
      {d.write("x.csv", "a,b\n1,2\n"), "not an instr.csv (missing column pipe"},
      {d.write("y.csv", "pipe,start_cycle,busy_end_cycle,end_cycle\nM,1,z,3\n"), "malformed row"},
      {d.write("z.csv", "pipe,start_cycle,busy_end_cycle,end_cycle\n"), "no instruction occupied a pipe"},
      {csv + " --window 9:3", "END must be greater than START"},
      {csv + " --window nine", "expected START:END"},
      {csv + " -o " + d.file("no/such/dir/g.png"), "cannot write"},
  };
  for (const auto& b : bad) {
    INFO(b.args);
    const auto r = sh(kPython + " " + plot_tool() + " -o " + png + " " + b.args);
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Contains("plot_gantt.py: error: ") && Contains(b.message));
  }
}
