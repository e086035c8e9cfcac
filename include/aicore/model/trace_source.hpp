// The trace file as an InstructionSource: streams the statements of one `.trace` (parsed ahead
// on a host thread, trace/prefetch_reader.hpp), declares its `.gm` tensors on the chip as they
// come (data files are read only in data runs), renumbers its GM operands to chip tensor ids,
// and keeps its `.out` / `.expect` requests for the run command to apply after the run.
#pragma once
#include <string>
#include <vector>

#include "aicore/model/source.hpp"
#include "aicore/trace/prefetch_reader.hpp"
#include "aicore/trace/statement.hpp"

namespace aicore::model {

class TraceSource : public InstructionSource {
 public:
  // Opens the trace (InputError if it cannot).
  explicit TraceSource(const std::string& path);

  bool next(isa::Instruction& out, TensorRegistry& gm) override;

  const std::string& path() const { return path_; }
  // The trace's .out and .expect directives so far, their `tensor` already a chip tensor id.
  const std::vector<trace::OutDecl>& outs() const { return outs_; }
  const std::vector<trace::ExpectDecl>& expects() const { return expects_; }

 private:
  void declare(const trace::GmDecl& d, TensorRegistry& gm);

  std::string path_;
  trace::PrefetchReader reader_;
  std::vector<uint32_t> chip_id_;  // by the trace's own .gm number
  std::vector<trace::OutDecl> outs_;
  std::vector<trace::ExpectDecl> expects_;
  trace::Statement statement_;
};

}  // namespace aicore::model
