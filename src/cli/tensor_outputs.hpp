// After a completed run: the trace's .out files and .expect checks (trace-format.md).
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

#include "aicore/model/simulation.hpp"
#include "diagnostics.hpp"
#include "run_args.hpp"

namespace aicore::cli {

struct TensorOutputs {
  int status = 0;                    // kExitOk, or kExitMismatch when an .expect differs
  std::vector<std::string> results;  // one line per .expect that matched, for stdout
  std::vector<std::string> written;  // paths of the files written
};

// Writes the .out files and checks the .expects; each mismatch is reported on `err` as an error.
// Timing-only runs compute no data: both are skipped, with a note. InputError when a file cannot
// be read or written.
TensorOutputs finish_tensor_outputs(const RunArgs& a, const model::Simulation& sim, std::ostream& err,
                                    Diagnostics& diag);

}  // namespace aicore::cli
