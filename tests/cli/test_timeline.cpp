// timeline.json of the tiled sparse GEMM checked against the run's own instr.csv: every
// instruction once, on one nanosecond per cycle, slices on one pipe never overlapping (in cycles
// and after a viewer's rounding to nanoseconds), flow arrows binding each SetFlag slice to the
// WaitFlag slice it released, counter tracks present. The format rules every shipped trace must
// keep are in test_timeline_rules.cpp.
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
  json doc, events, stats;
  std::map<int, std::string> lanes;  // tid -> thread name
};

void load(Run& run, const std::string& extra = "") {
  inspect::run_ok(run.dir, inspect::tiled_trace(), "--instr-log --timeline " + extra);
  run.rows = inspect::rows(run.dir);
  run.stats = harness::stats(run.dir);
  std::ifstream f(run.dir.file("out/timeline.json"));
  run.doc = json::parse(f);  // throws on invalid JSON
  run.events = run.doc.at("traceEvents");
  for (const auto& e : run.events)
    if (e["ph"] == "M" && e["name"] == "thread_name") run.lanes[e["tid"].get<int>()] = e["args"]["name"];
}

// Viewers turn microseconds into whole nanoseconds by rounding (Perfetto; catapult compares
// times rounded to its "ns" display unit).
int64_t round_ns(double us) {
  return std::llround(us * 1000.0);
}

}  // namespace

TEST_CASE("timeline: every instruction is one X slice on its pipe's lane, cycles as in instr.csv",
          "[cli][inspect][timeline]") {
  Run run;
  load(run);
  REQUIRE(run.rows.size() == run.stats["instructions"].get<uint64_t>());
  CHECK(run.doc["displayTimeUnit"] == "ns");
  std::set<std::string> names, used;
  for (const auto& [tid, name] : run.lanes) names.insert(name);
  for (const auto& r : run.rows) used.insert(inspect::lane(r.pipe));
  CHECK(names == used);  // only lanes that run something
  CHECK(names.count("MTE3") == 0);
  std::vector<int> seen(run.rows.size(), 0);
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
    // One nanosecond per cycle, microseconds in the file.
    CHECK(round_ns(e["ts"].get<double>()) == static_cast<int64_t>(r.start));
    CHECK(round_ns(e["dur"].get<double>()) == static_cast<int64_t>(r.busy_end - r.start));
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
    std::sort(slices.begin(), slices.end(), [](const json* a, const json* b) {
      return (*a)["args"]["start_cycle"].get<uint64_t>() < (*b)["args"]["start_cycle"].get<uint64_t>();
    });
    for (size_t k = 1; k < slices.size(); ++k) {
      const json& a = *slices[k - 1];
      const json& b = *slices[k];
      INFO(run.lanes[tid] << ": " << a.dump() << "\nthen " << b.dump());
      REQUIRE(b["args"]["start_cycle"] >= a["args"]["busy_end_cycle"]);
      const double ats = a["ts"], adur = a["dur"], bts = b["ts"];
      CHECK(round_ns(ats) + round_ns(adur) <= round_ns(bts));
    }
  }
}

TEST_CASE("timeline: a flow binds each WaitFlag slice to the SetFlag slice whose set it consumed",
          "[cli][inspect][timeline][sync]") {
  Run run;
  load(run);
  const auto flags = inspect::flags_by_line(inspect::tiled_trace());
  std::map<uint64_t, const json*> outs, ins;                       // bind_id -> slice
  std::map<std::string, std::vector<uint64_t>> sets_of, waits_of;  // per flag, program order
  for (const auto& e : run.events) {
    CHECK(e["ph"] != "s");  // no timestamp-bound flow events
    CHECK(e["ph"] != "f");
    if (!e.contains("bind_id")) continue;
    REQUIRE(e["ph"] == "X");
    const uint64_t id = e["bind_id"];
    if (e.value("flow_out", false)) {
      CHECK(e["name"] == "SetFlag");
      CHECK(outs.count(id) == 0);
      outs[id] = &e;
    } else {
      REQUIRE(e.value("flow_in", false));
      CHECK(e["name"] == "WaitFlag");
      CHECK(ins.count(id) == 0);
      ins[id] = &e;
    }
  }
  REQUIRE(!outs.empty());
  CHECK(outs.begin()->first == 1);  // ids from 1, one per arrow
  CHECK(outs.rbegin()->first == outs.size());
  std::map<uint64_t, uint64_t> released;  // SetFlag index -> WaitFlag index
  for (const auto& [id, out] : outs) {
    INFO("flow " << id);
    REQUIRE(ins.count(id) == 1);
    const json& in = *ins[id];
    CHECK((*out)["args"]["operands"] == in["args"]["operands"]);  // the same event and id
    CHECK((*out)["args"]["start_cycle"] <= in["args"]["start_cycle"]);
    released[(*out)["args"]["index"]] = in["args"]["index"];
  }
  CHECK(ins.size() == outs.size());
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
  // Tracks that never change are not written: nothing runs on MTE3, nothing moves on plain L1->L0B.
  CHECK(counters.count("MTE3 queue") == 0);
  CHECK(counters.count("L1->L0B") == 0);
}
