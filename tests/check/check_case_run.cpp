// Runs one case of the checker catalogue (tests/check/cases/*.trace) through the real binary and
// checks exactly which reports come out, then runs it again under two other configurations
// (different latencies and bandwidths, --timing-only) and requires the same reports byte for
// byte: stderr with its "timing (this run ...)" lines removed, checks.json without its
// "timing" members. Only those two carry facts of the schedule.
//
//   check_case_run AICORE_SIM CASE.trace TRACES_DIR
//
// A case is a trace whose leading comment lines hold directives (README.md in cases/):
//   # gen: ARGS          start from `aicore-sim gen ARGS` instead of the case's own body
//   # from: DIR/T.trace  start from a shipped trace (its data files come along)
//   # drop: TEXT         remove every line containing TEXT (repeatable)
//   # exit: N            expected exit status
//   # args: ...          extra `run` arguments
//   # report: HEADLINE   the reports' first lines, in order, exactly (all of them, unless
//   # reports: N         gives the total, in checks.json, and the listed ones are the first)
//   # stderr: TEXT       must appear on stderr
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "support.hpp"

namespace fs = std::filesystem;

namespace {

struct Case {
  std::string gen, from, args;
  std::vector<std::string> drops, reports, stderr_has;
  int exit_status = 0;
  long report_count = -1;
  std::string body;
};

[[noreturn]] void die(const std::string& msg) {
  std::cerr << "check_case_run: " << msg << "\n";
  std::exit(2);
}

using test_support::slurp;

Case parse_case(const fs::path& path) {
  Case c;
  std::istringstream in(slurp(path));
  std::string line;
  bool header = true;
  const auto value = [](const std::string& l, const std::string& key) -> std::optional<std::string> {
    const std::string k = "# " + key + ":";
    if (l.rfind(k, 0) != 0) return std::nullopt;
    std::string v = l.substr(k.size());
    return v.empty() ? v : v.substr(1);
  };
  while (std::getline(in, line)) {
    if (header && line.rfind("#", 0) == 0) {
      if (auto v = value(line, "gen")) c.gen = *v;
      if (auto v = value(line, "from")) c.from = *v;
      if (auto v = value(line, "drop")) c.drops.push_back(*v);
      if (auto v = value(line, "exit")) c.exit_status = std::stoi(*v);
      if (auto v = value(line, "args")) c.args = *v;
      if (auto v = value(line, "report")) c.reports.push_back(*v);
      if (auto v = value(line, "reports")) c.report_count = std::stol(*v);
      if (auto v = value(line, "stderr")) c.stderr_has.push_back(*v);
      // Header lines stay in the trace (as comments), so line numbers are the file's own.
    } else {
      header = false;
    }
    c.body += line + "\n";
  }
  return c;
}

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char ch : s) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return q + "'";
}

struct Result {
  int status = -1;
  std::string err;
  nlohmann::json checks;
};

Result run(const std::string& sim, const fs::path& dir, const std::string& args, const std::string& tag) {
  const fs::path out = dir / ("out-" + tag), err = dir / ("stderr-" + tag);
  const std::string cmd = "cd " + shell_quote(dir.string()) + " && " + shell_quote(sim) +
                          " run t.trace --out " + shell_quote(out.string()) + " -q " + args +
                          " > /dev/null 2> " + shell_quote(err.string());
  const int rc = std::system(cmd.c_str());
  Result r;
  r.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  r.err = slurp(err);
  try {
    r.checks = nlohmann::json::parse(slurp(out / "checks.json"));
  } catch (const std::exception& e) {
    die("checks.json of run '" + tag + "' does not parse: " + e.what() + "\n" + r.err);
  }
  return r;
}

// The checker's part of stderr: report headlines with their indented details, and the
// "check:" summary; without the timing lines.
const std::regex kHeadline(
    R"(^\S+: (error|warning): (data race|cross-core data race|uninitialised read|deadlock|double SetFlag|Mmad interlock boundary|flag left set|reserved event id|unneeded synchronisation|PipeBarrier<PIPE_S>|unitFlag misuse|unit flags left set|type confusion|duplicate copy)[ :(].*)");

std::vector<std::string> check_lines(const std::string& err, std::vector<std::string>* headlines) {
  std::vector<std::string> out;
  std::istringstream in(err);
  std::string line;
  bool in_report = false;
  while (std::getline(in, line)) {
    if (std::regex_match(line, kHeadline)) {
      in_report = true;
      if (headlines) headlines->push_back(line);
    } else if (line.rfind("  ", 0) != 0) {
      in_report = false;
      if (line.rfind("check: ", 0) == 0 && line.find("every report is in") == std::string::npos)
        out.push_back(line);
      continue;
    }
    if (!in_report || line.rfind("  timing (this run", 0) == 0) continue;
    out.push_back(line);
  }
  return out;
}

