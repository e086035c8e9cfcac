// `.asc` sources: the launch rewrite written beside the object (prepare_asc_source), and
// `aicore-sim asc-cc`, the compiler and linker the ASC CMake language runs (cmake/asc/).
#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>

#include "asc_rewrite.hpp"
#include "commands.hpp"
#include "kernel_build.hpp"

extern char** environ;

namespace aicore::cli {

namespace fs = std::filesystem;

std::string prepare_asc_source(const std::string& source, const std::string& rewritten) {
  std::ifstream in(source, std::ios::binary);
  if (!in) return source + ":1:1: error: cannot read " + source;
  std::ostringstream text;
  text << in.rdbuf();
  const AscRewrite r = rewrite_asc_launches(text.str());
  if (!r.error.empty())
    return source + ":" + r.error.substr(0, r.error.find(": ")) +
           ": error: " + r.error.substr(r.error.find(": ") + 2);
  std::error_code ec;
  if (fs::path(rewritten).has_parent_path()) fs::create_directories(fs::path(rewritten).parent_path(), ec);
  std::ofstream out(rewritten, std::ios::binary);
  std::string quoted;
  for (const char c : source) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  out << "#line 1 \"" << quoted << "\"\n" << r.text;
  if (!out.flush()) return source + ":1:1: error: cannot write " + rewritten;
  return "";
}

namespace {

int run(const std::vector<std::string>& argv, std::ostream& err) {
  std::vector<char*> cargv;
  for (const std::string& s : argv) cargv.push_back(const_cast<char*>(s.c_str()));
  cargv.push_back(nullptr);
  pid_t pid = 0;
  if (const int rc = posix_spawnp(&pid, cargv[0], nullptr, nullptr, cargv.data(), environ); rc != 0) {
    err << "aicore-sim asc-cc: error: cannot run " << argv[0] << ": " << std::strerror(rc) << "\n";
    return kExitBadInput;
  }
  int st = 0;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) return kExitBadInput;
  return WIFEXITED(st) ? WEXITSTATUS(st) : kExitBadInput;
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

int asc_cc_command(const std::vector<std::string>& given, std::ostream& err) {
  // An option list CMake passed as one argument ("--npu-arch=dav-2201 --enable-simt"): split it.
  std::vector<std::string> args;
  for (const std::string& a : given) {
    if (a.rfind("--", 0) == 0 && a.find(' ') != std::string::npos) {
      std::istringstream words(a);
      for (std::string w; words >> w;) args.push_back(w);
    } else {
      args.push_back(a);
    }
  }
  if (args.size() == 1 && args[0] == "--version") {
    err << "aicore-sim asc-cc: the ASC language of aicore-sim (C++17 with the simulator's Ascend C headers, "
           "compiled by "
        << kernel_compiler() << ")\n";
    return kExitOk;
  }
  bool compile = false;
  std::string output;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "-c") compile = true;
    if (args[i] == "-o" && i + 1 < args.size()) output = args[i + 1];
  }
  std::vector<std::string> argv{kernel_compiler()};
  if (compile) {
    argv.push_back("-O2");  // as `aicore-sim kernel`; the build type's flags come after and win
    const std::vector<std::string> f = kernel_compile_flags();
    argv.insert(argv.end(), f.begin(), f.end());
  }
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.rfind("--npu-arch=", 0) == 0) {
      const std::string arch = a.substr(std::strlen("--npu-arch="));
      if (arch != "dav-2201") {
        err << "aicore-sim asc-cc: error: --npu-arch=" << arch
            << ": aicore-sim simulates NPU arch 2201 (Atlas A2/A3) only: use --npu-arch=dav-2201 "
               "(CMAKE_ASC_ARCHITECTURES=dav-2201)\n";
        return kExitBadInput;
      }
      continue;
    }
    if (a == "--enable-simt") {
      err << "aicore-sim asc-cc: error: --enable-simt: SIMT kernels run on the Vector cores; aicore-sim "
             "simulates "
             "the Cube (AIC) side only\n";
      return kExitBadInput;
    }
    if (a.rfind("--cce-", 0) == 0) continue;  // bisheng's code-generation options: nothing to do here
    if (compile && ends_with(a, ".asc")) {
      const std::string rewritten = (output.empty() ? fs::path(a).filename().string() : output) + ".cpp";
      if (const std::string e = prepare_asc_source(a, rewritten); !e.empty()) {
        err << e << "\n";
        return kExitBadInput;
      }
      // Quoted includes of the .asc (data_utils.h) are found beside it, not beside the copy.
      argv.push_back("-iquote");
      argv.push_back(fs::path(a).has_parent_path() ? fs::path(a).parent_path().string() : ".");
      argv.push_back(rewritten);
      continue;
    }
    argv.push_back(a);
  }
  if (!compile) {
    const std::vector<std::string> l = kernel_link_flags();
    argv.insert(argv.end(), l.begin(), l.end());
  }
  return run(argv, err);
}

}  // namespace aicore::cli
