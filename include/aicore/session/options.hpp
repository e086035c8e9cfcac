// What a run is asked to do besides its instructions: the configuration to load, the files to
// write, the checker, and what its result keeps. `aicore-sim run`'s options and a kernel
// program's launch options ($AICORE_SIM_ARGS, launch_args.hpp) are both this.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "aicore/report/window.hpp"

namespace aicore::session {

// The race/sync checker (docs/checking.md): errors fail the run (exit 3), warn only reports,
// none turns it off.
enum class CheckMode : uint8_t { Error, Warn, None };
const char* to_string(CheckMode m);  // "error", "warn", "none"
std::optional<CheckMode> check_mode_from(const std::string& text);
// "--check must be error, warn or none, not 'warm'; did you mean 'warn'?"
std::string check_mode_error(const std::string& text);

struct RunOptions {
  std::string config = "atlas-a2";  // a preset or a YAML file (an overlay's base: chain resolved)
  std::vector<std::string> sets;    // KEY=VALUE overrides, later ones win
  std::string out_dir = "out";      // created if missing; "" = write no file at all
  bool timing_only = false;         // cycles without data: nothing allocated or computed
  bool instr_log = false;           // OUT/instr.csv
  bool timeline = false;            // OUT/timeline.json
  bool vcd = false;                 // OUT/waves.vcd
  std::string window;               // "START:END": what timeline.json and waves.vcd keep ("" = all)
  CheckMode check = CheckMode::Error;
  bool quiet = false;              // no summary, .expect results, "wrote" lines or notes on the streams
  int verbosity = 0;               // the log on stderr: 1 set-up and end, 2 every instruction (process-wide)
  bool keep_instructions = false;  // RunResult::rows: one row per instruction (what instr.csv holds)
  bool keep_tensors = false;       // RunResult::tensors: every GM tensor's bytes after a completed run
};

// What is wrong with the options on their own (a window that cannot parse, a window with neither
// --timeline nor --vcd); "" when nothing is. `window` receives the parsed window.
std::string options_error(const RunOptions& o, report::CycleWindow* window = nullptr);

}  // namespace aicore::session
