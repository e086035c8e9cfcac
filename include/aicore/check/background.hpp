// The checker on a worker thread. Checking costs a few hundred nanoseconds per instruction,
// about what the whole timing-only simulation costs, so the model thread only copies each
// instruction (and each instruction's cycles) into a batch and a second core checks. The
// checker sees exactly the same calls in the same order as on one thread, so the reports are
// identical; the batches in flight are bounded, so memory does not grow with the trace.
#pragma once
#include <vector>

#include "aicore/check/checker.hpp"
#include "aicore/common/batch_worker.hpp"

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
    std::vector<Event> events = reserved<Event>(kBatchEvents);
    std::vector<isa::Instruction> instrs;  // of the issue events, in order
    bool empty() const { return events.empty(); }
    void clear() {
      events.clear();
      instrs.clear();
    }
  };
  void deliver(Batch& b);

  Checker checker_;
  BatchWorker<Batch> worker_;  // last: it stops before the checker goes
};

}  // namespace aicore::check
