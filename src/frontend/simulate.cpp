#include "simulate.hpp"

#include <iostream>
#include <memory>

#include "aicore/model/source.hpp"
#include "aicore/session/process.hpp"
#include "aicore/session/session.hpp"

namespace aicore::frontend {

namespace {

session::RunResult run_launch(const RecordedLaunch& rec, const std::string& dir, const LaunchOptions& opt,
                              std::ostream& out, std::ostream& err) {
  std::vector<model::TensorDecl> decls;
  for (const RecordedTensor& t : rec.tensors) {
    model::TensorDecl d;
    d.name = t.name;
    d.bytes = t.bytes;
    d.loc = SourceLoc{rec.site.file, rec.site.line, 0};
    decls.push_back(d);
  }
  std::vector<std::unique_ptr<model::ProgramSource>> sources;
  session::Simulation sim;
  for (const auto& program : rec.programs) {
    sources.push_back(std::make_unique<model::ProgramSource>(decls, program));
    sim.sources.push_back(sources.back().get());
  }
  sim.name = rec.kernel;
  sim.config = &opt.config;
  sim.options = opt.run;
  sim.options.out_dir = dir;
  sim.options.timing_only = true;  // the kernel's data is already computed
  sim.end_name = "at the end of the kernel";
  return session::run(sim, out, err);
}

}  // namespace

int simulate(const RecordedLaunch& rec, const std::string& dir, const LaunchOptions& opt) {
  return session::run_in_child(
             [&](std::ostream& out, std::ostream& err) { return run_launch(rec, dir, opt, out, err); },
             std::cout, std::cerr, rec.kernel)
      .exit_status;
}

}  // namespace aicore::frontend
