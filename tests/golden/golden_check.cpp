// Timing goldens: runs one shipped trace or kernel manifest (timing-only, instr.csv on) and
// compares its cycles with the checked-in expectation, so a timing change shows up as a failing
// test until the goldens are regenerated and the diff reviewed in the commit.
//
//   golden_check AICORE_SIM TRACE GOLDEN_DIR            compare (exit 1 with the differences)
//   golden_check AICORE_SIM TRACE GOLDEN_DIR --update   rewrite GOLDEN_DIR/{stats.json,instr.csv}
//
// stats.json here is the timing part of the run's stats.json (cycles, instructions, per pipe and
// per core busy/stall/instructions/waits); instr.csv is the run's, rows sorted by (core, index)
// so that the order in which simultaneous instructions are reported does not count.
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

json pipes_of(const json& j) {
  json out;
  for (const auto& [name, p] : j.at("pipes").items())
    out[name] = {{"busy_cycles", p.at("busy_cycles")},
                 {"stall_cycles", p.at("stall_cycles")},
                 {"instructions", p.at("instructions")},
                 {"wait_cycles", p.at("wait_cycles")}};
  return out;
}

json timing_of(const json& s) {
  json t = {{"cycles", s.at("cycles")},
            {"instructions", s.at("instructions")},
            {"pipes", pipes_of(s)},
            {"bound_pipe", s.at("summary").at("bound_pipe")}};
  for (const json& c : s.at("cores"))
    t["cores"].push_back({{"core", c.at("core")}, {"cycles", c.at("cycles")}, {"pipes", pipes_of(c)}});
  return t;
}

// instr.csv with its rows in (core, index) order; the header stays first.
std::string sorted_rows(const std::string& csv) {
  std::istringstream in(csv);
  std::string header, line;
  std::getline(in, header);
  std::vector<std::tuple<uint64_t, uint64_t, std::string>> rows;
  while (std::getline(in, line)) {
    const uint64_t index = std::stoull(line.substr(0, line.find(',')));
    const uint64_t core = std::stoull(line.substr(line.rfind(',') + 1));
    rows.emplace_back(core, index, line);
  }
  std::sort(rows.begin(), rows.end());
  std::string out = header + "\n";
  for (const auto& r : rows) out += std::get<2>(r) + "\n";
  return out;
}

// Line-by-line differences, at most `max` of them.
std::string diff_lines(const std::string& want, const std::string& got, int max = 10) {
  std::istringstream a(want), b(got);
  std::string la, lb, out;
  for (int line = 1, shown = 0; shown < max; ++line) {
    const bool ha = static_cast<bool>(std::getline(a, la)), hb = static_cast<bool>(std::getline(b, lb));
    if (!ha && !hb) break;
    if (ha && hb && la == lb) continue;
    out += "  line " + std::to_string(line) + ":\n    golden: " + (ha ? la : "(none)") +
           "\n    now:    " + (hb ? lb : "(none)") + "\n";
    ++shown;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::cerr << "usage: golden_check AICORE_SIM TRACE GOLDEN_DIR [--update]\n";
    return 2;
  }
  const std::string sim = argv[1], trace = argv[2];
  const fs::path golden = argv[3];
  const bool update = argc > 4 && std::string(argv[4]) == "--update";
  const fs::path out = fs::temp_directory_path() / ("aicore-golden-" + std::to_string(getpid()));
  const std::string cmd = sim + " run '" + trace + "' --timing-only --instr-log -q --check none --out '" +
                          out.string() + "' >/dev/null 2>" + (out.string() + ".err");
  const int raw = std::system(cmd.c_str());
  if (!WIFEXITED(raw) || WEXITSTATUS(raw) != 0) {
    std::cerr << "golden_check: the run failed (" << raw << "): " << cmd << "\n"
              << slurp(out.string() + ".err");
    return 1;
  }
  const std::string stats = timing_of(json::parse(slurp(out / "stats.json"))).dump(1) + "\n";
  const std::string csv = sorted_rows(slurp(out / "instr.csv"));
  fs::remove_all(out);
  fs::remove(out.string() + ".err");
  if (update) {
    fs::create_directories(golden);
    std::ofstream(golden / "stats.json", std::ios::binary) << stats;
    std::ofstream(golden / "instr.csv", std::ios::binary) << csv;
    std::cout << "updated " << golden.string() << "\n";
    return 0;
  }
  int status = 0;
  for (const auto& [file, now] :
       {std::pair<std::string, std::string>{"stats.json", stats}, {"instr.csv", csv}}) {
    const std::string want = slurp(golden / file);
    if (want == now) continue;
    std::cerr << trace << ": " << file << " differs from " << (golden / file).string() << ":\n"
              << diff_lines(want, now);
    status = 1;
  }
  if (status) std::cerr << "a deliberate timing change? regenerate with: bash scripts/update-goldens.sh\n";
  return status;
}
