// timeline.json (--timeline): Chrome trace-event JSON for Perfetto (ui.perfetto.dev) and
// chrome://tracing. One thread track per pipe named like the msprof lanes (SCALAR, MTE2, MTE1,
// CUBE, FIXP, MTE3), one "X" slice per instruction (its occupancy, start to busy_end), flow
// arrows ("s"/"f", bound to the enclosing slice) from each SetFlag to the WaitFlag it released,
// and "C" counter tracks for queue depths and bytes per cycle on each data path.
// Timestamps are microseconds at the configured clock; every slice carries its cycles in args.
// Streamed: slices are written as they are reported, counters as the SignalTracker (shared
// with waves.vcd when both are written) releases them; only flags set and not yet consumed
// are remembered.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "aicore/config/config.hpp"
#include "aicore/model/global_memory.hpp"
#include "aicore/model/observer.hpp"
#include "aicore/report/signals.hpp"
#include "aicore/report/text_out.hpp"

namespace aicore::report {

class TimelineWriter : public model::Observer, private SignalSink {
 public:
  // `tensors` (the .gm declarations, growing during the run) names GM operands; registers
  // with `signals` for the counters and takes its window. InputError if the file cannot be
  // created.
  TimelineWriter(const std::string& path, const config::Config& cfg, const std::string& trace,
                 SignalTracker& signals, const std::vector<model::TensorInfo>& tensors);
  ~TimelineWriter() override;
  TimelineWriter(const TimelineWriter&) = delete;
  TimelineWriter& operator=(const TimelineWriter&) = delete;

  void on_instruction(const model::InstrRecord& r) override;
  void on_flag(const model::FlagEvent& e) override;

  // After the tracker's finish: closes the JSON (InputError if writing failed).
  void finish();

 private:
  void on_values(uint64_t cycle, const std::vector<SignalValue>& values, bool initial) override;
  uint64_t ns(uint64_t cycle) const;
  void us(uint64_t ns, bool start);  // writes microseconds (see timeline.cpp)
  void operands(const isa::Op& op);
  void begin_event();
  void flow(char phase, uint64_t id, const isa::Instruction& instr, isa::Pipe pipe, uint64_t cycle);

  std::string path_;
  TextOut out_;
  bool open_ = false;
  double mhz_;
  const SignalTracker& tracker_;
  const std::vector<model::TensorInfo>& tensors_;
  std::vector<std::string> gm_names_;
  std::string text_;  // one instruction's text, reused
  bool first_ = true;
  std::vector<std::string> counter_name_, counter_arg_;  // per signal; empty: not a counter
  std::vector<uint64_t> open_sets_;                      // SetFlags whose "s" was written
  std::vector<std::pair<uint64_t, uint64_t>>
      releases_;  // (WaitFlag, SetFlag) consumed, slice not yet written
};

}  // namespace aicore::report
