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
#include <cstddef>
#include <variant>
#include <vector>

#include "aicore/common/batch_worker.hpp"
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
    std::vector<Entry> entries = reserved<Entry>(kBatchEvents);
    std::vector<isa::Instruction> instrs;    // of the InstrRecord and IssueRecord entries, in order
    std::vector<model::TensorInfo> tensors;  // of the NewTensor entries, in order
    bool empty() const { return entries.empty(); }
    void clear() {
      entries.clear();
      instrs.clear();
      tensors.clear();
    }
  };

  // Appends one entry to the current batch, handing the batch over when it is full.
  template <class E>
  void add_entry(E&& e) {
    Batch& b = worker_.current();
    b.entries.emplace_back(std::forward<E>(e));
    worker_.hand_off_at(b.entries.size());
  }
  void sync_tensors();
  void deliver(Batch& b);

  const std::vector<model::TensorInfo>& live_;
  size_t live_seen_ = 0;
  std::vector<model::Observer*> observers_;
  std::vector<model::TensorInfo> tensors_;  // worker side
  BatchWorker<Batch> worker_;               // last: it stops before the observers' list goes
};

}  // namespace aicore::report
