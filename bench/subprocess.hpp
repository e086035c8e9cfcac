// Shared by the benchmarks that time aicore-sim from outside (bench_sim, bench_outputs): run a
// real binary as a subprocess, measure wall time, user+sys CPU time and peak RSS from its own
// wait4 rusage, and generate the ~104k-instruction sparse GEMM trace they both use.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace bench {

namespace fs = std::filesystem;

struct Result {
  double wall = 0, cpu = 0;  // seconds; cpu = user + sys
  long max_rss_kib = 0;
};

// Runs args (args[0] is a path, not looked up in PATH) to completion with stdout discarded and
// stderr kept aside (shown only in the exception when the process does not exit 0). wait4 gives
// this child's own rusage; getrusage(RUSAGE_CHILDREN) would report the max over *all* children.
Result run(const std::vector<std::string>& args);

// Best of several results: the minimum wall time and the minimum CPU time (each taken on its own,
// so preemption in one run does not inflate the CPU figure of another) and the largest RSS seen.
void keep_best(Result& best, const Result& r, bool first);

// run() n times -> keep_best over them.
Result best_of(int n, const std::vector<std::string>& args);

// The benchmark's work directory: argv[1] if given (created, kept), else a fresh
// /tmp/PREFIX.XXXXXX that is removed when this object goes out of scope, also on failure.
class WorkDir {
 public:
  WorkDir(int argc, char** argv, const char* prefix);
  ~WorkDir();
  WorkDir(const WorkDir&) = delete;
  WorkDir& operator=(const WorkDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
  bool owned_ = false;
};

// 16 x 18 output tiles x 17 k-chunks of the generator's default 128x256x128 tiling = 4896
// double-buffered steps of ~21 instructions: just over 100k instructions.
inline constexpr const char* kSparseM = "2048";
inline constexpr const char* kSparseK = "4352";
inline constexpr const char* kSparseN = "2304";
inline constexpr uint64_t kMinInstructions = 100000;

struct SparseTrace {
  fs::path trace;                   // DIR/sparse.trace
  Result gen;                       // the generator's run
  std::string description() const;  // "2048x4352x2304 sparse 4:2, default tiles"
};

// `aicore-sim gen --m 2048 --k 4352 --n 2304 --sparse --out DIR --name sparse --no-originals`.
SparseTrace gen_sparse_trace(const std::string& sim, const fs::path& dir);

// "instructions" from OUT_DIR/stats.json of a finished run.
uint64_t stats_instructions(const fs::path& out_dir);

}  // namespace bench
