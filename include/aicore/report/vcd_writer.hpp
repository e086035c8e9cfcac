// waves.vcd (--vcd): per pipe busy, current instruction index and line, queue depth; bytes per
// cycle on each data path; every legal flag's state: the signals of a SignalTracker built with
// waves. Values change only at events (never one line per cycle), are streamed as the tracker
// releases them, and follow its cycle window. One VCD time unit is one cycle (the model's
// convention: 1 cycle = 1 ns).
#pragma once
#include <string>
#include <vector>

#include "aicore/config/config.hpp"
#include "aicore/report/signals.hpp"
#include "aicore/report/text_out.hpp"

namespace aicore::report {

class VcdWriter : private SignalSink {
 public:
  // Writes the header and registers with `signals` (which must track waves and outlive
  // this). InputError if the file cannot be created.
  VcdWriter(const std::string& path, const config::Config& cfg, const std::string& trace,
            SignalTracker& signals);
  ~VcdWriter() override;
  VcdWriter(const VcdWriter&) = delete;
  VcdWriter& operator=(const VcdWriter&) = delete;

  // After the tracker's finish: a last timestamp at `end_cycle` (clipped to the window), so
  // viewers show the run to its end; closes the file (InputError if writing failed).
  void finish(uint64_t end_cycle);

 private:
  void on_values(uint64_t cycle, const std::vector<SignalValue>& values, bool initial) override;
  void write_value(const SignalValue& v);

  std::string path_;
  TextOut out_;
  bool open_ = false;
  const SignalTracker& tracker_;
  std::vector<std::string> ids_;
  bool any_time_ = false;
  uint64_t last_time_ = 0;
};

}  // namespace aicore::report
