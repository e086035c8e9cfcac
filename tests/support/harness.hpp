// The aicore-sim runs of the end-to-end tests (tests/cli, tests/sweep, tests/model): `run` commands
// on the published figures, a trace written and simulated, stats.json and instr.csv read back.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support.hpp"

namespace harness {

using test_support::Result;
using test_support::TempDir;

// `args` are shell-quoted by the caller where needed. A `run` without --config gets
// --config tests/published.yaml (the published figures, calibration keys off).
Result run(const std::string& args);
// Simulate `trace_text` (written to dir/t.trace), outputs in dir/out.
Result run_trace(const TempDir& dir, const std::string& trace_text, const std::string& extra = "");
nlohmann::json stats(const TempDir& dir);

// instr.csv rows as column-name -> value maps.
std::vector<std::vector<std::string>> csv_rows(const std::string& path, std::vector<std::string>* header);
uint64_t csv_u64(const std::vector<std::string>& header, const std::vector<std::string>& row,
                 const std::string& col);

}  // namespace harness
