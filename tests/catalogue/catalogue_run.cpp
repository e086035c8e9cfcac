// Runs one case of the bad-input catalogue (tests/catalogue/cases/*.case, format in README.md):
// materialises its files in a fresh directory, runs aicore-sim there with a time limit and checks
// the exit status, message fragments, stats.json, instr.csv and peak memory. A case never
// passes when the simulator dies by a signal or runs past the limit.
//
//   catalogue_run AICORE_SIM CASE_FILE [TRACES_DIR]
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "support.hpp"

namespace fs = std::filesystem;

namespace {

struct Case {
  std::string name;
  int exit_status = -1;
  std::vector<std::string> stderr_has, stdout_has, stderr_lacks;
  std::string command = "run t.trace --out {out}";
  std::string args;
  std::string stats_status;  // expected stats.json "status" ("" = not checked)
  long csv_rows = -1;        // expected instr.csv data rows (-1 = not checked)
  double timeout_s = 60;
  double max_rss_mb = 0;                // 0 = not checked
  std::vector<std::string> same_twice;  // output files that must be byte-identical over two runs
  std::vector<std::string> json_files;  // output files that must exist and parse as JSON
  std::vector<std::string> files;       // output files that must exist and not be empty
};

[[noreturn]] void die(const std::string& msg) {
  std::cerr << "catalogue: " << msg << "\n";
  std::exit(2);
}

std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

std::vector<std::string> words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> w;
  for (std::string x; in >> x;) w.push_back(x);
  return w;
}

using test_support::slurp;

// Generator lines of a "==gen" section (README.md): text, repeat, random.
void generate(std::ofstream& out, const std::string& line) {
  std::istringstream in(line);
  std::string op;
  in >> op;
  if (op == "text") {
    std::string rest;
    std::getline(in, rest);
    out << (rest.empty() ? rest : rest.substr(1)) << "\n";
  } else if (op == "repeat") {
    uint64_t n = 0;
    std::string unit;
    in >> n >> unit;
    if (unit.empty()) die("repeat needs COUNT TEXT");
    std::string chunk;
    while (chunk.size() < (1u << 16)) chunk += unit;
    const uint64_t units_per_chunk = chunk.size() / unit.size();
    for (; n >= units_per_chunk; n -= units_per_chunk)
      out.write(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    for (; n > 0; --n) out << unit;
  } else if (op == "newline") {
    out << "\n";
  } else if (op == "random") {
    uint64_t n = 0, seed = 1;
    in >> n >> seed;
    uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
    for (uint64_t i = 0; i < n; ++i) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      out.put(static_cast<char>(x >> 24));
    }
  } else {
    die("unknown generator '" + op + "'");
  }
}

Case load_case(const std::string& path, const fs::path& dir) {
  std::ifstream in(path, std::ios::binary);
  if (!in) die("cannot read " + path);
  Case c;
  c.name = fs::path(path).stem().string();
  std::string line;
  enum class Mode { Header, Text, Hex, Gen } mode = Mode::Header;
  std::ofstream file;
  const auto open = [&](const std::string& name) {
    if (file.is_open()) file.close();
    if (name.empty() || name.find("..") != std::string::npos) die("bad file name '" + name + "'");
    fs::create_directories((dir / name).parent_path());
    file.open(dir / name, std::ios::binary | std::ios::trunc);
    if (!file) die("cannot create " + name);
  };
  while (std::getline(in, line)) {
    if (line.rfind("==", 0) == 0) {
      const std::vector<std::string> w = words(line.substr(2));
      if (w.empty()) die("section without a file name: " + line);
      if (w[0] == "hex" || w[0] == "gen") {
        if (w.size() != 2) die("expected '==" + w[0] + " NAME': " + line);
        mode = w[0] == "hex" ? Mode::Hex : Mode::Gen;
        open(w[1]);
      } else {
        if (w.size() != 1) die("expected '== NAME': " + line);
        mode = Mode::Text;
        open(w[0]);
      }
      continue;
    }
    switch (mode) {
      case Mode::Text:
        file << line << "\n";
        break;
      case Mode::Hex:
        for (const std::string& h : words(line)) file.put(static_cast<char>(std::stoul(h, nullptr, 16)));
        break;
      case Mode::Gen:
        if (!trim(line).empty()) generate(file, trim(line));
        break;
      case Mode::Header: {
        if (trim(line).empty() || line[0] == '#') break;
        const size_t colon = line.find(':');
        if (colon == std::string::npos) die("expected 'key: value': " + line);
        const std::string key = trim(line.substr(0, colon)), value = trim(line.substr(colon + 1));
        if (key == "exit")
          c.exit_status = std::stoi(value);
        else if (key == "stderr")
          c.stderr_has.push_back(value);
        else if (key == "stderr-lacks")
          c.stderr_lacks.push_back(value);
        else if (key == "stdout")
          c.stdout_has.push_back(value);
        else if (key == "command")
          c.command = value;
        else if (key == "args")
          c.args = value;
        else if (key == "stats")
          c.stats_status = value;
        else if (key == "csv-rows")
          c.csv_rows = std::stol(value);
        else if (key == "timeout")
          c.timeout_s = std::stod(value);
        else if (key == "max-rss-mb")
          c.max_rss_mb = std::stod(value);
        else if (key == "same-twice")
          c.same_twice = words(value);
        else if (key == "json")
          c.json_files = words(value);
        else if (key == "files")
          c.files = words(value);
        else
          die("unknown header key '" + key + "'");
        break;
      }
    }
  }
  if (file.is_open()) file.close();
  if (c.exit_status < 0) die(path + ": missing 'exit:'");
  return c;
}

