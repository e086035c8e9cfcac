#include "aicore/report/background.hpp"

namespace aicore::report {

BackgroundObservers::BackgroundObservers(const std::vector<model::TensorInfo>& live_tensors)
    : live_(live_tensors), worker_([this](Batch& b) { deliver(b); }) {}

BackgroundObservers::~BackgroundObservers() = default;

void BackgroundObservers::add(model::Observer& o) {
  observers_.push_back(&o);
  wants_queue_ = wants_queue_ || o.wants_queue();
  wants_issue_ = wants_issue_ || o.wants_issue();
}

void BackgroundObservers::sync_tensors() {
  Batch& b = worker_.current();
  while (live_seen_ < live_.size()) {
    b.tensors.push_back(live_[live_seen_++]);
    b.entries.emplace_back(NewTensor{});
  }
}

void BackgroundObservers::on_instruction(const model::InstrRecord& r) {
  sync_tensors();  // an instruction may name a tensor declared just before it
  worker_.current().instrs.push_back(*r.instr);
  add_entry(r);
}

void BackgroundObservers::on_flag(const model::FlagEvent& e) {
  add_entry(e);
}

void BackgroundObservers::on_queue(isa::CoreId core, isa::Pipe pipe, uint64_t cycle, int delta) {
  add_entry(Queued{core, pipe, cycle, delta});
}

void BackgroundObservers::on_issue(const model::IssueRecord& r) {
  sync_tensors();
  worker_.current().instrs.push_back(*r.instr);
  add_entry(r);
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
  worker_.finish();
}

}  // namespace aicore::report
