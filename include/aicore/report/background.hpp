// Runs the file-writing observers (instr.csv, the signal tracker, timeline.json, waves.vcd) on
// a worker thread. Formatting tens of megabytes of text cost more than the simulation itself;
// this way the model thread only copies each event into a batch, and the second core formats
// (the issue's output-cost budget, bench/bench_outputs). Events reach the wrapped observers in
// the order the model reported them, so the files are byte-identical to a same-thread run.
//
// The model's .gm declarations grow while it runs (the model thread owns that vector); the
// worker sees a copy that is kept in step with the events (tensors()), so observers that name
// GM operands read it without a data race.
#pragma once
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <variant>
#include <vector>

#include "aicore/model/global_memory.hpp"
#include "aicore/model/observer.hpp"

namespace aicore::report {

class BackgroundObservers : public model::Observer {
 public:
  // `live_tensors`: the model's .gm declarations (read on the model thread only).
  explicit BackgroundObservers(const std::vector<model::TensorInfo>& live_tensors);
  ~BackgroundObservers() override;  // stops the worker; what is still queued is dropped
  BackgroundObservers(const BackgroundObservers&) = delete;
  BackgroundObservers& operator=(const BackgroundObservers&) = delete;

  // Before the first event (and before this is given to the model, which reads wants_queue).
  void add(model::Observer& o);
  // The .gm declarations as far as the worker has seen them; for the wrapped observers.
  const std::vector<model::TensorInfo>& tensors() const { return tensors_; }

  void on_instruction(const model::InstrRecord& r) override;
  void on_flag(const model::FlagEvent& e) override;
  void on_queue(isa::CoreId core, isa::Pipe pipe, uint64_t cycle, int delta) override;
  void on_issue(const model::IssueRecord& r) override;

  // Delivers everything reported so far and stops the worker; afterwards the wrapped
  // observers may be used from this thread. Rethrows the first exception an observer threw.
  void finish();

 private:
  struct Queued {
    isa::CoreId core;
    isa::Pipe pipe;
    uint64_t cycle;
    int delta;
  };
  struct NewTensor {};  // the next of Batch::tensors
  using Entry = std::variant<model::InstrRecord, model::FlagEvent, Queued, NewTensor, model::IssueRecord>;
  struct Batch {
    std::vector<Entry> entries;
    std::vector<isa::Instruction> instrs;    // of the InstrRecord and IssueRecord entries, in order
    std::vector<model::TensorInfo> tensors;  // of the NewTensor entries, in order
    void clear();
  };

  void sync_tensors();
  void hand_off();
  void work();
  void deliver(Batch& b);

  const std::vector<model::TensorInfo>& live_;
  size_t live_seen_ = 0;
  std::vector<model::Observer*> observers_;
  std::vector<model::TensorInfo> tensors_;  // worker side
  Batch current_;

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Batch> full_;    // handed over, not yet delivered
  std::vector<Batch> spare_;  // delivered, cleared, for reuse
  bool stop_ = false;
  std::exception_ptr error_;
  std::thread worker_;
};

}  // namespace aicore::report
