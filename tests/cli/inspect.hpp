// Shared by the inspection tests: the tiled sparse GEMM run with every output, its instr.csv
// rows, and the flag each SetFlag/WaitFlag line of the trace names.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "harness.hpp"

namespace inspect {

struct Row {
  uint64_t index = 0, line = 0, issue = 0, start = 0, busy_end = 0, end = 0, bytes = 0, wait = 0;
  std::string mnemonic, pipe, wait_cause;
};

std::string tiled_trace();  // traces/tiled_sparse_512x1024x512/....trace
// Runs `trace` into dir/out with `extra` options; fails the test unless it exits 0.
harness::Result run_ok(const harness::TempDir& dir, const std::string& trace, const std::string& extra);
std::vector<Row> rows(const harness::TempDir& dir);  // out/instr.csv, in index order
// Line -> "MTE2_MTE1/0" for every SetFlag and WaitFlag of the trace.
std::map<uint64_t, std::string> flags_by_line(const std::string& trace);
// The msprof lane name of an instr.csv pipe.
std::string lane(const std::string& pipe);

}  // namespace inspect
