// `aicore-sim kernel FILE.cpp [options] [-- compiler flags]`: builds an Ascend C kernel program
// (its kernels and its CPU-debug main) against include/ascendc with this build's compiler, runs
// it, and lets every launch it makes be simulated with the run options given here (passed to the
// program in $AICORE_SIM_ARGS, read by src/frontend). Exit status: the program's, where 2 and 3
// mean what they mean for `run`; any other failure of the program is 1.
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <ostream>

#include "aicore/common/error.hpp"
#include "aicore/common/install.hpp"
#include "aicore/config/loader.hpp"
#include "aicore/session/launch_args.hpp"
#include "commands.hpp"
#include "kernel_build.hpp"
#include "options.hpp"

extern char** environ;

namespace aicore::cli {

namespace fs = std::filesystem;

namespace {

const char* kSynopsis = "kernel FILE.cpp [options] [-- compiler flags]";

using session::kLaunchArgsVariable;

struct KernelArgs {
  std::string file;
  session::LaunchArgs launch;
  std::string check = "error";  // --check as typed
  bool help = false;
};

po::options_description kernel_options(KernelArgs& k) {
  session::RunOptions& a = k.launch.run;
  po::options_description o;
  o.add_options()(
      "config", po::value(&a.config)->value_name("PRESET|YAML"),
      "preset (atlas-a2, atlas-a3 or a SoC: config list) or YAML file, as for run (default atlas-a2)")(
      "set", po::value(&a.sets)->value_name("KEY=VALUE")->composing(),
      "override one config key (repeatable)")(
      "out", po::value(&a.out_dir)->value_name("DIR"),
      "output directory (default ./out): the program in DIR/build, one folder per launch (DIR/KERNEL, "
      "DIR/KERNEL_2, ...) with its stats.json and the files below")(
      "timing-only", po::bool_switch(&a.timing_only),
      "cycles only: the kernels' data is not computed (GM buffers keep their inputs)")(
      "instr-log", po::bool_switch(&a.instr_log), "write instr.csv per launch")(
      "timeline", po::bool_switch(&a.timeline), "write timeline.json per launch")(
      "vcd", po::bool_switch(&a.vcd), "write waves.vcd per launch")(
      "window", po::value(&a.window)->value_name("START:END"),
      "limit timeline.json and waves.vcd to these cycles")(
      "emit-trace", po::bool_switch(&k.launch.emit_trace),
      "also write each launch's recorded trace(s) (kernel.trace, or blockN.trace and kernel.yaml), its GM "
      "inputs and the results it computed, for aicore-sim run")(
      "check", po::value(&k.check)->value_name("error|warn|none"),
      "race/sync checker of each launch, as for run: error (default: reports, and errors stop the program "
      "with "
      "exit 3), warn (reports only) or none")(
      "quiet,q", po::bool_switch(&a.quiet), "no summaries or notes; warnings and errors still go to stderr")(
      "verbose,v", po::value(&a.verbosity)->value_name("N")->implicit_value(1, ""),
      "diagnostics on stderr: -v info, -v 2 every instruction as it runs")("help,h", po::bool_switch(&k.help),
                                                                           "this help");
  return o;
}

// Runs argv with `extra_env` added, stdout/stderr inherited; the wait status, or -1 with errno.
int spawn_and_wait(const std::vector<std::string>& argv, const std::string& extra_env) {
  std::vector<char*> cargv;
  for (const std::string& s : argv) cargv.push_back(const_cast<char*>(s.c_str()));
  cargv.push_back(nullptr);
  std::vector<char*> env;
  for (char** e = environ; *e; ++e)
    if (std::strncmp(*e, kLaunchArgsVariable, std::strlen(kLaunchArgsVariable)) != 0 ||
        (*e)[std::strlen(kLaunchArgsVariable)] != '=')
      env.push_back(*e);
  std::string var = std::string(kLaunchArgsVariable) + "=" + extra_env;
  if (!extra_env.empty()) env.push_back(var.data());
  env.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, cargv[0], nullptr, nullptr, cargv.data(), env.data());
  if (rc != 0) {
    errno = rc;
    return -1;
  }
  int st = 0;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) return -1;
  return st;
}

// Splits at the first "--": the command's own arguments, then the compiler flags.
void split_at_dashes(const std::vector<std::string>& args, std::vector<std::string>& own,
                     std::vector<std::string>& flags) {
  bool after = false;
  for (const std::string& s : args) {
    if (!after && s == "--") {
      after = true;
      continue;
    }
    (after ? flags : own).push_back(s);
  }
}

std::optional<int> check_options(KernelArgs& k, std::ostream& err) {
  if (k.file.empty()) {
    err << "aicore-sim kernel: error: missing FILE.cpp (the kernel program to build and run)\n"
        << "usage: aicore-sim " << kSynopsis << "\n";
    return kExitBadInput;
  }
  const auto mode = session::check_mode_from(k.check);
  if (!mode) {
    err << "aicore-sim kernel: error: " << session::check_mode_error(k.check) << "\n";
    return kExitBadInput;
  }
  k.launch.run.check = *mode;
  // The program will parse what it is handed the same way: refuse now what it would refuse then.
  if (!session::parse_launch_args(session::launch_args_text(k.launch), err)) return kExitBadInput;
  return std::nullopt;
}

