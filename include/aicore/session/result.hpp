// What a run returns: its status and exit status, the figures a caller asks first (cycles, time,
// bound pipe, per-pipe figures), the whole stats.json and checks.json documents, the checker's
// counts, every message, and on request one row per instruction and the GM tensors' bytes.
// The same object whether the run happened in this process or in a child (process.hpp).
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "aicore/session/diagnostics.hpp"

namespace aicore::session {

// stats.json's "status". check_error: the run completed but the checker (in its error mode)
// reported errors.
enum class RunStatus : uint8_t { Completed, Mismatch, CheckError, InputError, Fault };
const char* to_string(RunStatus s);  // "completed", "mismatch", "check_error", "input_error", "fault"
int exit_status(RunStatus s);        // 0, 1, 3, 2, 3 (docs/cli.md, Exit status)

// Exit statuses of every aicore-sim command (docs/cli.md).
constexpr int kExitOk = 0, kExitMismatch = 1, kExitBadInput = 2, kExitFault = 3;

// One pipe's figures over the chip (stats.json pipes.<P>, summed over the cores).
struct PipeFigures {
  std::string pipe;  // S, MTE2, MTE1, M, FIX
  uint64_t busy_cycles = 0, active_cycles = 0, stall_cycles = 0, instructions = 0;
  double busy_ratio = 0;
};

// One instruction as instr.csv has it (docs/cli.md, instr.csv).
struct InstrRow {
  uint16_t core = 0;
  uint64_t index = 0;
  uint32_t line = 0;
  std::string mnemonic, pipe;
  uint64_t issue_cycle = 0, start_cycle = 0, busy_end_cycle = 0, end_cycle = 0;
  uint64_t bytes = 0, macs = 0, dense_macs = 0, wait_cycles = 0;
  std::string wait_cause;
  uint64_t queue_wait_cycles = 0;
};

// An .expect directive's outcome.
struct ExpectResult {
  std::string tensor, file;
  bool match = false;
  uint64_t bytes = 0;                    // the tensor's size
  uint64_t differing = 0, elements = 0;  // elements that differ, of how many
  std::string actual_file;               // where the tensor the run produced went (a mismatch)
};

// A GM tensor after the run (RunOptions::keep_tensors).
struct TensorBytes {
  std::string name;
  std::vector<uint8_t> bytes;
};

struct RunResult {
  RunStatus status = RunStatus::InputError;
  int exit_status = kExitBadInput;
  std::string message;  // the fault or error ("" when there is none)
  // From stats.json (zero when the run never started the model):
  uint64_t cycles = 0, instructions = 0;
  double time_us = 0;
  std::string bound_pipe;
  std::vector<PipeFigures> pipes;
  nlohmann::json stats;   // stats.json (null when the model never started)
  nlohmann::json checks;  // checks.json: reports, summary, mode (null when the model never started)
  uint64_t check_errors = 0, check_warnings = 0;
  std::vector<InstrRow> rows;  // RunOptions::keep_instructions, in the order the model reported them
  std::vector<ExpectResult> expects;
  std::vector<TensorBytes> tensors;  // RunOptions::keep_tensors (not timing-only)
  std::vector<std::string> files;    // every file written, in order
  std::vector<Message> messages;     // every note, warning and error, in order
  std::string summary;               // the one-screen summary (docs/inspecting.md)
};

// Fills status/exit_status/message for a run that stopped before the model started.
RunResult failed_result(RunStatus status, const std::string& message);

// The result as JSON and back (how a child process hands its result to its parent; the
// Python API's dict). Tensor bytes travel as lowercase hex.
nlohmann::json to_json(const RunResult& r);
RunResult result_from_json(const nlohmann::json& j);

}  // namespace aicore::session
