// Sweep progress on stderr: a one-line bar redrawn in place on a terminal (points done, rate,
// ETA, failures), plain lines at every tenth of the way (and at least every 30 s) otherwise.
#pragma once
#include <chrono>
#include <cstddef>
#include <iosfwd>
#include <string>

namespace aicore::sweep {

class Progress {
 public:
  // `total`: points this run will execute; nothing is printed when `enabled` is false.
  Progress(size_t total, bool enabled, bool tty, std::ostream& err);
  void point_done(bool ok);                   // one more point ended (ok or not)
  void set_done(size_t done, size_t failed);  // absolute counts (the Slurm executor polls them)
  void tick();                                // redraw on a terminal when due
  void finish();                              // final state; ends the terminal line

 private:
  void draw(bool force);
  std::string line() const;

  size_t total_, done_ = 0, failed_ = 0, last_tenth_ = 0;
  bool enabled_, tty_, drawn_ = false;
  std::ostream& err_;
  std::chrono::steady_clock::time_point start_, last_draw_;
};

}  // namespace aicore::sweep
