// Scale check: peak memory of `aicore-sim run` must not grow with the trace's length. Runs a
// synthetic, legal, flag-balanced trace of --small and of --large instructions (streamed to the
// simulator through a FIFO, so no file of that size is ever written) and compares the peak RSS
// of the two runs (wait4's ru_maxrss).
//
//   scale_rss AICORE_SIM [--small N] [--large N] [--max-ratio R] [--timing-only|--full]
//             [--outputs] [--keep-outputs] [-- EXTRA aicore-sim ARGS...]
//   scale_rss --write-trace N FILE      just write the synthetic trace
//
// --outputs asks for every per-instruction output (--instr-log --timeline --vcd); they are
// written to /dev/null through symlinks unless --keep-outputs (then they land under $TMPDIR).
// Exit 0 when large RSS <= R x small RSS (and both runs exit 0), 1 otherwise.
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

// One iteration: load A and B fractals, multiply, write C back, with forward flags
// (MTE2->MTE1->M->FIX) and reverse "slot free" flags (MTE1->MTE2, M->MTE1, FIX->M).
constexpr const char* kBody =
    "WaitFlag event=MTE1_MTE2 id=0\n"
    "DataCopy dst=L1:0 src=a blockLen=32\n"
    "SetFlag event=MTE2_MTE1 id=0\n"
    "WaitFlag event=MTE2_MTE1 id=0\n"
    "WaitFlag event=M_MTE1 id=0\n"
    "LoadData dst=L0A:0 src=L1:0 repeatTimes=1\n"
    "LoadData dst=L0B:0 src=L1:0x200 repeatTimes=1\n"
    "SetFlag event=MTE1_MTE2 id=0\n"
    "SetFlag event=MTE1_M id=0\n"
    "WaitFlag event=MTE1_M id=0\n"
    "WaitFlag event=FIX_M id=0\n"
    "Mmad dst=L0C:0 fm=L0A:0 filter=L0B:0 m=16 n=16 k=32\n"
    "SetFlag event=M_MTE1 id=0\n"
    "SetFlag event=M_FIX id=0\n"
    "WaitFlag event=M_FIX id=0\n"
    "Fixpipe dst=c src=L0C:0 nSize=16 mSize=16 srcStride=16 dstStride=16\n"
    "SetFlag event=FIX_M id=0\n";
constexpr uint64_t kBodyInstructions = 17;
constexpr const char* kHead =
    "# synthetic scale trace (tests/scale/scale_rss.cpp)\n"
    ".gm a size=1024\n"
    ".gm c size=1024\n"
    "SetFlag event=MTE1_MTE2 id=0\n"
    "SetFlag event=M_MTE1 id=0\n"
    "SetFlag event=FIX_M id=0\n";
constexpr const char* kTail =
    "WaitFlag event=MTE1_MTE2 id=0\n"
    "WaitFlag event=M_MTE1 id=0\n"
    "WaitFlag event=FIX_M id=0\n";
constexpr uint64_t kFrameInstructions = 6;
// Pads to the exact count with instructions that need no flags.
constexpr const char* kPad = "PipeBarrier pipe=PIPE_MTE2\n";

// Writes a trace of exactly n instructions (n >= 6) to f.
void write_trace(std::FILE* f, uint64_t n) {
  std::fputs(kHead, f);
  const uint64_t body = n > kFrameInstructions ? n - kFrameInstructions : 0;
  std::string chunk;
  const uint64_t per_chunk = 64;
  for (uint64_t i = 0; i < per_chunk; ++i) chunk += kBody;
  uint64_t iters = body / kBodyInstructions;
  for (; iters >= per_chunk; iters -= per_chunk) std::fwrite(chunk.data(), 1, chunk.size(), f);
  for (; iters > 0; --iters) std::fputs(kBody, f);
  for (uint64_t i = 0; i < body % kBodyInstructions; ++i) std::fputs(kPad, f);
  std::fputs(kTail, f);
}

struct Result {
  int status = -1;
  double seconds = 0, rss_mb = 0;
};

