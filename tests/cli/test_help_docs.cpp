// docs/cli.md against the help texts: each command's section names exactly the options its --help
// lists (in its synopsis and the first column of its option table), and the command list at the top
// of the page is the top-level help's, so neither drifts from the other.
#include <catch2/catch.hpp>

#include <regex>
#include <set>
#include <sstream>

#include "harness.hpp"

namespace {

const std::string kDoc = test_support::slurp(AICORE_DOCS_DIR "/cli.md");

std::set<std::string> options_in(const std::string& text) {
  std::set<std::string> out;
  // Not after '=': "--sbatch-arg=--time=10" names an option of sbatch.
  const std::regex option(R"((^|[^\w=-])(--[a-z][a-z0-9-]*))");
  for (std::sregex_iterator it(text.begin(), text.end(), option), end; it != end; ++it) out.insert((*it)[2]);
  out.erase("--help");
  return out;
}

// The options a help text names (gen's and densify's are written by hand, several to a line).
std::set<std::string> help_options(const std::string& help) {
  return options_in(help);
}

// The section "## aicore-sim NAME" up to the next "## ".
std::string section(const std::string& name) {
  const size_t start = kDoc.find("\n## aicore-sim " + name + "\n");
  REQUIRE(start != std::string::npos);
  return kDoc.substr(start, kDoc.find("\n## ", start + 1) - start);
}

// What a section names: its code blocks of command lines (from the first line that starts with
// "aicore-sim ") and the first cell of each table row.
std::set<std::string> doc_options(const std::string& sec) {
  std::string named;
  std::istringstream in(sec);
  bool code = false, synopsis = false;  // in a code block; in one of command lines
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("```", 0) == 0) {
      code = !code;
      synopsis = false;
      continue;
    }
    if (code && line.rfind("aicore-sim ", 0) == 0) synopsis = true;
    if (synopsis) named += line + "\n";
    if (!code && line.rfind("| ", 0) == 0) {
      size_t end = 1;  // the first cell ends at the first '|' not escaped as '\|'
      while ((end = line.find('|', end + 1)) != std::string::npos && line[end - 1] == '\\') {
      }
      named += line.substr(0, end) + "\n";
    }
  }
  return options_in(named);
}

}  // namespace

TEST_CASE("docs: each command's section in cli.md names the options its --help lists", "[cli][help][docs]") {
  const std::vector<std::pair<std::string, std::vector<std::string>>> commands = {
      {"run", {"run --help"}},
      {"kernel", {"kernel --help"}},
      {"config show", {"config show --help"}},
      {"gen", {"gen --help"}},
      {"densify", {"densify --help"}},
      {"sweep", {"sweep --help"}},
      {"diff", {"diff --help"}},
      {"calibrate and validate", {"calibrate --help", "validate --help"}}};
  for (const auto& [name, helps] : commands) {
    INFO("docs/cli.md, ## aicore-sim " << name);
    std::set<std::string> listed;
    for (const std::string& h : helps) {
      const auto r = harness::run(h);
      REQUIRE(r.status == 0);
      for (const std::string& o : help_options(r.out)) listed.insert(o);
    }
    CHECK(doc_options(section(name)) == listed);
  }
}

TEST_CASE("docs: the command list of cli.md is the top-level help's", "[cli][help][docs]") {
  const std::string top = harness::run("--help").out;
  const size_t start = kDoc.find("```\n") + 4;
  std::istringstream block(kDoc.substr(start, kDoc.find("```", start) - start));
  size_t commands = 0;
  for (std::string line; std::getline(block, line);) {
    if (line.rfind("aicore-sim ", 0) != 0) continue;
    // The command and its first option ("gen --dtype", "gen --m", "config show", "run TRACE|...").
    std::istringstream words(line.substr(11));
    std::string first, second;
    words >> first >> second;
    if (first.rfind("-", 0) == 0 || first == "<command>") continue;  // --version, --help
    const std::string shown = second.rfind("--", 0) == 0 || first == "config" ? first + " " + second : first;
    INFO(line);
    CHECK(top.find("  " + shown) != std::string::npos);
    ++commands;
  }
  CHECK(commands == 11);
}
