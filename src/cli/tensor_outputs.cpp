#include "tensor_outputs.hpp"

#include <filesystem>
#include <ostream>

#include "aicore/trace/data_file.hpp"
#include "commands.hpp"

namespace aicore::cli {

namespace fs = std::filesystem;

namespace {

// DIR/<tensor>.actual.npy (or .bin, like the expected file): the tensor as the run left it, in
// the expected file's format, so the two can be diffed.
std::string write_actual(const RunArgs& a, const model::Chip& sim, const trace::ExpectDecl& e,
                         const std::vector<uint64_t>& shape) {
  const auto& t = sim.tensors()[e.tensor];
  const std::string path =
      (fs::path(a.out_dir) / (t.name + ".actual" + (trace::is_npy_path(e.file) ? ".npy" : ".bin"))).string();
  trace::write_tensor_file(path, sim.tensor_data(e.tensor), t.bytes, e.dtype, shape);
  return path;
}

}  // namespace

TensorOutputs finish_tensor_outputs(const RunArgs& a, const model::Chip& sim,
                                    const std::vector<std::unique_ptr<model::TraceSource>>& sources,
                                    std::ostream& err, Diagnostics& diag) {
  TensorOutputs r;
  std::vector<trace::OutDecl> outs;
  std::vector<trace::ExpectDecl> expects;
  for (const auto& src : sources) {
    outs.insert(outs.end(), src->outs().begin(), src->outs().end());
    expects.insert(expects.end(), src->expects().begin(), src->expects().end());
  }
  if (a.timing_only) {
    if (!outs.empty() || !expects.empty())
      diag.note("--timing-only: .out and .expect are skipped (no data was computed)");
    return r;
  }
  for (const auto& o : outs) {
    const auto& t = sim.tensors()[o.tensor];
    const std::string path = (fs::path(a.out_dir) / o.file).string();
    trace::write_tensor_file(path, sim.tensor_data(o.tensor), t.bytes, o.dtype, o.shape);
    r.written.push_back(path);
  }
  for (const auto& e : expects) {
    const auto& t = sim.tensors()[e.tensor];
    const auto mismatch = trace::compare_expect(e, sim.tensor_data(e.tensor), t.bytes);
    if (!mismatch) {
      r.results.push_back("expect " + t.name + ": match (" + std::to_string(t.bytes) + " bytes)");
      continue;
    }
    r.status = kExitMismatch;
    const std::string actual = write_actual(a, sim, e, mismatch->shape);
    r.written.push_back(actual);
    const std::string shape =
        mismatch->shape.size() > 1 ? " (shape " + trace::shape_text(mismatch->shape) + ")" : "";
    err << e.loc.str() << ": error: tensor " << t.name << " differs from " << e.file << " in "
        << mismatch->count << " of " << mismatch->elements << " " << isa::to_string(e.dtype) << " elements"
        << shape << "; the tensor the run produced is in " << actual;
    for (const auto& [index, want, got] : mismatch->first) {
      const std::string where = trace::index_text(index, mismatch->shape);
      err << "\n  [" << index << "]" << (where.empty() ? "" : " " + where) << " expected " << want << ", got "
          << got;
    }
    err << "\n";
  }
  return r;
}

}  // namespace aicore::cli
