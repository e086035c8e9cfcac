// A launch: every block in turn on its own memories, then the recorded programs simulated together
// (simulate.hpp) and, with --emit-trace, written as traces (emit_trace.hpp).
#include "aicore/frontend/launch.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>

#include "aicore/frontend/launch_options.hpp"
#include "aicore/frontend/pipe_core.hpp"
#include "aicore/frontend/runtime.hpp"
#include "ascendc/detail/compiler_env.hpp"
#include "emit_trace.hpp"
#include "names.hpp"
#include "simulate.hpp"
#include "state.hpp"

// libsystemc's own main() calls sc_main; a kernel program has its own main(), so this one is only
// there to link (it is in the object every ICPU_RUN_KF pulls in).
extern "C" int sc_main(int, char*[]) {
  return 0;
}

namespace AscendC::detail {

void kernel_task_type(KernelMetaType t, aicore::frontend::CallSite site) {
  if (t != KERNEL_TYPE_AIC_ONLY && t != KERNEL_TYPE_MIX_AIC_1_0)
    aicore::frontend::fail(site, "KERNEL_TASK_TYPE_DEFAULT",
                           "aicore-sim runs Cube-only kernels (KERNEL_TYPE_AIC_ONLY); this kernel type needs "
                           "the Vector cores");
}

void allocator_alive(Hardware hard, bool alive, aicore::frontend::CallSite site) {
  aicore::frontend::Launch* l = aicore::frontend::current_launch();
  if (!l) {
    if (alive) aicore::frontend::need_block(site, "LocalMemAllocator");
    return;
  }
  uint32_t& n = l->allocators_alive[static_cast<size_t>(hard)];
  if (!alive) {
    if (n) --n;
    return;
  }
  if (n)
    aicore::frontend::fail(site, "LocalMemAllocator",
                           "a second allocator of the same hardware buffer is alive");
  ++n;
}

}  // namespace AscendC::detail

namespace aicore::frontend {

namespace fs = std::filesystem;

namespace {

KernelMode& kernel_mode() {
  static KernelMode m = KernelMode::Mix;
  return m;
}

[[noreturn]] void stop(int status, const std::string& message) {
  std::fflush(stdout);
  std::cout.flush();
  std::cerr << message << std::endl;
  std::exit(status);
}

// DIR/KERNEL for a kernel's first launch, DIR/KERNEL_2 for its second, ...
std::string launch_dir(const std::string& out, const std::string& kernel) {
  static std::map<std::string, int> launches;
  const int n = ++launches[kernel];
  return (fs::path(out) / (n == 1 ? kernel : kernel + "_" + std::to_string(n))).string();
}

void run_block(Launch& l, uint32_t b, const std::function<void()>& body) {
  l.block = std::make_unique<Block>(b, l.cfg->buffers);
  try {
    body();
    if (const PipeCore* p = PipeCore::current(); p != nullptr)
      fail(CallSite{}, "TPipe",
           "the kernel returned with its TPipe still alive (a TPipe must be local to the kernel)");
  } catch (const KernelError& e) {
    stop(3, std::string(e.what()) + "\naicore-sim: kernel " + l.kernel + " stopped in block " +
                std::to_string(b) + " of " + std::to_string(l.blocks));
  }
  l.programs.push_back(std::move(l.block->program));
  l.block.reset();
}

}  // namespace

void set_kernel_mode(KernelMode m, CallSite site) {
  if (m == KernelMode::Aiv)
    stop(
        2,
        std::string(site.file) + ":" + std::to_string(site.line) +
            ": error: SetKernelMode: AIV_MODE kernels run on the Vector cores; aicore-sim simulates the Cube "
            "(AIC) side only");
  kernel_mode() = m;
}

void launch(const char* kernel, uint32_t blocks, const std::function<void()>& body,
            const std::vector<const void*>& args, const char* arg_text, CallSite site, const char* api) {
  const LaunchOptions& opt = launch_options();
  const std::string at = std::string(site.file) + ":" + std::to_string(site.line) + ": error: " + api + ": ";
  if (current_launch()) stop(3, at + "a launch inside a running kernel");
  if (blocks == 0) stop(2, at + "blockDim is 0");
  if (blocks > opt.config.chip.cores)
    stop(2, at + "the kernel launches " + std::to_string(blocks) +
                " blocks but chip.cores = " + std::to_string(opt.config.chip.cores) +
                " (raise it with --set chip.cores=" + std::to_string(blocks) + ")");
  Launch l;
  l.kernel = kernel;
  l.blocks = blocks;
  l.cfg = &opt.config;
  l.timing_only = opt.run.timing_only;
  const std::string dir = launch_dir(opt.run.out_dir, kernel);
  const LaunchTensors tensors = snapshot_tensors(args, arg_text, opt.emit_trace && !l.timing_only);
  set_current_launch(&l);
  for (uint32_t b = 0; b < blocks; ++b) run_block(l, b, body);
  set_current_launch(nullptr);

  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec)
    stop(2, "aicore-sim: error: cannot create the launch's output directory " + dir + ": " + ec.message());
  RecordedLaunch rec = finish_recording(l, tensors, site);
  if (!opt.run.quiet)
    std::cout << "== launch " << kernel << ": " << blocks << " block(s), " << rec.instructions()
              << " instructions -> " << dir << std::endl;
  if (opt.emit_trace) emit_traces(rec, dir, opt, std::cout);
  const int status = simulate(rec, dir, opt);
  if (status != 0)
    stop(status, "aicore-sim: the simulation of kernel " + std::string(kernel) + " failed (exit status " +
                     std::to_string(status) + "); its outputs are in " + dir);
}

}  // namespace aicore::frontend
