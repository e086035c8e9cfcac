// Where messages go: stdout carries only the summary, .expect results and "wrote ..." lines;
// notes and warnings go to stderr; -q silences notes (and stdout) but not warnings or errors.
#include <catch2/catch.hpp>

#include <sstream>

#include "harness.hpp"

using Catch::Contains;
using harness::TempDir;

namespace {

const char* kExpectTrace =
    ".gm c size=64\n"
    ".expect c file=want.bin dtype=int32\n";

// Every stdout line is a summary line (indented, or "cycles ..."), an expect result or "wrote".
void check_stdout_is_results(const std::string& out) {
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    INFO(line);
    const bool ok = line.rfind("cycles ", 0) == 0 || line.rfind("  ", 0) == 0 ||
                    line.rfind("wrote ", 0) == 0 || line.rfind("expect ", 0) == 0;
    CHECK(ok);
  }
}

}  // namespace

TEST_CASE("messages: the --timing-only note goes to stderr and -q silences it", "[cli][messages]") {
  TempDir d;
  d.write("want.bin", std::string(64, '\0'));
  auto r = harness::run_trace(d, kExpectTrace, "--timing-only");
  CHECK(r.status == 0);
  CHECK(r.err == "note: --timing-only: .out and .expect are skipped (no data was computed)\n");
  CHECK_THAT(r.out, !Contains("note"));
  check_stdout_is_results(r.out);
  r = harness::run_trace(d, kExpectTrace, "--timing-only -q");
  CHECK(r.status == 0);
  CHECK(r.out.empty());
  CHECK(r.err.empty());
}

TEST_CASE("messages: -q prints nothing for a run whose .expect matches", "[cli][messages]") {
  TempDir d;
  d.write("want.bin", std::string(64, '\0'));
  auto r = harness::run_trace(d, kExpectTrace);
  CHECK(r.status == 0);
  CHECK_THAT(r.out, Contains("expect c: match (64 bytes)\n") && Contains("wrote "));
  check_stdout_is_results(r.out);
  CHECK(r.err.empty());
  r = harness::run_trace(d, kExpectTrace, "-q");
  CHECK(r.status == 0);
  CHECK(r.out.empty());
  CHECK(r.err.empty());
}

TEST_CASE("messages: flags left set are a warning on stderr, kept with -q", "[cli][messages]") {
  TempDir d;
  // --check none: the checker's own lint about it is tested in tests/check.
  const char* trace = "SetFlag event=MTE2_MTE1 id=0\n";
  auto r = harness::run_trace(d, trace, "--check none");
  CHECK(r.status == 0);
  CHECK(r.err == "warning: 1 flag(s) left set at the end of the trace\n");
  CHECK_THAT(r.out, !Contains("warning"));
  check_stdout_is_results(r.out);
  r = harness::run_trace(d, trace, "-q --check none");
  CHECK(r.status == 0);
  CHECK(r.out.empty());
  CHECK(r.err == "warning: 1 flag(s) left set at the end of the trace\n");
}

TEST_CASE("messages: errors are shown with -q", "[cli][messages][errors]") {
  TempDir d;
  d.write("want.bin", std::string(4, '\0') + std::string(1, '\x07') + std::string(59, '\0'));
  auto r = harness::run_trace(d, kExpectTrace, "-q");
  CHECK(r.status == 1);
  CHECK(r.out.empty());
  CHECK_THAT(r.err, Contains("t.trace:2:1: error: tensor c differs"));
  r = harness::run_trace(d, "Bogus x=1\n", "-q");
  CHECK(r.status == 2);
  CHECK(r.out.empty());
  CHECK_THAT(r.err, Contains("t.trace:1:1: error:"));
}
