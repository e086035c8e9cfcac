#include "aicore/check/background.hpp"

#include <utility>

namespace aicore::check {

namespace {
// Events per batch and batches in flight: few hand-overs, and a few MB at most.
constexpr size_t kBatchEvents = 4096;
constexpr size_t kMaxInFlight = 4;
}  // namespace

BackgroundChecker::BackgroundChecker(const CheckOptions& options) : checker_(options) {
  current_.events.reserve(kBatchEvents);
}

BackgroundChecker::~BackgroundChecker() {
  if (!worker_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
    full_.clear();
  }
  cv_.notify_all();
  worker_.join();
}

void BackgroundChecker::issue(isa::CoreId core, const isa::Instruction& instr) {
  current_.instrs.push_back(instr);
  current_.events.push_back(Event{true, core, 0, 0, 0});
  if (current_.events.size() >= kBatchEvents) hand_off();
}

void BackgroundChecker::executed(isa::CoreId core, uint64_t index, uint64_t start_cycle, uint64_t end_cycle) {
  current_.events.push_back(Event{false, core, index, start_cycle, end_cycle});
  if (current_.events.size() >= kBatchEvents) hand_off();
}

void BackgroundChecker::hand_off() {
  if (current_.events.empty()) return;
  std::unique_lock<std::mutex> lock(mu_);
  if (!worker_.joinable()) worker_ = std::thread([this] { work(); });
  cv_.wait(lock, [this] { return full_.size() < kMaxInFlight; });
  full_.push_back(std::move(current_));
  if (spare_.empty()) {
    current_ = Batch{};
    current_.events.reserve(kBatchEvents);
  } else {
    current_ = std::move(spare_.back());
    spare_.pop_back();
  }
  lock.unlock();
  cv_.notify_all();
}

void BackgroundChecker::work() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    cv_.wait(lock, [this] { return stop_ || !full_.empty(); });
    if (full_.empty()) return;  // stopped and drained
    Batch b = std::move(full_.front());
    full_.pop_front();
    lock.unlock();
    cv_.notify_all();  // room for the model thread
    if (!error_) {
      try {
        size_t next = 0;
        for (const Event& e : b.events) {
          if (e.issue)
            checker_.issue(e.core, b.instrs[next++]);
          else
            checker_.executed(e.core, e.index, e.start, e.end);
        }
      } catch (...) {
        error_ = std::current_exception();  // read by finish() after join
      }
    }
    b.events.clear();
    b.instrs.clear();
    lock.lock();
    spare_.push_back(std::move(b));
  }
}

void BackgroundChecker::finish(const RunEnd& end) {
  hand_off();
  if (worker_.joinable()) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    worker_.join();
  }
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
  checker_.finish(end);
}

}  // namespace aicore::check