std::string substitute(std::string s, const std::string& key, const std::string& value) {
  for (size_t p; (p = s.find(key)) != std::string::npos;) s.replace(p, key.size(), value);
  return s;
}

struct Run {
  int exit_status = -1;  // -1: killed by a signal or the time limit
  int signal = 0;
  bool timed_out = false;
  double seconds = 0, max_rss_mb = 0;
  std::string out, err;
};

Run run(const std::string& sim, const std::vector<std::string>& args, const fs::path& dir, double timeout_s,
        const std::string& tag) {
  const fs::path out_file = dir / ("stdout" + tag), err_file = dir / ("stderr" + tag);
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid < 0) die("fork failed");
  if (pid == 0) {
    if (chdir(dir.c_str()) != 0) _exit(126);
    const int o = open(out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int e = open(err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int n = open("/dev/null", O_RDONLY);
    if (o < 0 || e < 0 || n < 0) _exit(126);
    dup2(n, 0);
    dup2(o, 1);
    dup2(e, 2);
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(sim.c_str()));
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(sim.c_str(), argv.data());
    _exit(127);
  }
  Run r;
  int status = 0;
  struct rusage ru {};
  for (;;) {
    const pid_t w = wait4(pid, &status, WNOHANG, &ru);
    if (w == pid) break;
    if (w < 0) die("wait4 failed");
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (elapsed > timeout_s && !r.timed_out) {
      r.timed_out = true;
      kill(pid, SIGKILL);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.max_rss_mb = static_cast<double>(ru.ru_maxrss) / 1024.0;
  if (WIFEXITED(status)) r.exit_status = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  r.out = slurp(out_file);
  r.err = slurp(err_file);
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) die("usage: catalogue_run AICORE_SIM CASE_FILE [TRACES_DIR]");
  const std::string sim = fs::absolute(argv[1]).string();
  const std::string case_path = argv[2];
  const std::string traces = argc > 3 ? fs::absolute(argv[3]).string() : "";

  std::string tmpl = (fs::temp_directory_path() / "aicore-catalogue-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) die("mkdtemp failed");
  const fs::path dir = tmpl;
  const Case c = load_case(case_path, dir);

  std::vector<std::string> failures;
  const int runs = c.same_twice.empty() ? 1 : 2;
  std::vector<Run> results;
  for (int i = 0; i < runs; ++i) {
    const std::string out = i == 0 ? "out" : "out2";
    std::string cmd = c.command + " " + c.args;
    cmd = substitute(substitute(substitute(cmd, "{out}", out), "{traces}", traces), "{dir}", dir.string());
    results.push_back(run(sim, words(cmd), dir, c.timeout_s, std::to_string(i)));
    const Run& r = results.back();
    std::cout << c.name << ": run " << i + 1 << ": aicore-sim " << cmd << "\n  exit " << r.exit_status
              << (r.signal ? " signal " + std::to_string(r.signal) : "")
              << (r.timed_out ? " (timed out)" : "") << ", " << r.seconds << " s, peak RSS " << r.max_rss_mb
              << " MB\n";
    if (r.timed_out)
      failures.push_back("did not finish within " + std::to_string(c.timeout_s) + " s");
    else if (r.signal)
      failures.push_back("died by signal " + std::to_string(r.signal) + " (" + strsignal(r.signal) + ")");
    else if (r.exit_status != c.exit_status)
      failures.push_back("exit status " + std::to_string(r.exit_status) + ", expected " +
                         std::to_string(c.exit_status));
  }
  const Run& r = results.front();
  for (const std::string& f : c.stderr_has)
    if (r.err.find(f) == std::string::npos) failures.push_back("stderr lacks '" + f + "'");
  for (const std::string& f : c.stderr_lacks)
    if (r.err.find(f) != std::string::npos) failures.push_back("stderr has '" + f + "'");
  // Sanitizer builds: any report, even a warning that ASan lost track of the stack, fails the case.
  for (const char* f : {"AddressSanitizer", "LeakSanitizer", "runtime error:", "WARNING: ASan"})
    if (r.err.find(f) != std::string::npos) failures.push_back(std::string("sanitizer report: '") + f + "'");
  for (const std::string& f : c.stdout_has)
    if (r.out.find(f) == std::string::npos) failures.push_back("stdout lacks '" + f + "'");
  if (c.max_rss_mb > 0 && r.max_rss_mb > c.max_rss_mb)
    failures.push_back("peak RSS " + std::to_string(r.max_rss_mb) + " MB > " + std::to_string(c.max_rss_mb) +
                       " MB");
  if (!c.stats_status.empty()) {
    const fs::path p = dir / "out" / "stats.json";
    if (!fs::exists(p)) {
      failures.push_back("no out/stats.json");
    } else {
      try {
        const nlohmann::json j = nlohmann::json::parse(slurp(p));
        if (j.value("status", "") != c.stats_status)
          failures.push_back("stats.json status '" + j.value("status", "") + "', expected '" +
                             c.stats_status + "'");
        const bool completed = c.stats_status == "completed";  // a mismatch or a fault is not
        if (j.value("completed", !completed) != completed)
          failures.push_back(std::string("stats.json completed is not ") + (completed ? "true" : "false"));
      } catch (const std::exception& e) {
        failures.push_back(std::string("stats.json does not parse: ") + e.what());
      }
    }
  }
  if (c.csv_rows >= 0) {
    const fs::path p = dir / "out" / "instr.csv";
    if (!fs::exists(p)) {
      failures.push_back("no out/instr.csv");
    } else {
      const std::string text = slurp(p);
      long lines = 0;
      for (char ch : text) lines += ch == '\n';
      if (!text.empty() && text.back() != '\n')
        failures.push_back("instr.csv ends inside a row (not flushed)");
      if (lines - 1 != c.csv_rows)
        failures.push_back("instr.csv has " + std::to_string(lines - 1) + " rows, expected " +
                           std::to_string(c.csv_rows));
    }
  }
  for (const std::string& f : c.json_files) {
    try {
      const nlohmann::json j = nlohmann::json::parse(slurp(dir / "out" / f));
      if (j.is_null()) failures.push_back("out/" + f + " is null");
    } catch (const std::exception& e) {
      failures.push_back("out/" + f + " is missing or not valid JSON: " + e.what());
    }
  }
  for (const std::string& f : c.files) {
    std::error_code ec;
    if (fs::file_size(dir / "out" / f, ec) == 0 || ec)
      failures.push_back("out/" + f + " is missing or empty");
  }
  for (const std::string& f : c.same_twice) {
    const fs::path a = dir / "out" / f, b = dir / "out2" / f;
    if (!fs::exists(a) || !fs::exists(b))
      failures.push_back(f + " was not written by both runs");
    else if (slurp(a) != slurp(b))
      failures.push_back(f + " differs between two runs of the same inputs");
  }

  if (!failures.empty()) {
    std::cout << "--- stdout\n"
              << r.out.substr(0, 4000) << "--- stderr\n"
              << r.err.substr(0, 4000) << "---\n";
    for (const std::string& f : failures) std::cout << "FAIL " << c.name << ": " << f << "\n";
    if (std::getenv("CATALOGUE_KEEP")) {
      std::cout << "(case files kept in " << dir.string() << ")\n";
    } else {
      std::error_code ec;
      fs::remove_all(dir, ec);
      std::cout << "(set CATALOGUE_KEEP=1 to keep the case's files)\n";
    }
    return 1;
  }
  std::error_code ec;
  fs::remove_all(dir, ec);
  std::cout << "PASS " << c.name << "\n";
  return 0;
}
