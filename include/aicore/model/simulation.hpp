// One simulated Cube core running one trace: elaborates the SystemC modules, runs to the end
// of the trace (or the first fault), and exposes what the reports and the CLI need. SystemC
// elaboration is process-global: create at most one Simulation per process.
#pragma once
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "aicore/config/config.hpp"
#include "aicore/model/fault.hpp"
#include "aicore/model/observer.hpp"
#include "aicore/trace/statement.hpp"

namespace aicore::model {

struct PipeSummary {
  uint64_t busy_cycles = 0, stall_cycles = 0, instructions = 0;
};

struct MemorySummary {
  uint64_t bytes_read = 0, bytes_written = 0;
};

struct RunSummary {
  bool completed = false;     // every instruction ran
  uint64_t cycles = 0;        // the cycle at which the last instruction finished
  uint64_t instructions = 0;  // issued instructions
  std::array<PipeSummary, isa::kPipeCount> pipes{};
  std::array<MemorySummary, isa::kSpaceCount> memories{};
  uint32_t flags_left_set = 0;
  std::optional<SimFault> fault;          // exit 3
  std::optional<InputError> input_error;  // exit 2 (met while streaming the trace)
};

class Simulation {
 public:
  // Opens the trace (InputError if it cannot) and elaborates the model.
  Simulation(const config::Config& cfg, const std::string& trace_path, bool timing_only);
  ~Simulation();

  void add_observer(Observer* o);
  // Before run(): told of every instruction in program order (the race checker).
  void set_issue_hook(IssueHook* h);
  RunSummary run();  // once

  // After run(): GM tensors (data is null in timing-only runs) and the trace's .out/.expect.
  const std::vector<trace::GmDecl>& tensors() const;
  const uint8_t* tensor_data(uint32_t id) const;
  const std::vector<trace::OutDecl>& outs() const;
  const std::vector<trace::ExpectDecl>& expects() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace aicore::model