int build(const KernelArgs& k, const std::vector<std::string>& flags, const std::string& binary,
          std::ostream& err, Diagnostics& diag) {
  const auto t0 = std::chrono::steady_clock::now();
  std::string source = k.file;
  std::vector<std::string> extra;
  if (fs::path(k.file).extension() == ".asc") {
    // The <<<>>> launches translated, beside the binary; the .asc's own folder for its quoted includes.
    source = binary + ".asc.cpp";
    if (const std::string e = prepare_asc_source(k.file, source); !e.empty()) {
      err << e << "\naicore-sim kernel: error: " << k.file << " did not compile\n";
      return kExitBadInput;
    }
    extra = {"-iquote", fs::path(k.file).has_parent_path() ? fs::path(k.file).parent_path().string() : "."};
  }
  extra.insert(extra.end(), flags.begin(), flags.end());
  const std::vector<std::string> argv = kernel_compile_command(source, binary, extra);
  if (k.launch.run.verbosity > 0) {
    std::string line;
    for (const std::string& a : argv) line += (line.empty() ? "" : " ") + a;
    diag.note("compiling: " + line);
  }
  const int st = spawn_and_wait(argv, "");
  if (st < 0) {
    err << "aicore-sim kernel: error: cannot run the compiler: " << std::strerror(errno) << "\n";
    return kExitBadInput;
  }
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    err << "aicore-sim kernel: error: " << k.file << " did not compile (the compiler's messages are above)\n";
    return kExitBadInput;
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", s);
  diag.note("built " + binary + " in " + buf + " s");
  return kExitOk;
}

}  // namespace

CommandHelp kernel_help() {
  KernelArgs k;
  return {
      kSynopsis,
      "build an Ascend C kernel program (kernel_operator.h, a CPU-debug main with ICPU_RUN_KF) with g++,\n"
      "  run it, and simulate every launch it makes",
      "  Flags after '--' go to the compiler (e.g. -- -O0 -g -DBLOCKS=3; a macro must not take a name the\n"
      "  header uses, such as M or FIX). Each launch's summary and files are as for run. Exit status: 0 ok,\n"
      "  1 the program failed (e.g. its own result check), 2 bad input (options, a compile error), 3 a\n"
      "  kernel error, a failed simulation or checker errors.\n",
      format_options(kernel_options(k), 2)};
}

int kernel_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  std::vector<std::string> own, flags;
  split_at_dashes(args, own, flags);
  KernelArgs k;
  po::options_description all;
  all.add(kernel_options(k)).add_options()("file", po::value(&k.file), "the kernel program");
  po::positional_options_description pos;
  pos.add("file", 1);
  po::variables_map vm;
  if (!parse_options("kernel", own, all, &pos, vm, kSynopsis, err)) return kExitBadInput;
  if (k.help) {
    out << command_help_text(kernel_help());
    return kExitOk;
  }
  if (const auto done = check_options(k, err)) return *done;
  const session::RunOptions& run = k.launch.run;
  Diagnostics diag(err, run.quiet);
  try {
    load_config(run.config, run.sets, diag);  // bad config: exit 2 before building anything
  } catch (const InputError& e) {
    err << e.what() << "\n";
    return kExitBadInput;
  }
  if (!fs::is_regular_file(k.file) || !std::ifstream(k.file)) {
    err << "aicore-sim kernel: error: cannot read " << k.file << "\n";
    return kExitBadInput;
  }
  std::error_code ec;
  const fs::path build_dir = fs::path(run.out_dir) / "build";
  fs::create_directories(build_dir, ec);
  if (ec) {
    err << "aicore-sim kernel: error: cannot create " << build_dir.string() << ": " << ec.message() << "\n";
    return kExitBadInput;
  }
  const std::string binary = (build_dir / fs::path(k.file).stem()).string();
  if (const int b = build(k, flags, binary, err, diag); b != kExitOk) return b;
  // The program is not in an installed tree's bin/: tell it where this one found the presets.
  if (const char* env = std::getenv("AICORE_CONFIGS_DIR"); (!env || !*env) && runs_installed())
    ::setenv("AICORE_CONFIGS_DIR", config::default_configs_dir().c_str(), 1);
  const int st = spawn_and_wait({binary}, session::launch_args_text(k.launch));
  if (st < 0) {
    err << "aicore-sim kernel: error: cannot run " << binary << ": " << std::strerror(errno) << "\n";
    return kExitFault;
  }
  if (WIFSIGNALED(st)) {
    err << "aicore-sim kernel: error: " << binary << " was killed by signal " << WTERMSIG(st) << " ("
        << strsignal(WTERMSIG(st)) << ")\n";
    return kExitFault;
  }
  const int status = WEXITSTATUS(st);
  if (status == kExitOk || status == kExitBadInput || status == kExitFault) return status;
  err << "aicore-sim kernel: error: " << binary << " exited with status " << status << "\n";
  return kExitMismatch;
}

}  // namespace aicore::cli
