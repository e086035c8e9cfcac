// A Reader that parses ahead on a host thread, so reading the trace overlaps simulating it.
// Memory stays bounded (at most max_batches x batch statements in flight), so traces of any
// length still stream. A parse error is rethrown by next() exactly where the Reader met it.
#pragma once
#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "aicore/trace/reader.hpp"

namespace aicore::trace {

class PrefetchReader {
 public:
  explicit PrefetchReader(std::unique_ptr<Reader> reader, size_t batch = 256, size_t max_batches = 8);
  ~PrefetchReader();
  PrefetchReader(const PrefetchReader&) = delete;
  PrefetchReader& operator=(const PrefetchReader&) = delete;

  // Same contract as Reader::next.
  bool next(Statement& out);
  const std::string& name() const { return name_; }

 private:
  void produce();
  void stop();

  std::unique_ptr<Reader> reader_;
  const std::string name_;
  const size_t batch_, max_batches_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::vector<Statement>> full_;  // parsed batches, oldest first
  std::vector<Statement> current_;           // the batch next() is consuming
  size_t pos_ = 0;
  bool done_ = false, stopping_ = false;  // producer finished / consumer asked it to stop
  std::exception_ptr error_;              // the parse error that ended the producer
  std::thread thread_;
};

}  // namespace aicore::trace
