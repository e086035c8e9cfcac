#include "aicore/report/background.hpp"

#include <utility>

namespace aicore::report {

namespace {
// Events per batch and batches in flight: enough to keep the worker busy without a handover
// per event, and a bounded amount of memory (a few MB) however long the trace.
constexpr size_t kBatchEntries = 4096;
constexpr size_t kMaxInFlight = 4;
}  // namespace

void BackgroundObservers::Batch::clear() {
  entries.clear();
  instrs.clear();
  tensors.clear();
}

BackgroundObservers::BackgroundObservers(const std::vector<model::TensorInfo>& live_tensors)
    : live_(live_tensors) {
  current_.entries.reserve(kBatchEntries);
}

BackgroundObservers::~BackgroundObservers() {
  if (!worker_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
    full_.clear();
  }
  cv_.notify_all();
  worker_.join();
}

void BackgroundObservers::add(model::Observer& o) {
  observers_.push_back(&o);
  wants_queue_ = wants_queue_ || o.wants_queue();
  wants_issue_ = wants_issue_ || o.wants_issue();
}

void BackgroundObservers::sync_tensors() {
  while (live_seen_ < live_.size()) {
    current_.tensors.push_back(live_[live_seen_++]);
    current_.entries.emplace_back(NewTensor{});
  }
}

void BackgroundObservers::on_instruction(const model::InstrRecord& r) {
  sync_tensors();  // an instruction may name a tensor declared just before it
  current_.instrs.push_back(*r.instr);
  current_.entries.emplace_back(r);
  if (current_.entries.size() >= kBatchEntries) hand_off();
}

void BackgroundObservers::on_flag(const model::FlagEvent& e) {
  current_.entries.emplace_back(e);
  if (current_.entries.size() >= kBatchEntries) hand_off();
}

void BackgroundObservers::on_queue(isa::CoreId core, isa::Pipe pipe, uint64_t cycle, int delta) {
  current_.entries.emplace_back(Queued{core, pipe, cycle, delta});
  if (current_.entries.size() >= kBatchEntries) hand_off();
}

void BackgroundObservers::on_issue(const model::IssueRecord& r) {
  sync_tensors();
  current_.instrs.push_back(*r.instr);
  current_.entries.emplace_back(r);
  if (current_.entries.size() >= kBatchEntries) hand_off();
}

void BackgroundObservers::hand_off() {
  if (current_.entries.empty()) return;
  std::unique_lock<std::mutex> lock(mu_);
  if (!worker_.joinable()) worker_ = std::thread([this] { work(); });
  cv_.wait(lock, [this] { return full_.size() < kMaxInFlight; });
  full_.push_back(std::move(current_));
  if (spare_.empty()) {
    current_ = Batch{};
    current_.entries.reserve(kBatchEntries);
  } else {
    current_ = std::move(spare_.back());
    spare_.pop_back();
  }
  lock.unlock();
  cv_.notify_all();
}

void BackgroundObservers::work() {
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
        deliver(b);
      } catch (...) {
        error_ = std::current_exception();  // read by finish() after join
      }
    }
    b.clear();
    lock.lock();
    spare_.push_back(std::move(b));
  }
}

void BackgroundObservers::deliver(Batch& b) {
  size_t next_instr = 0, next_tensor = 0;
  for (const Entry& e : b.entries) {
    if (const auto* r = std::get_if<model::InstrRecord>(&e)) {
      model::InstrRecord rec = *r;
      rec.instr = &b.instrs[next_instr++];
      for (model::Observer* o : observers_) o->on_instruction(rec);
    } else if (const auto* f = std::get_if<model::FlagEvent>(&e)) {
      for (model::Observer* o : observers_) o->on_flag(*f);
    } else if (const auto* q = std::get_if<Queued>(&e)) {
      for (model::Observer* o : observers_)
        if (o->wants_queue()) o->on_queue(q->core, q->pipe, q->cycle, q->delta);
    } else if (const auto* is = std::get_if<model::IssueRecord>(&e)) {
      model::IssueRecord rec = *is;
      rec.instr = &b.instrs[next_instr++];
      for (model::Observer* o : observers_)
        if (o->wants_issue()) o->on_issue(rec);
    } else {
      tensors_.push_back(std::move(b.tensors[next_tensor++]));
    }
  }
}

void BackgroundObservers::finish() {
  sync_tensors();
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
}

}  // namespace aicore::report
