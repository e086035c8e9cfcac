// Command entry points of the generator tools, callable from any front end (aicore-gen, the
// aicore-sim CLI, tests). `args` are the arguments after the command name. Output goes to
// `out`, diagnostics to `err`. Return value = process exit status: 0 success, 2 bad input
// (command line, input file) or, for densify --strict, input that would lose data.
#pragma once
#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace aicore::gen {

// gen --m M --k K --n N (--sparse | --dense) --out DIR [--seed S] [--name NAME]
//     [--a A.npy] [--b B.npy] [--tile-m TM] [--tile-n TN] [--tile-k TK]
//     [--density D] [--pattern 4:2|full] [--lossy P] [--no-originals]
// `program` names the front end in usage lines ("aicore-gen", "aicore-sim").
int gen_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
             const std::string& program = "aicore-gen");

// gen --dtype half|bf16 --m M --k K --n N --out DIR [--b-layout nd|nt] [--base MxNxK]
//     [--l1-buffers 1|2] [--l0-buffers 1|2] [--timing-only [--blocks N]] [--values exact|random]
// The best-practice matmul kernel (gen/matmul.hpp). gen_main hands the arguments over when
// is_matmul_request (they name a --dtype).
bool is_matmul_request(const std::vector<std::string>& args);
int matmul_gen_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
                    const std::string& program);

// gen --stream --m ROWS --n COLS --out DIR [--tile RxC] [--cores N] [--rounds R] [--slices S]
// The GM -> L1 streaming kernel (gen/stream.hpp), when is_stream_request (they name --stream).
bool is_stream_request(const std::vector<std::string>& args);
int stream_gen_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
                    const std::string& program);

// densify INPUT(.npy | raw .bin) [--k K --n N] --b-out B.bin --idx-out IDX.bin [--kept-out KEPT.npy]
// [--strict]
int densify_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
                 const std::string& program = "aicore-gen");

// Runs body(): an InputError is printed (then gen's usage, when the command line was wrong), any
// other exception as "gen: error: ...", and the result is exit status 2.
int run_guarded(std::ostream& err, const std::string& program, const std::function<int()>& body);

// Synopsis (the command line after the program name) and one-line summary of each command, for
// the help texts of every front end; the usage text (--help, and after a command-line error).
const char* gen_synopsis();
const char* gen_summary();
const char* matmul_synopsis();  // gen --dtype half|bf16 ...
const char* matmul_summary();
std::string gen_usage(const std::string& program);
const char* densify_synopsis();
const char* densify_summary();
std::string densify_usage(const std::string& program);

}  // namespace aicore::gen
