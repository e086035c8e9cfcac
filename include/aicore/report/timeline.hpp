// timeline.json (--timeline): Chrome trace-event JSON that reads the same in Perfetto
// (ui.perfetto.dev) and in the legacy catapult viewer behind chrome://tracing.
//
// - One thread lane per pipe, named like the msprof lanes (SCALAR, MTE2, MTE1, CUBE, FIXP, MTE3),
//   declared only when an instruction runs on it; one "X" slice per instruction (its occupancy,
//   start to busy_end) with its cycles, line, operands and waits in args.
// - The time axis counts cycles: one cycle is one nanosecond ("displayTimeUnit": "ns", ts and dur
//   in microseconds as the format says, so cycle c is ts c/1000, written exactly). Both viewers
//   keep whole nanoseconds (Perfetto stores integer ns; catapult nests slices by comparing times
//   rounded to its display unit), so at a real clock above 1 GHz a one-cycle instruction would be
//   less than their resolution and back-to-back ones would nest or vanish. Real time is
//   cycles / clock_mhz (the process name and otherData say the clock).
// - Flow arrows from each SetFlag to the WaitFlag it released, bound to the two slices themselves
//   ("bind_id", "flow_out" on the SetFlag, "flow_in" on the WaitFlag; ids from 1), never by
//   timestamp. A SetFlag's slice is held back until its WaitFlag shows (at most one per flag that
//   is set and not yet consumed), so no arrow is left without an end.
// - "C" counter tracks for queue depths and bytes per cycle on each data path: one sample per
//   counter and cycle, only for counters that change (a counter's value at the start of the window
//   is written just before its first change).
// Streamed: slices are written as they are reported, counters as the SignalTracker (shared with
// waves.vcd when both are written) releases them.
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

  // After the tracker's finish: writes the SetFlags still held and closes the JSON (InputError if
  // writing failed).
  void finish();

 private:
  // A SetFlag slice waiting for the WaitFlag that consumes its flag.
  struct HeldSet {
    isa::Instruction instr;
    model::InstrRecord record;  // record.instr points at `instr` once written
  };
  enum class Flow { None, Out, In };

  void on_values(uint64_t cycle, const std::vector<SignalValue>& values, bool initial) override;
  void ts(uint64_t cycle);  // cycle as microseconds on the one-ns-per-cycle axis
  void operands(const isa::Op& op);
  void begin_event();
  void declare_lane(isa::CoreId c, isa::Pipe p);
  void declare_process(isa::CoreId c);
  int pid_of(isa::CoreId c) const { return c.value + 1; }
  void slice(const model::InstrRecord& r, Flow flow, uint64_t flow_id);
  void write_held(size_t i, Flow flow, uint64_t flow_id);
  void counter_sample(uint64_t cycle, const SignalValue& v);

  std::string path_;
  TextOut out_;
  bool open_ = false;
  const SignalTracker& tracker_;
  const std::vector<model::TensorInfo>& tensors_;
  std::vector<std::string> gm_names_;
  std::string text_;  // one instruction's text, reused
  bool first_ = true;
  std::vector<uint8_t> lane_declared_;     // per core and pipe
  std::vector<uint8_t> process_declared_;  // per core
  std::string process_suffix_;             // " (config, MHz; time axis ...)" of every process name
  std::string trace_;                      // the trace's name, escaped for JSON
  std::vector<std::string> counter_name_, counter_arg_;  // per signal; empty: not a counter
  std::vector<uint8_t> counter_started_;                 // its first sample is written
  std::vector<SignalValue> initial_;                     // per signal: the value at the window's start
  uint64_t initial_cycle_ = 0;
  std::vector<HeldSet> held_;  // SetFlags shown, their flag not yet consumed
  // A flag consumed whose WaitFlag's slice is not yet written.
  struct Release {
    isa::CoreId core;
    uint64_t wait_index, set_index;
  };
  std::vector<Release> releases_;
  uint64_t next_flow_id_ = 1;
};

}  // namespace aicore::report
