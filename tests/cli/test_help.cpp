// Help texts: every command shows its real synopsis; the top-level help is made of the commands'
// own option descriptions, so it lists every option `run --help` lists.
#include <catch2/catch.hpp>

#include <regex>
#include <set>
#include <sstream>

#include "harness.hpp"

using Catch::Contains;
using Catch::StartsWith;

namespace {

// The long option names ("--config", ...) an options block of a help text lists.
std::set<std::string> long_options(const std::string& help) {
  std::set<std::string> names;
  const std::regex option(R"(^\s+(?:-\w, )?(--[a-z][a-z-]*))");
  std::istringstream in(help);
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_search(line, m, option)) names.insert(m[1]);
  }
  return names;
}

}  // namespace

TEST_CASE("help: run --help shows TRACE as a positional, not --trace", "[cli][help]") {
  const auto r = harness::run("run --help");
  CHECK(r.status == 0);
  CHECK(r.err.empty());
  CHECK_THAT(r.out, StartsWith("usage: aicore-sim run TRACE|KERNEL.yaml [options]\n"));
  CHECK_THAT(r.out, !Contains("--trace"));
  CHECK(long_options(r.out) == std::set<std::string>{"--config", "--set", "--out", "--timing-only",
                                                     "--instr-log", "--timeline", "--vcd", "--window",
                                                     "--check", "--quiet", "--verbose", "--help"});
  CHECK_THAT(r.out, Contains("-q, --quiet") && Contains("-v, --verbose [N]") && Contains("--out DIR") &&
                        Contains("--window START:END") && Contains("--set KEY=VALUE"));
  CHECK(harness::run("run -h").out == r.out);
}

TEST_CASE("help: the top-level help lists every option of run and config show", "[cli][help]") {
  const auto top = harness::run("--help");
  CHECK(top.status == 0);
  CHECK_THAT(top.out, StartsWith("usage: aicore-sim <command> [options]\n"));
  for (const char* cmd : {"  run TRACE|KERNEL.yaml [options]\n", "  config show [options]\n",
                          "  config list\n", "  gen --m M", "  densify INPUT"})
    CHECK_THAT(top.out, Contains(cmd));
  const std::set<std::string> listed = long_options(top.out);
  for (const char* cmd : {"run --help", "config show --help"}) {
    INFO(cmd);
    for (const std::string& o : long_options(harness::run(cmd).out)) {
      INFO(o);
      CHECK(listed.count(o) == 1);
    }
  }
  for (const char* o : {"--timeline", "--vcd", "--window", "-q, --quiet", "-v, --verbose"})
    CHECK_THAT(top.out, Contains(o));
  CHECK(harness::run("help").out == top.out);
  CHECK(harness::run("-h").out == top.out);
  // No command at all: the same text, on stderr, exit 2.
  const auto none = harness::run("");
  CHECK(none.status == 2);
  CHECK(none.err == top.out);
}

TEST_CASE("help: config --help works and shows config show", "[cli][help]") {
  for (const char* args :
       {"config --help", "config -h", "config help", "config show --help", "config show -h"}) {
    INFO(args);
    const auto r = harness::run(args);
    CHECK(r.status == 0);
    CHECK(r.err.empty());
    CHECK_THAT(r.out, StartsWith("usage: aicore-sim config show [options]\n"));
    CHECK(long_options(r.out) == std::set<std::string>{"--config", "--set", "--help"});
  }
  const auto bare = harness::run("config");
  CHECK(bare.status == 2);
  CHECK_THAT(bare.err, Contains("aicore-sim config: error: expected 'config show'") &&
                           Contains("usage: aicore-sim config show [options]"));
  const auto wrong = harness::run("config shwo");
  CHECK(wrong.status == 2);
  CHECK_THAT(wrong.err, Contains("expected 'config show' or 'config list', not 'shwo'"));
}

TEST_CASE("help: gen and densify show their synopsis under aicore-sim", "[cli][help]") {
  auto r = harness::run("gen --help");
  CHECK(r.status == 0);
  CHECK_THAT(r.out, StartsWith("usage: aicore-sim gen --m M --k K --n N (--sparse | --dense) --out DIR"));
  r = harness::run("densify --help");
  CHECK(r.status == 0);
  CHECK_THAT(r.out, StartsWith("usage: aicore-sim densify INPUT "));
}

TEST_CASE("help: a bad command line ends with the command's usage line", "[cli][help][errors]") {
  auto r = harness::run("run x.trace --timelin");
  CHECK(r.status == 2);
  CHECK_THAT(r.err,
             Contains("aicore-sim run: error: unknown option '--timelin'; did you mean '--timeline'?") &&
                 Contains("usage: aicore-sim run TRACE|KERNEL.yaml [options]"));
  r = harness::run("run");
  CHECK(r.status == 2);
  CHECK_THAT(r.err,
             Contains("missing TRACE") && Contains("usage: aicore-sim run TRACE|KERNEL.yaml [options]"));
  r = harness::run("config show --sett a=1");
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Contains("did you mean '--set'?") && Contains("usage: aicore-sim config show [options]"));
}
