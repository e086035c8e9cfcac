// --emit-trace: a launch's recorded programs as v1 traces in the launch's directory, so that the
// kernel can be re-run with `aicore-sim run` and compared as text with a hand-written trace.
// One block: kernel.trace. N blocks: block0.trace ... and kernel.yaml (the manifest). Every GM
// tensor the kernel used is declared with its bytes at the launch's start (NAME.bin); each tensor
// the kernel wrote gets an .expect of the bytes it left (NAME.expected.bin) in the first trace.
// Each instruction line ends with a comment naming the kernel line that issued it.
#pragma once
#include <iosfwd>
#include <string>

#include "aicore/frontend/launch_options.hpp"
#include "recording.hpp"

namespace aicore::frontend {

// Writes the files and one "wrote PATH" line per trace or manifest to `out` (unless quiet).
// A file that cannot be written ends the program with exit status 2.
void emit_traces(const RecordedLaunch& rec, const std::string& dir, const LaunchOptions& opt,
                 std::ostream& out);

// The text of one block's trace (what emit_traces writes as that block's file).
std::string trace_text(const RecordedLaunch& rec, uint32_t block, bool with_data);

}  // namespace aicore::frontend
