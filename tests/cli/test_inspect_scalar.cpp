// The inspection outputs for the lanes the tiled GEMM leaves empty: flags to and from the
// scalar unit, a PIPE_ALL barrier, MTE3 sync instructions, and an awkward trace file name.
#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "inspect.hpp"
#include "vcd.hpp"

using Catch::Matchers::Contains;
using harness::TempDir;

namespace {
const char* kTrace =
    ".gm a size=4096\n"
    "DataCopy dst=L1:0 src=a blockLen=64\n"
    "SetFlag event=MTE2_S id=0\n"
    "WaitFlag event=MTE2_S id=0\n"
    "SetFlag event=S_MTE2 id=1\n"
    "WaitFlag event=S_MTE2 id=1\n"
    "DataCopy dst=L1:0x1000 src=a blockLen=64\n"
    "PipeBarrier pipe=PIPE_ALL\n"
    "LoadData dst=L0A:0 src=L1:0 repeatTimes=1\n"
    "SetFlag event=MTE1_MTE3 id=2\n"
    "WaitFlag event=MTE1_MTE3 id=2\n"
    "SetFlag event=MTE3_S id=3\n"
    "WaitFlag event=MTE3_S id=3\n";
}  // namespace

TEST_CASE("scalar and MTE3 flags: lanes, arrows and waves match instr.csv", "[cli][inspect][sync]") {
  TempDir d;
  // A quote and a backslash in the file name must not break the JSON.
  const std::string trace = d.write("we\"ird\\name.trace", kTrace);
  const auto r = inspect::run_ok(d, "'" + trace + "'", "--instr-log --timeline --vcd");
  CHECK_THAT(r.err, !Contains("warning"));
  const auto rows = inspect::rows(d);
  REQUIRE(rows.size() == 12);
  std::ifstream f(d.file("out/timeline.json"));
  const auto events = nlohmann::json::parse(f)["traceEvents"];
  std::map<int, std::string> lanes;
  std::map<std::string, int> x_on_lane;
  size_t flows = 0;
  std::string process;
  for (const auto& e : events) {
    if (e["ph"] == "M" && e["name"] == "thread_name") lanes[e["tid"].get<int>()] = e["args"]["name"];
    if (e["ph"] == "M" && e["name"] == "process_name") process = e["args"]["name"];
    if (e["ph"] == "X") ++x_on_lane[lanes[e["tid"].get<int>()]];
    if (e.value("flow_in", false)) ++flows;
  }
  CHECK_THAT(process, Contains("we\"ird\\name.trace"));
  CHECK(x_on_lane["SCALAR"] == 4);  // WaitFlag MTE2_S, SetFlag S_MTE2, the barrier, WaitFlag MTE3_S
  CHECK(x_on_lane["MTE3"] == 2);
  CHECK(flows == 4);  // one per WaitFlag
  const vcd::File w = vcd::parse(d.file("out/waves.vcd"));
  for (const auto& row : rows) {
    if (row.busy_end == row.start) continue;
    INFO(row.mnemonic << " #" << row.index);
    const std::string lane = "aicore." + inspect::lane(row.pipe);
    CHECK(vcd::as_u64(w.at(lane + ".instr_index", row.start)) == row.index);
    CHECK(w.at(lane + ".busy", row.start) == "1");
  }
}
