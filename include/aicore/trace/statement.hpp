// What one line of a trace declares (docs/trace-format.md): a GM tensor, an output file, an
// expected-result file, or an instruction. Plain data shared by the reader and the data-file loaders.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "aicore/common/error.hpp"
#include "aicore/isa/instructions.hpp"

namespace aicore::trace {

// `.gm NAME size=BYTES [file=PATH]`
struct GmDecl {
  std::string name;
  uint32_t id = 0;    // index among the trace's .gm directives (= isa::Addr::tensor)
  uint64_t size = 0;  // bytes, > 0
  std::string file;   // resolved against the trace file's directory; empty = zero fill
  SourceLoc loc;      // the directive (column 1 = the '.')
};

// `.out NAME file=PATH [dtype=int8] [shape=D0,D1,...]`
struct OutDecl {
  uint32_t tensor = 0;
  std::string file;  // as written: relative to the output directory
  isa::DType dtype = isa::DType::Int8;
  std::vector<uint64_t>
      shape;  // shape= in elements of dtype, C order (product = size / dtype size); empty = none
  SourceLoc loc;
};

// `.expect NAME file=PATH [dtype=int32] [shape=D0,D1,...]`
struct ExpectDecl {
  uint32_t tensor = 0;
  std::string file;  // resolved against the trace file's directory
  isa::DType dtype = isa::DType::Int32;
  std::vector<uint64_t> shape;  // as OutDecl::shape
  SourceLoc loc;
};

// One statement of a trace. Only the member named by `kind` is meaningful.
struct Statement {
  enum class Kind { Gm, Out, Expect, Instr } kind = Kind::Instr;
  GmDecl gm;
  OutDecl out;
  ExpectDecl expect;
  isa::Instruction instr;
};

}  // namespace aicore::trace