void strip_timing(nlohmann::json& j) {
  for (auto& r : j["reports"]) r.erase("timing");
  j.erase("mode");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) die("usage: check_case_run AICORE_SIM CASE.trace TRACES_DIR");
  const std::string sim = fs::absolute(argv[1]).string();
  const fs::path case_path = argv[2], traces = argv[3];
  const Case c = parse_case(case_path);
  const fs::path dir = fs::temp_directory_path() /
                       ("aicore-check-" + case_path.stem().string() + "-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);

  // The trace under test.
  std::string text = c.body;
  if (!c.gen.empty()) {
    const std::string cmd = shell_quote(sim) + " gen " + c.gen + " --no-originals --name t --out " +
                            shell_quote(dir.string()) + " > /dev/null";
    if (std::system(cmd.c_str()) != 0) die("gen failed: " + c.gen);
    text = slurp(dir / "t.trace");
  } else if (!c.from.empty()) {
    const fs::path src = traces / c.from;
    for (const auto& e : fs::directory_iterator(src.parent_path()))
      if (e.path().extension() != ".trace") fs::copy_file(e.path(), dir / e.path().filename());
    text = slurp(src);
  }
  if (!c.drops.empty()) {
    std::istringstream in(text);
    std::string kept, line;
    while (std::getline(in, line)) {
      bool drop = false;
      for (const auto& d : c.drops)
        drop = drop || (line.rfind("#", 0) != 0 && line.find(d) != std::string::npos);
      if (!drop) kept += line + "\n";
    }
    text = kept;
  }
  std::ofstream(dir / "t.trace") << text;

  int failures = 0;
  const auto fail = [&](const std::string& what) {
    ++failures;
    std::cerr << "FAIL " << case_path.filename().string() << ": " << what << "\n";
  };

  const Result a = run(sim, dir, c.args, "default");
  if (a.status != c.exit_status)
    fail("exit status " + std::to_string(a.status) + ", expected " + std::to_string(c.exit_status));
  std::vector<std::string> headlines;
  const std::vector<std::string> lines_a = check_lines(a.err, &headlines);
  const size_t stored = a.checks["reports"].size();
  const size_t want = c.report_count >= 0 ? static_cast<size_t>(c.report_count) : c.reports.size();
  if (stored != want)
    fail("checks.json has " + std::to_string(stored) + " reports, expected " + std::to_string(want));
  const size_t listed = c.report_count >= 0 ? std::min(c.reports.size(), headlines.size()) : headlines.size();
  if (c.report_count < 0 && headlines.size() != c.reports.size())
    fail("stderr has " + std::to_string(headlines.size()) + " reports, expected " +
         std::to_string(c.reports.size()));
  for (size_t i = 0; i < c.reports.size() && i < listed; ++i)
    if (headlines[i] != c.reports[i])
      fail("report " + std::to_string(i + 1) + ":\n  got  " + headlines[i] + "\n  want " + c.reports[i]);
  for (const auto& s : c.stderr_has)
    if (a.err.find(s) == std::string::npos) fail("stderr lacks: " + s);

  // Metamorphic: the same reports under other latencies and bandwidths, and in --timing-only.
  const Result b = run(sim, dir,
                       c.args +
                           " --timing-only --set gm.read.latency_cycles=40 --set gm.read.bytes_per_cycle=20 "
                           "--set mte1.to_l0a.bytes_per_cycle=16 --set cube.head_cycles=90",
                       "slow");
  const Result d = run(sim, dir,
                       c.args +
                           " --config atlas-a3 --timing-only --set cube.latency_cycles=500 "
                           "--set fixpipe.elements_per_cycle=4 --set issue.sync_cycles=7 "
                           "--set gm.write.latency_cycles=3",
                       "other");
  for (const Result* r : {&b, &d}) {
    if (check_lines(r->err, nullptr) != lines_a)
      fail("stderr reports differ under another config:\n" + r->err);
    nlohmann::json x = a.checks, y = r->checks;
    strip_timing(x);
    strip_timing(y);
    if (x.dump() != y.dump()) fail("checks.json differs under another config");
    if ((r->status == 3) != (a.status == 3) && a.status != 1)
      fail("exit status differs under another config");
  }
  if (failures) {
    std::cerr << "--- stderr (default config) ---\n" << a.err;
    std::cerr << "(case files kept in " << dir << ")\n";
    return 1;
  }
  fs::remove_all(dir);
  std::cout << case_path.filename().string() << ": ok (" << stored << " report(s), same under 3 configs)\n";
  return 0;
}
