// session::run_trace / run / run_in_child as a library caller uses them: no files unless asked, the
// figures and rows in the result, one model per process and any number through children.
#include <unistd.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "aicore/common/temp_dir.hpp"
#include "aicore/session/process.hpp"
#include "aicore/session/session.hpp"
#include "support.hpp"

using namespace aicore;
using Catch::Contains;

namespace {

const std::string kSeed = std::string(AICORE_TRACES_DIR) + "/seed_sparse_16x64x16/seed_sparse_16x64x16.trace";

session::RunOptions library_options() {
  session::RunOptions o;
  o.config = AICORE_TEST_CONFIG;
  o.out_dir = "";  // a library call writes nothing
  o.quiet = true;
  return o;
}

// The seed trace's C, as its golden file holds it.
std::vector<uint8_t> golden_c() {
  const std::string g =
      test_support::slurp(std::string(AICORE_TRACES_DIR) + "/seed_sparse_16x64x16/c_golden.bin");
  return std::vector<uint8_t>(g.begin(), g.end());
}

}  // namespace

TEST_CASE("a trace run returns its figures, rows and tensors and writes no file", "[session]") {
  session::RunOptions o = library_options();
  o.keep_instructions = true;
  o.keep_tensors = true;
  std::ostringstream out, err;
  const TempDir cwd("aicore-session");
  const auto before = std::filesystem::current_path();
  std::filesystem::current_path(cwd.path());
  const session::RunResult r = session::run_trace(kSeed, o, out, err);
  std::filesystem::current_path(before);
  INFO(err.str());
  CHECK(r.status == session::RunStatus::Completed);
  CHECK(r.exit_status == 0);
  CHECK(out.str().empty());  // quiet
  CHECK(std::filesystem::is_empty(cwd.path()));
  CHECK(r.files.empty());
  CHECK(r.cycles > 0);
  CHECK(r.cycles == r.stats["cycles"].get<uint64_t>());
  CHECK(r.instructions == 13);
  CHECK(r.rows.size() == 13);
  CHECK(r.bound_pipe == r.stats["summary"]["bound_pipe"].get<std::string>());
  REQUIRE(r.pipes.size() == 5);
  for (const session::PipeFigures& p : r.pipes)
    CHECK(p.busy_cycles == r.stats["pipes"][p.pipe]["busy_cycles"].get<uint64_t>());
  REQUIRE(r.expects.size() == 1);
  CHECK(r.expects[0].match);
  CHECK(r.checks["mode"] == "error");
  CHECK(r.check_errors == 0);
  // The rows are instr.csv's: the last instruction is the Fixpipe at line 26, ending last.
  uint64_t last_end = 0;
  for (const session::InstrRow& row : r.rows) last_end = std::max(last_end, row.end_cycle);
  CHECK(last_end == r.cycles);
  bool fixpipe = false;
  for (const session::InstrRow& row : r.rows)
    fixpipe = fixpipe || (row.mnemonic == "Fixpipe" && row.line == 26);
  CHECK(fixpipe);
  const auto c =
      std::find_if(r.tensors.begin(), r.tensors.end(), [](const auto& t) { return t.name == "c"; });
  REQUIRE(c != r.tensors.end());
  CHECK(c->bytes == golden_c());
}

TEST_CASE("a process simulates one model, run_in_child any number", "[session]") {
  std::ostringstream out, err;
  const auto body = [](std::ostream& o, std::ostream& e) {
    return session::run_trace(kSeed, library_options(), o, e);
  };
  const session::RunResult a = session::run_in_child(body, out, err, "seed");
  const session::RunResult b = session::run_in_child(body, out, err, "seed");
  INFO(err.str());
  CHECK(!session::model_elaborated());
  CHECK(a.status == session::RunStatus::Completed);
  CHECK(a.cycles > 0);
  CHECK(a.cycles == b.cycles);
  CHECK(a.stats == b.stats);
  // In this process: once, then never again.
  const session::RunResult here = session::run_trace(kSeed, library_options(), out, err);
  CHECK(here.cycles == a.cycles);
  CHECK(session::model_elaborated());
  CHECK_THROWS_WITH(session::run_trace(kSeed, library_options(), out, err),
                    Contains("SystemC elaborates one per process"));
  CHECK_THROWS_WITH(session::run_in_child(body, out, err, "seed"), Contains("inherit the elaborated"));
}

TEST_CASE("a child that dies is a fault result naming how", "[session]") {
  std::ostringstream out, err;
  const session::RunResult r = session::run_in_child(
      [](std::ostream&, std::ostream&) -> session::RunResult { _exit(9); }, out, err, "k");
  CHECK(r.status == session::RunStatus::Fault);
  CHECK(r.exit_status == 3);
  CHECK(r.message == "the simulation of k exited with status 9 without a result");
  CHECK(err.str() == "aicore-sim: error: the simulation of k exited with status 9 without a result\n");
}

TEST_CASE("bad input is a result, not an exception", "[session]") {
  std::ostringstream out, err;
  session::RunOptions o = library_options();
  o.sets = {"cube.head_cycle=1"};
  const session::RunResult r = session::run_trace(kSeed, o, out, err);
  CHECK(r.status == session::RunStatus::InputError);
  CHECK(r.exit_status == 2);
  CHECK(r.message ==
        "--set:1:6: error: unknown config key 'cube.head_cycle'; did you mean 'cube.head_cycles'?");
  CHECK(r.stats.is_null());
  REQUIRE(r.messages.size() == 1);
  CHECK(r.messages[0].level == session::Message::Level::Error);
  o.sets.clear();
  o.instr_log = true;  // a file with nowhere to go
  const session::RunResult nowhere = session::run_trace(kSeed, o, out, err);
  CHECK(nowhere.status == session::RunStatus::InputError);
  CHECK(nowhere.message == "--instr-log, --timeline and --vcd write files: give an output directory");
}

TEST_CASE("checker errors make the status check_error, in the result and stats.json", "[session]") {
  const TempDir d("aicore-session");
  const std::string trace = d.write("racy.trace",
                                    ".gm a size=1024\n"
                                    "DataCopy dst=L1:0 src=a blockLen=16\n"
                                    "LoadData dst=L0A:0 src=L1:0 repeatTimes=1\n");
  session::RunOptions o = library_options();
  o.out_dir = d.file("out");
  std::ostringstream out, err;
  const session::RunResult r = session::run_trace(trace, o, out, err);
  CHECK(r.status == session::RunStatus::CheckError);
  CHECK(r.exit_status == 3);
  CHECK(r.check_errors == 1);
  CHECK(r.stats["status"] == "check_error");
  CHECK(r.stats["completed"] == false);
  const auto written = nlohmann::json::parse(test_support::slurp(d.file("out/stats.json")));
  CHECK(written["status"] == "check_error");
}
