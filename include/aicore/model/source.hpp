// Where a core's instructions come from. The model pulls instructions in program order from
// an InstructionSource and never parses text or opens files: a trace reader is one source
// (trace/trace_source.hpp), instructions built in C++ are another (ProgramSource, below), and
// a kernel front end is a third. GM tensors are declared through the TensorRegistry the chip
// passes to next(), by name, so tensors that several cores' sources name are one tensor.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "aicore/common/error.hpp"
#include "aicore/isa/instructions.hpp"

namespace aicore::model {

// A GM tensor as a source declares it.
struct TensorDecl {
  std::string name;
  uint64_t bytes = 0;
  // Identifies the initial content ("" = zeros), e.g. a data file's path: two declarations of
  // one name with different keys must have identical bytes.
  std::string content_key;
  // Writes the initial bytes (exactly `bytes` of them) to dst. Called in data runs only, and
  // to compare two declarations' contents. Throws InputError on bad data.
  std::function<void(uint8_t* dst)> load;
  SourceLoc loc;  // the declaration, for messages
};

class TensorRegistry {
 public:
  virtual ~TensorRegistry() = default;
  // The chip-wide tensor id of d.name: a new tensor, or the one another source declared under
  // that name (same size; at most one content, or identical contents — else InputError naming
  // both declarations).
  virtual uint32_t declare(const TensorDecl& d) = 0;
};

class InstructionSource {
 public:
  virtual ~InstructionSource() = default;
  // The next instruction in program order, with its index, line and file set and its GM
  // operands naming chip tensor ids (declare them through `gm` first). false at the end.
  // Throws InputError on bad input; the instructions already yielded still run.
  virtual bool next(isa::Instruction& out, TensorRegistry& gm) = 0;
};

// Rewrites the GM operands of `op` from a source's own tensor numbering to chip ids.
void remap_gm(isa::Op& op, const std::vector<uint32_t>& chip_id_of);

// Instructions built in C++ (tests, generators). Tensors are declared on first use of next();
// the instructions' GM operands use indexes into `tensors`.
class ProgramSource : public InstructionSource {
 public:
  ProgramSource(std::vector<TensorDecl> tensors, std::vector<isa::Instruction> program);
  bool next(isa::Instruction& out, TensorRegistry& gm) override;
  // Chip ids of the tensors (valid once next() has been called).
  const std::vector<uint32_t>& chip_ids() const { return chip_ids_; }

 private:
  std::vector<TensorDecl> tensors_;
  std::vector<isa::Instruction> program_;
  std::vector<uint32_t> chip_ids_;
  size_t pos_ = 0;
  bool declared_ = false;
};

}  // namespace aicore::model
