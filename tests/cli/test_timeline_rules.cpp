// The rules that make timeline.json read the same in Perfetto and in the legacy catapult viewer
// (chrome://tracing), checked on the timeline of every shipped trace in traces/ (and on a window
// and a trace that uses the scalar and MTE3 lanes):
//   - "displayTimeUnit": "ns"; one nanosecond per cycle: ts/dur are exact (cycle 0 is ts 0, a
//     one-cycle instruction has dur 0.001, never 0);
//   - on every lane, after a viewer's rounding to whole nanoseconds, no slice lies inside another
//     (nesting depth 1);
//   - flows only as bind_id + flow_out (SetFlag slice) / flow_in (WaitFlag slice), ids 1..N, each
//     id once at each end, the arrow going forward in time;
//   - one sample per counter and timestamp, and no counter that never changes;
//   - metadata: one process name, one thread name and sort index per lane that has slices, and
//     none for a lane without (no empty lanes).
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "inspect.hpp"

using harness::TempDir;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

int64_t round_ns(double us) {
  return std::llround(us * 1000.0);
}

// ts or dur as the exact cycle count it must encode.
void check_exact(const json& v, uint64_t cycles) {
  REQUIRE(v.is_number());
  const double us = v.get<double>();
  CHECK(round_ns(us) == static_cast<int64_t>(cycles));
  CHECK(std::abs(us * 1000.0 - static_cast<double>(cycles)) < 1e-6);
}

void check_slices(const json& events, std::set<int>& lanes_with_slices) {
  std::map<int, std::vector<std::pair<int64_t, int64_t>>> perfetto, catapult;  // tid -> [start, end) ns
  bool saw_cycle0 = false;
  for (const auto& e : events) {
    if (e["ph"] != "X") continue;
    const int tid = e["tid"];
    lanes_with_slices.insert(tid);
    const auto& a = e["args"];
    const uint64_t start = a["start_cycle"], cycles = a["cycles"];
    INFO(e.dump());
    check_exact(e["ts"], start);
    check_exact(e["dur"], cycles);
    CHECK(cycles > 0);  // default timing: every instruction occupies its pipe
    CHECK(e["dur"].get<double>() > 0);
    if (start == 0) {
      CHECK(e["ts"].get<double>() == 0.0);
      saw_cycle0 = true;
    }
    const double ts = e["ts"], dur = e["dur"];
    perfetto[tid].emplace_back(round_ns(ts), round_ns(ts) + round_ns(dur));
    catapult[tid].emplace_back(round_ns(ts), round_ns(ts + dur));
  }
  CHECK(saw_cycle0);
  for (auto* viewer : {&perfetto, &catapult}) {
    for (auto& [tid, slices] : *viewer) {
      std::sort(slices.begin(), slices.end());
      size_t depth = 0, max_depth = 0;
      std::vector<int64_t> open;  // ends of the slices enclosing the current one
      for (const auto& [s, e] : slices) {
        while (!open.empty() && open.back() <= s) open.pop_back();
        open.push_back(e);
        depth = open.size();
        max_depth = std::max(max_depth, depth);
      }
      INFO("lane tid " << tid);
      CHECK(max_depth == 1);
    }
  }
}

void check_flows(const json& events) {
  std::map<uint64_t, const json*> outs, ins;
  for (const auto& e : events) {
    CHECK(e["ph"] != "s");
    CHECK(e["ph"] != "t");
    CHECK(e["ph"] != "f");
    if (!e.contains("bind_id")) continue;
    INFO(e.dump());
    REQUIRE(e["ph"] == "X");
    const uint64_t id = e["bind_id"];
    const bool out = e.value("flow_out", false), in = e.value("flow_in", false);
    CHECK(out != in);
    auto& side = out ? outs : ins;
    CHECK(side.count(id) == 0);
    side[id] = &e;
    CHECK(e["name"] == (out ? "SetFlag" : "WaitFlag"));
  }
  CHECK(outs.size() == ins.size());
  uint64_t next = 1;
  for (const auto& [id, out] : outs) {
    CHECK(id == next++);
    REQUIRE(ins.count(id));
    CHECK((*out)["args"]["operands"] == (*ins[id])["args"]["operands"]);
    CHECK((*out)["ts"].get<double>() <= (*ins[id])["ts"].get<double>());
  }
}

