// Shared by the checker's unit tests: programs written as trace text (parsed by the real trace
// reader, so lines are real), run through a Checker with no timing model.
#pragma once
#include <string>
#include <vector>

#include "aicore/check/checker.hpp"
#include "aicore/check/format.hpp"
#include "aicore/isa/instructions.hpp"

namespace checktest {

std::vector<aicore::isa::Instruction> parse(const std::string& trace_text);

struct Run {
  std::vector<aicore::check::Report> reports;
  aicore::check::Summary summary;
  std::vector<std::string> headlines() const;  // the first line of each report, "t.trace:12: error: ..."
  std::string text() const;                    // every report in full
  size_t count(aicore::check::ReportKind k) const;
};

// Issues `program` to core 0 in order, then finishes as a completed run.
Run run(const std::vector<aicore::isa::Instruction>& program, aicore::check::CheckOptions options = {});
Run run_text(const std::string& trace_text, aicore::check::CheckOptions options = {});

// A GM declaration line list for traces that need tensors: ".gm a size=65536\n.gm c size=65536\n".
extern const char* const kTensors;

}  // namespace checktest
