// One worker thread fed in batches: the producing thread (the model) fills a batch and hands it
// over; the worker delivers batches in hand-off order. Per-event work that costs about as much as
// the simulation itself (checking, formatting output files) then runs on a second core while the
// model thread only copies events. At most `max_in_flight` batches wait, so memory stays bounded
// however long the run; delivered batches are cleared and reused.
//
// Batch: default-constructible (reserving what it needs), movable, with empty() and clear().
#pragma once
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace aicore {

// Events per batch: few hand-overs per run, and with max_in_flight a few MB at most.
inline constexpr size_t kBatchEvents = 4096;

// A vector with room for n elements (a batch's member initialiser).
template <class T>
std::vector<T> reserved(size_t n) {
  std::vector<T> v;
  v.reserve(n);
  return v;
}

template <class Batch>
class BatchWorker {
 public:
  // `deliver` runs on the worker for each batch. After it throws, later batches are dropped and
  // finish() rethrows.
  explicit BatchWorker(std::function<void(Batch&)> deliver, size_t max_in_flight = 4)
      : deliver_(std::move(deliver)), max_in_flight_(max_in_flight) {}
  ~BatchWorker() { stop(true); }  // what is still queued is dropped
  BatchWorker(const BatchWorker&) = delete;
  BatchWorker& operator=(const BatchWorker&) = delete;

  // The batch being filled (producer thread only).
  Batch& current() { return current_; }
  // Hands current() over once it holds `events` events.
  void hand_off_at(size_t events) {
    if (events >= kBatchEvents) hand_off();
  }

  // Queues current() (nothing when it is empty) and starts a fresh or recycled one. Blocks while
  // max_in_flight batches wait. The worker starts with the first batch.
  void hand_off() {
    if (current_.empty()) return;
    std::unique_lock<std::mutex> lock(mu_);
    if (!worker_.joinable()) worker_ = std::thread([this] { work(); });
    cv_.wait(lock, [this] { return full_.size() < max_in_flight_; });
    full_.push_back(std::move(current_));
    if (spare_.empty()) {
      current_ = Batch{};
    } else {
      current_ = std::move(spare_.back());
      spare_.pop_back();
    }
    lock.unlock();
    cv_.notify_all();
  }

  // Delivers everything handed over and current(), then stops the worker; afterwards what the
  // batches were delivered to may be used from this thread. Rethrows what `deliver` threw.
  void finish() {
    hand_off();
    stop(false);
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
  }

 private:
  void stop(bool drop) {
    if (!worker_.joinable()) return;
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
      if (drop) full_.clear();
    }
    cv_.notify_all();
    worker_.join();
  }

  void work() {
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
      cv_.wait(lock, [this] { return stop_ || !full_.empty(); });
      if (full_.empty()) return;  // stopped and drained
      Batch b = std::move(full_.front());
      full_.pop_front();
      lock.unlock();
      cv_.notify_all();  // room for the producer
      if (!error_) {
        try {
          deliver_(b);
        } catch (...) {
          error_ = std::current_exception();  // read by finish() after join
        }
      }
      b.clear();
      lock.lock();
      spare_.push_back(std::move(b));
    }
  }

  std::function<void(Batch&)> deliver_;
  const size_t max_in_flight_;
  Batch current_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Batch> full_;    // handed over, not yet delivered
  std::vector<Batch> spare_;  // delivered, cleared, for reuse
  bool stop_ = false;
  std::exception_ptr error_;
  std::thread worker_;
};

}  // namespace aicore
