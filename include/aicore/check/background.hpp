// The checker on a worker thread. Checking costs a few hundred nanoseconds per instruction,
// about what the whole timing-only simulation costs, so the model thread only copies each
// instruction (and each instruction's cycles) into a batch and a second core checks. The
// checker sees exactly the same calls in the same order as on one thread, so the reports are
// identical; the batches in flight are bounded, so memory does not grow with the trace.
#pragma once
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "aicore/check/checker.hpp"

namespace aicore::check {

class BackgroundChecker {
 public:
  explicit BackgroundChecker(const CheckOptions& options);
  ~BackgroundChecker();  // stops the worker; what is still queued is dropped
  BackgroundChecker(const BackgroundChecker&) = delete;
  BackgroundChecker& operator=(const BackgroundChecker&) = delete;

  void issue(isa::CoreId core, const isa::Instruction& instr);
  void executed(isa::CoreId core, uint64_t index, uint64_t start_cycle, uint64_t end_cycle);
  // Delivers everything, stops the worker, and finishes the checker; rethrows what it threw.
  void finish(const RunEnd& end);
  const Checker& checker() const { return checker_; }  // after finish()

 private:
  struct Event {
    bool issue;
    isa::CoreId core;
    uint64_t index, start, end;  // executed()
  };
  struct Batch {
    std::vector<Event> events;
    std::vector<isa::Instruction> instrs;  // of the issue events, in order
  };
  void hand_off();
  void work();

  Checker checker_;
  Batch current_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Batch> full_;
  std::vector<Batch> spare_;
  bool stop_ = false;
  std::exception_ptr error_;
  std::thread worker_;
};

}  // namespace aicore::check