Result run(const std::string& sim, uint64_t n, const fs::path& dir, const std::vector<std::string>& extra,
           bool keep_outputs, bool outputs) {
  const fs::path fifo = dir / ("n" + std::to_string(n) + ".trace");
  const fs::path out = dir / ("out" + std::to_string(n));
  fs::create_directories(out);
  if (outputs && !keep_outputs)
    for (const char* f : {"instr.csv", "timeline.json", "waves.vcd"})
      fs::create_symlink("/dev/null", out / f);
  if (mkfifo(fifo.c_str(), 0600) != 0) {
    std::perror("mkfifo");
    std::exit(2);
  }
  const pid_t writer = fork();
  if (writer == 0) {
    std::signal(SIGPIPE, SIG_DFL);
    std::FILE* f = std::fopen(fifo.c_str(), "w");
    if (!f) _exit(1);
    write_trace(f, n);
    std::fclose(f);
    _exit(0);
  }
  std::vector<std::string> args = {sim, "run", fifo.string(), "--out", out.string(), "-q"};
  if (outputs)
    for (const char* a : {"--instr-log", "--timeline", "--vcd"}) args.push_back(a);
  args.insert(args.end(), extra.begin(), extra.end());
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(sim.c_str(), argv.data());
    _exit(127);
  }
  int status = 0;
  struct rusage ru {};
  wait4(pid, &status, 0, &ru);
  Result r;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.rss_mb = static_cast<double>(ru.ru_maxrss) / 1024.0;
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  kill(writer, SIGTERM);  // only matters if the simulator stopped reading early
  waitpid(writer, nullptr, 0);
  std::printf("%10llu instructions: exit %d, %7.2f s (%.2f us/instruction), peak RSS %7.1f MB\n",
              static_cast<unsigned long long>(n), r.status, r.seconds,
              r.seconds * 1e6 / static_cast<double>(n), r.rss_mb);
  std::fflush(stdout);
  if (!keep_outputs) fs::remove_all(out);
  return r;
}

[[noreturn]] void usage() {
  std::fprintf(stderr,
               "usage: scale_rss AICORE_SIM [--small N] [--large N] [--max-ratio R] [--timing-only|--full]\n"
               "                 [--outputs] [--keep-outputs] [-- EXTRA ARGS...]\n"
               "       scale_rss --write-trace N FILE\n");
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 4 && std::strcmp(argv[1], "--write-trace") == 0) {
    std::FILE* f = std::fopen(argv[3], "w");
    if (!f) usage();
    write_trace(f, std::strtoull(argv[2], nullptr, 10));
    return std::fclose(f) == 0 ? 0 : 1;
  }
  if (argc < 2) usage();
  const std::string sim = fs::absolute(argv[1]).string();
  uint64_t small = 100000, large = 1000000;
  double max_ratio = 1.2;
  bool timing_only = true, keep = false, outputs = false;
  std::vector<std::string> extra;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--small" && i + 1 < argc)
      small = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--large" && i + 1 < argc)
      large = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--max-ratio" && i + 1 < argc)
      max_ratio = std::strtod(argv[++i], nullptr);
    else if (a == "--timing-only")
      timing_only = true;
    else if (a == "--full")
      timing_only = false;
    else if (a == "--outputs")
      outputs = true;
    else if (a == "--keep-outputs")
      keep = true;
    else if (a == "--") {
      extra.assign(argv + i + 1, argv + argc);
      break;
    } else
      usage();
  }
  if (small < kFrameInstructions || large < small) usage();
  if (timing_only) extra.insert(extra.begin(), "--timing-only");

  std::string tmpl = (fs::temp_directory_path() / "aicore-scale-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) return 2;
  const fs::path dir = tmpl;
  std::printf("aicore-sim run%s%s, synthetic flag-balanced trace streamed through a FIFO\n",
              timing_only ? " --timing-only" : "", outputs ? " --instr-log --timeline --vcd" : "");
  const Result a = run(sim, small, dir, extra, keep, outputs);
  const Result b = run(sim, large, dir, extra, keep, outputs);
  if (!keep) fs::remove_all(dir);
  const double ratio = b.rss_mb / a.rss_mb;
  std::printf("peak RSS ratio %.3f (limit %.2f)\n", ratio, max_ratio);
  if (a.status != 0 || b.status != 0) {
    std::printf("FAIL: a run did not exit 0\n");
    return 1;
  }
  if (ratio > max_ratio) {
    std::printf("FAIL: memory grows with the trace's length\n");
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
