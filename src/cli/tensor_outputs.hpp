// After a completed run: the .out files and .expect checks of every core's trace, once all cores
// have finished (docs/trace-format.md).
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

#include <memory>

#include "aicore/model/chip.hpp"
#include "aicore/model/trace_source.hpp"
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
TensorOutputs finish_tensor_outputs(const RunArgs& a, const model::Chip& sim,
                                    const std::vector<std::unique_ptr<model::TraceSource>>& sources,
                                    std::ostream& err, Diagnostics& diag);

}  // namespace aicore::cli
