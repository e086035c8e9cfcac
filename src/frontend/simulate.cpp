#include "simulate.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>

#include "aicore/common/log.hpp"
#include "aicore/model/source.hpp"
#include "run_pipeline.hpp"
#include "systemc_reports.hpp"

namespace aicore::frontend {

namespace {

int run_child(const RecordedLaunch& rec, const std::string& dir, const LaunchOptions& opt) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  cli::route_systemc_reports();
  set_verbosity(opt.run.verbosity);
  std::vector<model::TensorDecl> decls;
  for (const RecordedTensor& t : rec.tensors) {
    model::TensorDecl d;
    d.name = t.name;
    d.bytes = t.bytes;
    d.loc = SourceLoc{rec.site.file, rec.site.line, 0};
    decls.push_back(d);
  }
  std::vector<std::unique_ptr<model::ProgramSource>> sources;
  cli::PipelineRun run;
  for (const auto& program : rec.programs) {
    sources.push_back(std::make_unique<model::ProgramSource>(decls, program));
    run.sources.push_back(sources.back().get());
  }
  cli::RunArgs args = opt.run;
  args.out_dir = dir;
  args.trace = rec.kernel;
  args.timing_only = true;  // the kernel's data is already computed
  run.args = &args;
  run.window = opt.window;
  run.cfg = &opt.config;
  run.end_name = "at the end of the kernel";
  return cli::run_pipeline(run, std::cout, std::cerr);
}

}  // namespace

int simulate(const RecordedLaunch& rec, const std::string& dir, const LaunchOptions& opt) {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);  // or the child would write the parent's buffered output a second time
  const pid_t pid = fork();
  if (pid < 0) {
    std::cerr << "aicore-sim: error: cannot start the simulation of " << rec.kernel
              << ": fork: " << std::strerror(errno) << std::endl;
    return 3;
  }
  if (pid == 0) {
    int status = 3;
    try {
      status = run_child(rec, dir, opt);
    } catch (const std::exception& e) {
      std::cerr << "aicore-sim: error: the simulation of " << rec.kernel << " failed: " << e.what()
                << std::endl;
    }
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    _exit(status);  // not exit(): the program's atexit handlers and destructors belong to the parent
  }
  int st = 0;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) return 3;
  if (WIFEXITED(st)) return WEXITSTATUS(st);
  std::cerr << "aicore-sim: error: the simulation of " << rec.kernel << " died by signal " << WTERMSIG(st)
            << std::endl;
  return 3;
}

}  // namespace aicore::frontend
