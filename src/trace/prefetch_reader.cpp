#include "aicore/trace/prefetch_reader.hpp"

#include <pthread.h>

namespace aicore::trace {

PrefetchReader::PrefetchReader(std::unique_ptr<Reader> reader, size_t batch, size_t max_batches)
    : reader_(std::move(reader)), name_(reader_->name()), batch_(batch), max_batches_(max_batches) {
  thread_ = std::thread([this] { produce(); });
}

PrefetchReader::~PrefetchReader() {
  stop();
}

void PrefetchReader::stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void PrefetchReader::produce() {
  // Named so that top and perf tell the parser from the simulation thread (15 characters at most).
  pthread_setname_np(pthread_self(), "aicore-parse");
  std::vector<Statement> batch;
  bool more = true;
  std::exception_ptr error;
  while (more) {
    batch.clear();
    batch.reserve(batch_);
    try {
      // Parsed in place: a Statement is large, and moving it costs more than the parse of a field.
      while (batch.size() < batch_) {
        batch.emplace_back();
        if (!(more = reader_->next(batch.back()))) {
          batch.pop_back();
          break;
        }
      }
    } catch (...) {
      error = std::current_exception();
      more = false;
      batch.pop_back();  // the statement being parsed when the error came
    }
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return stopping_ || full_.size() < max_batches_; });
    if (stopping_) return;
    if (!batch.empty()) full_.push_back(std::move(batch));
    if (!more) {
      done_ = true;
      error_ = error;
    }
    cv_.notify_all();
  }
}

bool PrefetchReader::next(Statement& out) {
  if (pos_ == current_.size()) {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return !full_.empty() || done_; });
    if (full_.empty()) {  // finished: the end of the trace, or the error that stopped it
      if (error_) std::rethrow_exception(error_);
      return false;
    }
    current_ = std::move(full_.front());
    full_.pop_front();
    pos_ = 0;
    cv_.notify_all();
  }
  // Most statements are instructions: move only what the kind uses (a whole Statement is large).
  Statement& in = current_[pos_++];
  out.kind = in.kind;
  switch (in.kind) {
    case Statement::Kind::Instr:
      out.instr = in.instr;
      break;
    case Statement::Kind::Gm:
      out.gm = std::move(in.gm);
      break;
    case Statement::Kind::Out:
      out.out = std::move(in.out);
      break;
    case Statement::Kind::Expect:
      out.expect = std::move(in.expect);
      break;
  }
  return true;
}

}  // namespace aicore::trace
