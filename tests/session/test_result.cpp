// The result's JSON form (how a child hands its result back) keeps every field; the status names
// and exit statuses are docs/cli.md's.
#include <catch2/catch.hpp>

#include "aicore/session/options.hpp"
#include "aicore/session/result.hpp"

using namespace aicore::session;

TEST_CASE("statuses: names and exit statuses", "[session]") {
  CHECK(std::string(to_string(RunStatus::Completed)) == "completed");
  CHECK(std::string(to_string(RunStatus::Mismatch)) == "mismatch");
  CHECK(std::string(to_string(RunStatus::CheckError)) == "check_error");
  CHECK(std::string(to_string(RunStatus::InputError)) == "input_error");
  CHECK(std::string(to_string(RunStatus::Fault)) == "fault");
  CHECK(exit_status(RunStatus::Completed) == 0);
  CHECK(exit_status(RunStatus::Mismatch) == 1);
  CHECK(exit_status(RunStatus::InputError) == 2);
  CHECK(exit_status(RunStatus::CheckError) == 3);
  CHECK(exit_status(RunStatus::Fault) == 3);
}

TEST_CASE("a result survives its JSON form", "[session]") {
  RunResult r;
  r.status = RunStatus::Mismatch;
  r.exit_status = 1;
  r.message = "m";
  r.cycles = 123;
  r.instructions = 7;
  r.time_us = 0.5;
  r.bound_pipe = "FIX";
  r.pipes = {{"S", 1, 2, 3, 4, 0.25}};
  r.stats = {{"cycles", 123}};
  r.checks = {{"mode", "warn"}};
  r.check_errors = 2;
  r.check_warnings = 5;
  InstrRow row;
  row.core = 1;
  row.index = 2;
  row.line = 3;
  row.mnemonic = "Mmad";
  row.pipe = "M";
  row.issue_cycle = 4;
  row.start_cycle = 5;
  row.busy_end_cycle = 6;
  row.end_cycle = 7;
  row.bytes = 8;
  row.macs = 9;
  row.dense_macs = 10;
  row.wait_cycles = 11;
  row.wait_cause = "flag MTE1_M/0";
  row.queue_wait_cycles = 12;
  r.rows = {row};
  r.expects = {{"c", "c.bin", false, 1024, 3, 256, "out/c.actual.bin"}};
  r.tensors = {{"c", {0x00, 0x7f, 0x80, 0xff}}};
  r.files = {"out/stats.json"};
  r.messages = {{Message::Level::Warning, "w"}, {Message::Level::Note, "n"}, {Message::Level::Error, "e"}};
  r.summary = "cycles 123\n";
  const RunResult b = result_from_json(to_json(r));
  CHECK(to_json(b) == to_json(r));
  CHECK(b.rows[0].wait_cause == "flag MTE1_M/0");
  CHECK(b.tensors[0].bytes == std::vector<uint8_t>{0x00, 0x7f, 0x80, 0xff});
  CHECK(b.messages[2].level == Message::Level::Error);
  CHECK(b.expects[0].actual_file == "out/c.actual.bin");
}

TEST_CASE("options: a window needs its outputs and must parse", "[session]") {
  RunOptions o;
  CHECK(options_error(o).empty());
  o.window = "10:20";
  CHECK(options_error(o) == "--window limits --timeline and --vcd; give at least one of them");
  o.vcd = true;
  aicore::report::CycleWindow w;
  CHECK(options_error(o, &w).empty());
  CHECK(w.begin == 10);
  CHECK(w.end == 20);
  o.window = "5:3";
  CHECK(options_error(o) == "--window 5:3: END must be greater than START");
  CHECK(check_mode_from("warn") == CheckMode::Warn);
  CHECK(!check_mode_from("warm"));
  CHECK(check_mode_error("warm") == "--check must be error, warn or none, not 'warm'; did you mean 'warn'?");
}
