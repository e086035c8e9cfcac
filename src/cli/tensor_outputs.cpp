#include "tensor_outputs.hpp"

#include <filesystem>
#include <ostream>

#include "aicore/trace/data_file.hpp"
#include "commands.hpp"

namespace aicore::cli {

namespace fs = std::filesystem;

TensorOutputs finish_tensor_outputs(const RunArgs& a, const model::Simulation& sim, std::ostream& err,
                                    Diagnostics& diag) {
  TensorOutputs r;
  if (a.timing_only) {
    if (!sim.outs().empty() || !sim.expects().empty())
      diag.note("--timing-only: .out and .expect are skipped (no data was computed)");
    return r;
  }
  for (const auto& o : sim.outs()) {
    const auto& t = sim.tensors()[o.tensor];
    const std::string path = (fs::path(a.out_dir) / o.file).string();
    trace::write_tensor_file(path, sim.tensor_data(o.tensor), t.size, o.dtype);
    r.written.push_back(path);
  }
  for (const auto& e : sim.expects()) {
    const auto& t = sim.tensors()[e.tensor];
    const auto mismatch = trace::compare_expect(e, sim.tensor_data(e.tensor), t.size);
    if (!mismatch) {
      r.results.push_back("expect " + t.name + ": match (" + std::to_string(t.size) + " bytes)");
      continue;
    }
    r.status = kExitMismatch;
    err << e.loc.str() << ": error: tensor " << t.name << " differs from " << e.file << " in "
        << mismatch->count << " elements";
    for (const auto& [index, want, got] : mismatch->first)
      err << "\n  [" << index << "] expected " << want << ", got " << got;
    err << "\n";
  }
  return r;
}

}  // namespace aicore::cli
