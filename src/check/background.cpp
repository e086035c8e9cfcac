#include "aicore/check/background.hpp"

namespace aicore::check {

BackgroundChecker::BackgroundChecker(const CheckOptions& options)
    : checker_(options), worker_([this](Batch& b) { deliver(b); }) {}

BackgroundChecker::~BackgroundChecker() = default;

void BackgroundChecker::issue(isa::CoreId core, const isa::Instruction& instr) {
  Batch& b = worker_.current();
  b.instrs.push_back(instr);
  b.events.push_back(Event{true, core, 0, 0, 0});
  worker_.hand_off_at(b.events.size());
}

void BackgroundChecker::executed(isa::CoreId core, uint64_t index, uint64_t start_cycle, uint64_t end_cycle) {
  Batch& b = worker_.current();
  b.events.push_back(Event{false, core, index, start_cycle, end_cycle});
  worker_.hand_off_at(b.events.size());
}

void BackgroundChecker::deliver(Batch& b) {
  size_t next = 0;
  for (const Event& e : b.events) {
    if (e.issue)
      checker_.issue(e.core, b.instrs[next++]);
    else
      checker_.executed(e.core, e.index, e.start, e.end);
  }
}

void BackgroundChecker::finish(const RunEnd& end) {
  worker_.finish();
  checker_.finish(end);
}

}  // namespace aicore::check
