// Command entry points of the generator tools, callable from any front end (aicore-gen, the
// aicore-sim CLI, tests). `args` are the arguments after the command name. Output goes to
// `out`, diagnostics to `err`. Return value = process exit status: 0 success, 2 bad input
// (command line, input file) or, for densify --strict, input that would lose data.
#pragma once
#include <ostream>
#include <string>
#include <vector>

namespace aicore::gen {

// gen --m M --k K --n N (--sparse | --dense) --out DIR [--seed S] [--name NAME]
//     [--a A.npy] [--b B.npy] [--tile-m TM] [--tile-n TN] [--tile-k TK]
//     [--density D] [--pattern 4:2|full] [--lossy P] [--no-originals]
int gen_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// densify INPUT(.npy | raw .bin) [--k K --n N] --b-out B.bin --idx-out IDX.bin [--kept-out KEPT.npy]
// [--strict]
int densify_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// Usage text of each command (printed for --help and after a command-line error).
const char* gen_usage();
const char* densify_usage();

}  // namespace aicore::gen
