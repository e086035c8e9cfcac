// Signals over time derived from the observer callbacks, for the waveform (waves.vcd) and the
// timeline's counter tracks: per pipe busy, current instruction index and line, queue depth;
// bytes per cycle on each data path; each flag's state. Changes are released in time order,
// one batch per cycle, holding only the values that changed, to every sink (one tracker feeds
// both files when both are asked for), so writers can stream them.
//
// Pipes report out of step with each other, so changes wait in a min-heap until no later
// callback can carry an earlier cycle. That bound comes from the callbacks themselves: an
// instruction starts no earlier than its issue cycle and the end of its pipe's previous
// occupancy, issue cycles never decrease, and its queue entry (on_queue +1) is reported before
// anything else about it. The heap therefore holds only the span the pipes are apart.
#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <queue>
#include <string>
#include <vector>

#include "aicore/model/observer.hpp"
#include "aicore/report/stats.hpp"
#include "aicore/report/window.hpp"

namespace aicore::report {

enum class SignalKind : uint8_t { Bit, Vector, Real };

// The data paths that go through the L2 (their transfers get an L2 hit-rate and HBM signal).
constexpr Path kGmPaths[] = {Path::GmToL1, Path::L0CToGm};
constexpr size_t kGmPathCount = 2;

struct SignalInfo {
  std::string scope;  // nested scopes joined by '/' ("core1/MTE2"); a chip of one core has no core scope
  std::string name;
  SignalKind kind;
  uint32_t width;
};

// A value: integers as is, kUnknown for "no value" (VCD x), reals as the bits of a double.
constexpr uint64_t kUnknown = ~uint64_t{0};
uint64_t real_bits(double v);
double real_value(uint64_t bits);

struct SignalValue {
  uint32_t signal;
  uint64_t value;
};

class SignalSink {
 public:
  virtual ~SignalSink() = default;
  // The values at `cycle`: every signal when `initial` (the first cycle of the window), else
  // those that changed. Calls come in increasing cycle order.
  virtual void on_values(uint64_t cycle, const std::vector<SignalValue>& values, bool initial) = 0;
};

// Lane names as msprof shows them (SCALAR, MTE2, MTE1, CUBE, FIXP, MTE3).
const char* lane_name(isa::Pipe p);

class SignalTracker : public model::Observer {
 public:
  // `waves`: also busy, instruction, line and flag signals (the VCD); otherwise only queue
  // depths and path traffic (the timeline's counters). One set of signals per core.
  SignalTracker(CycleWindow window, bool waves, uint32_t cores = 1);
  void add_sink(SignalSink& sink) { sinks_.push_back(&sink); }

  const std::vector<SignalInfo>& signals() const { return info_; }
  const CycleWindow& window() const { return window_; }
  uint32_t cores() const { return cores_; }
  int queue_signal(isa::Pipe p, isa::CoreId c = {}) const;  // -1 for the scalar unit
  int path_signal(Path p, isa::CoreId c = {}) const;
  // The GM paths' L2 hit rate and HBM bytes per cycle while a transfer runs (-1: not a GM path).
  int l2_signal(Path p, bool hbm, isa::CoreId c = {}) const;
  isa::CoreId core_of(uint32_t signal) const { return isa::CoreId{core_of_[signal]}; }

  void on_instruction(const model::InstrRecord& r) override;
  void on_flag(const model::FlagEvent& e) override;
  void on_queue(isa::CoreId core, isa::Pipe pipe, uint64_t cycle, int delta) override;
  // End of run: releases everything still held. The initial values are sent even when nothing
  // changed inside the window, provided the window starts by `end_cycle`.
  void finish(uint64_t end_cycle);
  // Changes that arrived for a cycle already released (a broken timing contract); clamped.
  uint64_t late_changes() const { return late_; }
  uint64_t last_released() const { return last_cycle_; }
  size_t held() const { return heap_.size(); }  // changes waiting for release (stays bounded)

 private:
  // Start/End set a pipe's busy, index and line at once (signal = the pipe, value = the
  // index): one heap entry instead of three.
  enum class Op : uint8_t { Set, Add, Start, End };
  struct Change {
    uint64_t value;
    uint32_t signal, line;
    Op op;
  };
  // The heap orders small keys (cycle, then push order) and the changes wait in a slab
  // (reused slots): sifting whole 40-byte changes was the tracker's main cost.
  struct Key {
    uint64_t cycle, seq;
    uint32_t slot;
  };
  struct Later {
    bool operator()(const Key& a, const Key& b) const {
      return a.cycle != b.cycle ? a.cycle > b.cycle : a.seq > b.seq;
    }
  };
  // `flag`: the value counts pending sets and shows as 0/1.
  uint32_t add(uint16_t core, const std::string& scope, const std::string& name, SignalKind kind,
               uint32_t width, uint64_t init, bool flag = false);
  std::string scope(uint16_t core, const std::string& inner) const;
  size_t at(isa::CoreId c, isa::Pipe p) const { return c.value * isa::kPipeCount + static_cast<size_t>(p); }
  void push(uint64_t cycle, int signal, uint64_t value, Op op = Op::Set, uint32_t line = 0);
  void apply(const Change& c);
  void touch(int signal, uint64_t value);
  uint64_t shown(uint32_t s) const;
  void advance();
  void release(uint64_t before);
  void send_initial(uint64_t cycle);
  void send(uint64_t cycle, bool initial);

  CycleWindow window_;
  bool waves_;
  uint32_t cores_;
  std::vector<uint16_t> core_of_;  // per signal
  std::vector<SignalSink*> sinks_;
  std::vector<SignalInfo> info_;
  std::vector<uint64_t> value_, shown_;  // current raw value (counts for Add), last sent
  std::vector<uint8_t> is_flag_, touched_;
  std::vector<uint32_t> touched_list_;
  std::vector<SignalValue> batch_;
  // Signal ids by at(core, pipe) (paths: core * kPathCount + path); -1 where a pipe has none.
  std::vector<int> busy_, index_, line_, queue_;
  std::vector<int> path_;
  std::vector<int> l2_hit_, hbm_;  // [core][kGmPaths index]
  std::vector<int> flag_;          // [core][src][dst][id] flattened, -1 for illegal pairs
  std::priority_queue<Key, std::vector<Key>, Later> heap_;
  std::vector<Change> slab_;
  std::vector<uint32_t> free_;
  uint64_t seq_ = 0;
  // The release bound: per pipe of each core the issue cycles of instructions reported queued
  // but not yet executed, and the end of its last occupancy; per core the latest issue cycle
  // seen; and the latest `now` of a callback (observer.hpp): nothing later comes before it.
  std::vector<std::deque<uint64_t>> pending_;
  std::vector<uint64_t> pipe_free_, issued_;
  uint64_t now_ = 0;
  uint64_t released_ = 0;  // every cycle < released_ has been sent (or dropped outside the window)
  uint64_t last_cycle_ = 0, late_ = 0;
  bool started_ = false, done_ = false;
};

}  // namespace aicore::report
