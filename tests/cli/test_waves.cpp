// waves.vcd of the tiled sparse GEMM read by a strict VCD parser and checked against the
// run's instr.csv: busy edges, instruction index and line, queue depths, path rates, flags.
#include <catch2/catch.hpp>
#include <map>
#include <set>
#include <utility>

#include "inspect.hpp"
#include "vcd.hpp"

using harness::TempDir;

namespace {

const char* const kPipes[] = {"S", "MTE2", "MTE1", "M", "FIX"};

struct Run {
  TempDir dir;
  std::vector<inspect::Row> rows;
  vcd::File waves;
  uint64_t cycles = 0;
};

void load(Run& run) {
  inspect::run_ok(run.dir, inspect::tiled_trace(), "--instr-log --vcd");
  run.rows = inspect::rows(run.dir);
  run.waves = vcd::parse(run.dir.file("out/waves.vcd"));
  run.cycles = harness::stats(run.dir)["cycles"];
}

std::string sig(const std::string& pipe, const char* name) {
  return "aicore." + inspect::lane(pipe) + "." + name;
}

// Value changes as (time, value) with the initial value at time 0.
using Changes = std::vector<std::pair<uint64_t, uint64_t>>;
Changes numeric(const vcd::File& f, const std::string& path) {
  Changes out;
  for (const auto& [t, v] : f.of(path)) out.emplace_back(t, vcd::as_u64(v));
  return out;
}

}  // namespace

TEST_CASE("waves: a valid VCD from cycle 0 to the end of the run, one time unit per cycle",
          "[cli][inspect][vcd]") {
  Run run;
  load(run);
  CHECK(run.waves.timescale == "1ns");
  REQUIRE(!run.waves.times.empty());
  CHECK(run.waves.times.front() == 0);
  CHECK(run.waves.times.back() == run.cycles);
  for (const char* p : kPipes) {
    CHECK(run.waves.var(sig(p, "busy")).width == 1);
    CHECK(run.waves.var(sig(p, "instr_index")).width == 64);
  }
  CHECK(run.waves.var("aicore.paths.GM_to_L1").type == "real");
  CHECK(run.waves.var("aicore.flags.MTE2_MTE1_0").width == 1);
  // Changes only at events: far fewer timestamps than cycles.
  CHECK(run.waves.times.size() < run.cycles / 4);
}

TEST_CASE("waves: busy rises and falls exactly at instr.csv's start and busy_end", "[cli][inspect][vcd]") {
  Run run;
  load(run);
  for (const char* p : kPipes) {
    INFO("pipe " << p);
    // Merge occupancies that touch: the pipe stays busy across them.
    Changes want{{0, 0}};  // the initial value
    for (const auto& r : run.rows) {
      if (r.pipe != p || r.busy_end == r.start) continue;
      if (want.size() > 1 && want.back() == std::make_pair(r.start, uint64_t{0})) {
        want.back().first = r.busy_end;  // extends the previous interval
        continue;
      }
      if (want.back().first == r.start) want.pop_back();  // busy from cycle 0
      want.emplace_back(r.start, 1);
      want.emplace_back(r.busy_end, 0);
    }
    CHECK(numeric(run.waves, sig(p, "busy")) == want);
  }
}

TEST_CASE("waves: the current instruction index and line follow instr.csv", "[cli][inspect][vcd]") {
  Run run;
  load(run);
  for (const char* p : kPipes) {
    INFO("pipe " << p);
    std::map<uint64_t, const inspect::Row*> started;
    for (const auto& r : run.rows)
      if (r.pipe == p && r.busy_end > r.start) {
        started[r.start] = &r;
        CHECK(vcd::as_u64(run.waves.at(sig(p, "instr_index"), r.start)) == r.index);
        CHECK(vcd::as_u64(run.waves.at(sig(p, "instr_line"), r.start)) == r.line);
      }
    // Every change to a known value is such a start; idle stretches are x.
    for (const auto& [t, v] : numeric(run.waves, sig(p, "instr_index"))) {
      if (v == UINT64_MAX) continue;
      REQUIRE(started.count(t));
      CHECK(started[t]->index == v);
    }
  }
}

TEST_CASE("waves: queue depth counts instructions issued and not yet started", "[cli][inspect][vcd]") {
  Run run;
  load(run);
  for (const char* p : {"MTE2", "MTE1", "M", "FIX"}) {
    INFO("pipe " << p);
    std::map<uint64_t, int64_t> delta;
    for (const auto& r : run.rows)
      if (r.pipe == p) {
        ++delta[r.issue];
        --delta[r.start];
      }
    Changes want{{0, 0}};
    int64_t depth = 0;
    for (const auto& [t, d] : delta) {
      depth += d;
      REQUIRE(depth >= 0);
      if (static_cast<uint64_t>(depth) == want.back().second) continue;
      if (want.back().first == t) want.pop_back();
      want.emplace_back(t, static_cast<uint64_t>(depth));
    }
    CHECK(numeric(run.waves, sig(p, "queue_depth")) == want);
  }
}

TEST_CASE("waves: bytes per cycle on each path while an instruction moves data", "[cli][inspect][vcd]") {
  Run run;
  load(run);
  const std::map<std::string, std::string> path_of{{"DataCopy", "GM_to_L1"},
                                                   {"DataCopyNd2Nz", "GM_to_L1"},
                                                   {"LoadData", "L1_to_L0A"},
                                                   {"LoadDataWithSparse", "L1_to_L0B_sparse"},
                                                   {"Fixpipe", "L0C_to_GM"}};
  int checked = 0;
  for (const auto& r : run.rows) {
    const auto it = path_of.find(r.mnemonic);
    if (it == path_of.end() || r.busy_end == r.start) continue;
    INFO(r.mnemonic << " #" << r.index);
    const double want = static_cast<double>(r.bytes) / static_cast<double>(r.busy_end - r.start);
    CHECK(std::stod(run.waves.at("aicore.paths." + it->second, r.start)) == Approx(want).margin(0.0005));
    ++checked;
  }
  CHECK(checked > 500);
}

TEST_CASE("waves: a flag rises when a SetFlag fires and falls when a WaitFlag starts",
          "[cli][inspect][vcd][sync]") {
  Run run;
  load(run);
  const auto flags = inspect::flags_by_line(inspect::tiled_trace());
  std::map<std::string, std::multiset<uint64_t>> fires, releases;
  for (const auto& r : run.rows) {
    if (r.mnemonic == "SetFlag") fires[flags.at(r.line)].insert(r.end);
    if (r.mnemonic == "WaitFlag") releases[flags.at(r.line)].insert(r.start);
  }
  int edges = 0;
  for (const auto& [flag, at] : fires) {
    std::string name = flag;
    name[name.find('/')] = '_';
    INFO("flag " << flag);
    const auto changes = numeric(run.waves, "aicore.flags." + name);
    for (size_t k = 1; k < changes.size(); ++k) {
      const auto [t, v] = changes[k];
      CHECK((v == 1 ? fires[flag] : releases[flag]).count(t) == 1);
      ++edges;
    }
  }
  CHECK(edges > 100);
}
