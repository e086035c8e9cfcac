// timeline.json of the tiled sparse GEMM checked against the run's own instr.csv: every
// instruction once, slices on one pipe never overlapping (in cycles and after a viewer's
// conversion to nanoseconds), flow arrows joining each SetFlag to the WaitFlag it released,
// counter tracks present.
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "inspect.hpp"

using harness::TempDir;
using nlohmann::json;

namespace {

struct Run {
  TempDir dir;
  std::vector<inspect::Row> rows;
  json events, stats;
  std::map<int, std::string> lanes;  // tid -> thread name
};

void load(Run& run, const std::string& extra = "") {
  inspect::run_ok(run.dir, inspect::tiled_trace(), "--instr-log --timeline " + extra);
  run.rows = inspect::rows(run.dir);
  run.stats = harness::stats(run.dir);
  std::ifstream f(run.dir.file("out/timeline.json"));
  run.events = json::parse(f).at("traceEvents");  // throws on invalid JSON
  for (const auto& e : run.events)
    if (e["ph"] == "M" && e["name"] == "thread_name") run.lanes[e["tid"].get<int>()] = e["args"]["name"];
}

// The two ways viewers turn microseconds into nanoseconds: rounding (Perfetto today) and
// truncation (older Perfetto).
int64_t round_ns(double us) {
  return std::llround(us * 1000.0);
}
int64_t trunc_ns(double us) {
  return static_cast<int64_t>(us * 1000.0);
}

}  // namespace

TEST_CASE("timeline: every instruction is one X slice on its pipe's lane, cycles as in instr.csv",
          "[cli][inspect][timeline]") {
  Run run;
  load(run);
  REQUIRE(run.rows.size() == run.stats["instructions"].get<uint64_t>());
  std::set<std::string> names;
  for (const auto& [tid, name] : run.lanes) names.insert(name);
  CHECK(names == std::set<std::string>{"SCALAR", "MTE2", "MTE1", "CUBE", "FIXP", "MTE3"});
  std::vector<int> seen(run.rows.size(), 0);
  const double mhz = run.stats["config"]["clock_mhz"].get<double>();
  for (const auto& e : run.events) {
    if (e["ph"] != "X") continue;
    const auto& a = e["args"];
    const uint64_t i = a["index"];
    REQUIRE(i < run.rows.size());
    ++seen[i];
    const inspect::Row& r = run.rows[i];
    CHECK(e["name"] == r.mnemonic);
    CHECK(run.lanes[e["tid"].get<int>()] == inspect::lane(r.pipe));
    CHECK(a["line"] == r.line);
    CHECK(a["start_cycle"] == r.start);
    CHECK(a["busy_end_cycle"] == r.busy_end);
    CHECK(a["end_cycle"] == r.end);
    CHECK(a["bytes"] == r.bytes);
    CHECK(a["cycles"] == r.busy_end - r.start);
    CHECK(a.value("wait_cause", "") == r.wait_cause);
    CHECK(a.value("wait_cycles", uint64_t{0}) == r.wait);
    CHECK(a.contains("operands"));
    // Microseconds at the configured clock, to the nanosecond.
    CHECK(std::abs(e["ts"].get<double>() - static_cast<double>(r.start) / mhz) < 1e-3);
  }
  for (size_t i = 0; i < seen.size(); ++i) {
    INFO("instruction " << i);
    CHECK(seen[i] == 1);
  }
}

TEST_CASE("timeline: slices on one lane never overlap, in cycles or in a viewer's nanoseconds",
          "[cli][inspect][timeline]") {
  Run run;
  load(run);
  std::map<int, std::vector<const json*>> by_tid;
  for (const auto& e : run.events)
    if (e["ph"] == "X") by_tid[e["tid"].get<int>()].push_back(&e);
  for (auto& [tid, slices] : by_tid) {
    for (size_t k = 1; k < slices.size(); ++k) {  // file order is start order per lane
      const json& a = *slices[k - 1];
      const json& b = *slices[k];
      INFO(run.lanes[tid] << ": " << a.dump() << "\nthen " << b.dump());
      REQUIRE(b["args"]["start_cycle"] >= a["args"]["busy_end_cycle"]);
      const double ats = a["ts"], adur = a["dur"], bts = b["ts"];
      CHECK(round_ns(ats) + round_ns(adur) <= round_ns(bts));
      CHECK(trunc_ns(ats) + trunc_ns(adur) <= trunc_ns(bts));
    }
  }
}

