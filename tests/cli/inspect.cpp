#include "inspect.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <regex>
#include <stdexcept>

namespace inspect {

std::string tiled_trace() {
  return std::string(AICORE_TRACES_DIR) + "/tiled_sparse_512x1024x512/tiled_sparse_512x1024x512.trace";
}

harness::Result run_ok(const harness::TempDir& dir, const std::string& trace, const std::string& extra) {
  const auto r = harness::run("run " + trace + " --out " + dir.file("out") + " --timing-only " + extra);
  INFO(r.err);
  REQUIRE(r.status == 0);
  return r;
}

std::vector<Row> rows(const harness::TempDir& dir) {
  std::vector<std::string> h;
  std::vector<Row> out;
  const auto col = [&](const std::vector<std::string>& r, const std::string& name) -> const std::string& {
    for (size_t i = 0; i < h.size(); ++i)
      if (h[i] == name) return r.at(i);
    throw std::runtime_error("no column " + name);
  };
  for (const auto& r : harness::csv_rows(dir.file("out/instr.csv"), &h)) {
    Row x;
    x.index = harness::csv_u64(h, r, "index");
    x.line = harness::csv_u64(h, r, "line");
    x.issue = harness::csv_u64(h, r, "issue_cycle");
    x.start = harness::csv_u64(h, r, "start_cycle");
    x.busy_end = harness::csv_u64(h, r, "busy_end_cycle");
    x.end = harness::csv_u64(h, r, "end_cycle");
    x.bytes = harness::csv_u64(h, r, "bytes");
    x.wait = harness::csv_u64(h, r, "wait_cycles");
    x.mnemonic = col(r, "mnemonic");
    x.pipe = col(r, "pipe");
    x.wait_cause = col(r, "wait_cause");
    out.push_back(x);
  }
  std::sort(out.begin(), out.end(), [](const Row& a, const Row& b) { return a.index < b.index; });
  return out;
}

std::map<uint64_t, std::string> flags_by_line(const std::string& trace) {
  std::ifstream f(trace);
  std::string text;
  std::map<uint64_t, std::string> out;
  const std::regex re(R"(^\s*(SetFlag|WaitFlag)\s+event=(\S+)\s+id=(\d+))");
  for (uint64_t line = 1; std::getline(f, text); ++line) {
    std::smatch m;
    if (std::regex_search(text, m, re)) out[line] = m[2].str() + "/" + m[3].str();
  }
  return out;
}

std::string lane(const std::string& pipe) {
  if (pipe == "S") return "SCALAR";
  if (pipe == "M") return "CUBE";
  if (pipe == "FIX") return "FIXP";
  return pipe;
}

}  // namespace inspect