void check_counters(const json& events) {
  std::map<std::string, std::vector<std::pair<double, double>>> samples;  // name -> (ts, value)
  for (const auto& e : events) {
    if (e["ph"] != "C") continue;
    REQUIRE(e["args"].size() == 1);
    samples[e["name"]].emplace_back(e["ts"].get<double>(), e["args"].begin()->get<double>());
  }
  for (const auto& [name, s] : samples) {
    INFO("counter " << name);
    std::set<int64_t> times;
    std::set<double> values;
    for (const auto& [ts, v] : s) {
      CHECK(times.insert(round_ns(ts)).second);  // one sample per timestamp
      values.insert(v);
    }
    CHECK(values.size() > 1);  // not constant
  }
}

void check_metadata(const json& events, const std::set<int>& lanes_with_slices) {
  int processes = 0;
  std::map<int, int> names, sort_indexes;
  for (const auto& e : events) {
    if (e["ph"] != "M") continue;
    if (e["name"] == "process_name") ++processes;
    if (e["name"] == "thread_name") ++names[e["tid"].get<int>()];
    if (e["name"] == "thread_sort_index") ++sort_indexes[e["tid"].get<int>()];
  }
  CHECK(processes == 1);
  std::set<int> named;
  for (const auto& [tid, n] : names) {
    CHECK(n == 1);
    named.insert(tid);
  }
  CHECK(named == lanes_with_slices);  // no empty lanes, no slice on an unnamed lane
  for (int tid : lanes_with_slices) CHECK(sort_indexes[tid] == 1);
}

void check_timeline(const std::string& path) {
  std::ifstream f(path);
  const json doc = json::parse(f);
  CHECK(doc["displayTimeUnit"] == "ns");
  const json& events = doc.at("traceEvents");
  std::set<int> lanes;
  check_slices(events, lanes);
  check_flows(events);
  check_counters(events);
  check_metadata(events, lanes);
}

std::vector<std::string> shipped_traces() {
  std::vector<std::string> out;
  for (const auto& dir : fs::directory_iterator(AICORE_TRACES_DIR))
    if (dir.is_directory())
      for (const auto& f : fs::directory_iterator(dir.path()))
        if (f.path().extension() == ".trace") out.push_back(f.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("timeline rules hold for every shipped trace", "[cli][inspect][timeline][shipped]") {
  const auto traces = shipped_traces();
  REQUIRE(traces.size() >= 5);
  for (const std::string& t : traces) {
    DYNAMIC_SECTION(fs::path(t).filename().string()) {
      TempDir d;
      inspect::run_ok(d, t, "--timeline");
      check_timeline(d.file("out/timeline.json"));
    }
  }
}

TEST_CASE("timeline rules hold in a window and on the scalar and MTE3 lanes", "[cli][inspect][timeline]") {
  SECTION("a window of the tiled GEMM") {
    TempDir d;
    inspect::run_ok(d, inspect::tiled_trace(), "--timeline --window 0:12000");
    check_timeline(d.file("out/timeline.json"));
  }
  SECTION("flags to and from the scalar unit, a barrier, MTE3 sync") {
    TempDir d;
    const std::string t = d.write("s.trace",
                                  ".gm a size=4096\n"
                                  "DataCopy dst=L1:0 src=a blockLen=64\n"
                                  "SetFlag event=MTE2_S id=0\n"
                                  "WaitFlag event=MTE2_S id=0\n"
                                  "SetFlag event=S_MTE2 id=1\n"
                                  "WaitFlag event=S_MTE2 id=1\n"
                                  "PipeBarrier pipe=PIPE_ALL\n"
                                  "SetFlag event=MTE2_MTE3 id=2\n"
                                  "WaitFlag event=MTE2_MTE3 id=2\n");
    inspect::run_ok(d, t, "--timeline");
    check_timeline(d.file("out/timeline.json"));
  }
  SECTION("a flag set and never waited for: its slice, no arrow") {
    TempDir d;
    const std::string t = d.write("s.trace", "SetFlag event=MTE2_MTE1 id=0\nSetFlag event=MTE1_M id=0\n");
    inspect::run_ok(d, t, "--timeline");
    std::ifstream f(d.file("out/timeline.json"));
    const json events = json::parse(f).at("traceEvents");
    int slices = 0;
    for (const auto& e : events) {
      slices += e["ph"] == "X";
      CHECK(!e.contains("bind_id"));
    }
    CHECK(slices == 2);
  }
}
