// session::run_trace: `aicore-sim run` after its command line: the config, the output folder, the
// kernel's traces, and after the run the .out files and .expect checks of every core's trace, once
// all cores have finished (docs/trace-format.md).
#include <filesystem>
#include <memory>
#include <ostream>

#include "aicore/common/error.hpp"
#include "aicore/common/log.hpp"
#include "aicore/model/trace_source.hpp"
#include "aicore/session/config.hpp"
#include "aicore/session/session.hpp"
#include "aicore/trace/data_file.hpp"
#include "aicore/trace/manifest.hpp"

namespace aicore::session {

namespace fs = std::filesystem;

namespace {

using Sources = std::vector<std::unique_ptr<model::TraceSource>>;

// The traces of the kernel: one for a .trace, one per core for a manifest.
Sources open_sources(const std::string& path, const config::Config& cfg) {
  Sources out;
  if (!trace::is_manifest_path(path)) {
    out.push_back(std::make_unique<model::TraceSource>(path));
    return out;
  }
  const trace::KernelManifest m = trace::read_manifest(path);
  if (m.cores.size() > cfg.chip.cores)
    throw InputError(SourceLoc{path, 0, 0},
                     "the kernel has " + std::to_string(m.cores.size()) +
                         " cores but chip.cores = " + std::to_string(cfg.chip.cores) +
                         " (raise it with --set chip.cores=" + std::to_string(m.cores.size()) + ")");
  for (const trace::ManifestEntry& e : m.cores) {
    try {
      out.push_back(std::make_unique<model::TraceSource>(e.trace));
    } catch (const InputError& err) {
      throw InputError(e.loc, "core " + std::to_string(out.size()) + ": " + err.what());
    }
  }
  return out;
}

// DIR/<tensor>.actual.npy (or .bin, like the expected file): the tensor as the run left it, in
// the expected file's format, so the two can be diffed.
std::string write_actual(const std::string& dir, const model::Chip& sim, const trace::ExpectDecl& e,
                         const std::vector<uint64_t>& shape) {
  const auto& t = sim.tensors()[e.tensor];
  const std::string path =
      (fs::path(dir) / (t.name + ".actual" + (trace::is_npy_path(e.file) ? ".npy" : ".bin"))).string();
  trace::write_tensor_file(path, sim.tensor_data(e.tensor), t.bytes, e.dtype, shape);
  return path;
}

// The mismatch error: where the .expect is, how many elements differ, the first of them.
std::string mismatch_text(const trace::ExpectDecl& e, const model::TensorInfo& t, const trace::Mismatch& m,
                          const std::string& actual) {
  const std::string shape = m.shape.size() > 1 ? " (shape " + trace::shape_text(m.shape) + ")" : "";
  std::string s = e.loc.str() + ": error: tensor " + t.name + " differs from " + e.file + " in " +
                  std::to_string(m.count) + " of " + std::to_string(m.elements) + " " +
                  isa::to_string(e.dtype) + " elements" + shape +
                  (actual.empty() ? "" : "; the tensor the run produced is in " + actual);
  for (const auto& [index, want, got] : m.first) {
    const std::string where = trace::index_text(index, m.shape);
    s += "\n  [" + std::to_string(index) + "]" + (where.empty() ? "" : " " + where) + " expected " + want +
         ", got " + got;
  }
  return s;
}

// Writes the .out files and checks the .expects; each mismatch is an error. Timing-only runs
// compute no data: both are skipped, with a note. InputError when a file cannot be read or written.
void tensor_outputs(const RunOptions& o, const Sources& sources, const model::Chip& sim, RunResult& r,
                    Diagnostics& diag) {
  std::vector<trace::OutDecl> outs;
  std::vector<trace::ExpectDecl> expects;
  for (const auto& src : sources) {
    outs.insert(outs.end(), src->outs().begin(), src->outs().end());
    expects.insert(expects.end(), src->expects().begin(), src->expects().end());
  }
  if (o.timing_only) {
    if (!outs.empty() || !expects.empty())
      diag.note("--timing-only: .out and .expect are skipped (no data was computed)");
    return;
  }
  for (const auto& out : outs) {
    if (o.out_dir.empty()) break;  // nowhere to write: keep_tensors holds the bytes
    const auto& t = sim.tensors()[out.tensor];
    const std::string path = (fs::path(o.out_dir) / out.file).string();
    trace::write_tensor_file(path, sim.tensor_data(out.tensor), t.bytes, out.dtype, out.shape);
    r.files.push_back(path);
  }
  for (const auto& e : expects) {
    const auto& t = sim.tensors()[e.tensor];
    const auto mismatch = trace::compare_expect(e, sim.tensor_data(e.tensor), t.bytes);
    ExpectResult x{t.name, e.file, !mismatch, t.bytes, 0, 0, ""};
    if (mismatch) {
      x.differing = mismatch->count;
      x.elements = mismatch->elements;
      if (!o.out_dir.empty()) {
        x.actual_file = write_actual(o.out_dir, sim, e, mismatch->shape);
        r.files.push_back(x.actual_file);
      }
      diag.error(mismatch_text(e, t, *mismatch, x.actual_file));
    }
    r.expects.push_back(std::move(x));
  }
}

}  // namespace

RunResult run_trace(const std::string& path, const RunOptions& o, std::ostream& out, std::ostream& err) {
  Diagnostics diag(err, o.quiet);
  set_verbosity(o.verbosity);  // before the set-up lines it logs
  try {
    const config::Config cfg = load_config(o.config, o.sets, diag);
    log().info("config {} ({} MHz), {} override(s); trace {}{}", cfg.name, cfg.clock_mhz, o.sets.size(), path,
               o.timing_only ? " (timing only)" : "");
    if (!o.out_dir.empty()) {
      std::error_code ec;
      fs::create_directories(o.out_dir, ec);
      if (ec)
        throw InputError(SourceLoc{o.out_dir, 0, 0}, "cannot create the output directory: " + ec.message());
    }
    const Sources sources = open_sources(path, cfg);
    Simulation sim;
    sim.name = path;
    sim.config = &cfg;
    sim.options = o;
    for (const auto& src : sources) sim.sources.push_back(src.get());
    sim.after_run = [&](const model::Chip& chip, RunResult& r, Diagnostics& d) {
      tensor_outputs(o, sources, chip, r, d);
    };
    RunResult r = run(sim, out, err);
    r.messages.insert(r.messages.begin(), diag.messages().begin(), diag.messages().end());
    return r;
  } catch (const InputError& e) {
    diag.error(e.what());
    RunResult r = failed_result(RunStatus::InputError, e.what());
    r.messages = diag.messages();
    return r;
  }
}

}  // namespace aicore::session