TEST_CASE("timeline: a flow arrow joins each WaitFlag to the SetFlag whose set it consumed",
          "[cli][inspect][timeline][sync]") {
  Run run;
  load(run);
  const auto flags = inspect::flags_by_line(inspect::tiled_trace());
  std::map<uint64_t, const json*> starts;                          // id -> "s"
  std::map<uint64_t, uint64_t> released;                           // SetFlag index -> WaitFlag index
  std::map<std::string, std::vector<uint64_t>> sets_of, waits_of;  // per flag, program order
  const json* prev = nullptr;
  for (const auto& e : run.events) {
    if (e["ph"] == "s") {
      // Written right after its SetFlag's slice, same lane and time: the viewer binds it there.
      REQUIRE(prev);
      CHECK((*prev)["name"] == "SetFlag");
      CHECK((*prev)["args"]["index"] == e["id"]);
      CHECK((*prev)["tid"] == e["tid"]);
      CHECK((*prev)["ts"] == e["ts"]);
      CHECK(e["bp"] == "e");
      starts[e["id"].get<uint64_t>()] = &e;
    } else if (e["ph"] == "f") {
      REQUIRE(prev);
      CHECK((*prev)["name"] == "WaitFlag");
      CHECK((*prev)["tid"] == e["tid"]);
      CHECK((*prev)["ts"] == e["ts"]);
      CHECK(e["bp"] == "e");
      const uint64_t set = e["id"];
      REQUIRE(starts.count(set));
      CHECK(starts[set]->at("name") == e["name"]);  // a v1 flow pairs by (id, cat, name)
      CHECK(starts[set]->at("cat") == e["cat"]);
      CHECK(released.count(set) == 0);
      released[set] = (*prev)["args"]["index"];
    }
    if (e["ph"] == "X") prev = &e;
  }
  for (const auto& r : run.rows) {
    if (r.mnemonic == "SetFlag") sets_of[flags.at(r.line)].push_back(r.index);
    if (r.mnemonic == "WaitFlag") waits_of[flags.at(r.line)].push_back(r.index);
  }
  uint64_t waits = 0;
  for (const auto& [flag, w] : waits_of) waits += w.size();
  CHECK(released.size() == waits);  // every WaitFlag got its arrow
  // Flags are FIFO: the k-th WaitFlag of a flag releases the k-th SetFlag of that flag.
  for (const auto& [flag, w] : waits_of) {
    INFO("flag " << flag);
    REQUIRE(sets_of[flag].size() >= w.size());
    for (size_t k = 0; k < w.size(); ++k) {
      const uint64_t set = sets_of[flag][k];
      REQUIRE(released.count(set));
      CHECK(released[set] == w[k]);
    }
  }
}

TEST_CASE("timeline: counter tracks for queue depths and bytes per cycle", "[cli][inspect][timeline]") {
  Run run;
  load(run);
  std::map<std::string, int> counters;
  for (const auto& e : run.events) {
    if (e["ph"] != "C") continue;
    ++counters[e["name"]];
    for (const auto& [k, v] : e["args"].items()) {
      CHECK(v.get<double>() >= 0);
      if (k == "depth") CHECK(v.get<double>() <= 32);  // the configured queue depth
    }
  }
  for (const char* name : {"MTE2 queue", "MTE1 queue", "CUBE queue", "FIXP queue", "GM->L1", "L1->L0A",
                           "L1->L0B(sparse)", "L0C->GM"}) {
    INFO(name);
    CHECK(counters[name] > 1);
  }
}
