// aicore-gen: the generator commands on their own (`aicore-sim gen` and `densify` run the same code).
#include <iostream>
#include <string>
#include <vector>

#include "aicore/gen/cli.hpp"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + (argc > 1 ? 2 : 1), argv + argc);
  const std::string cmd = argc > 1 ? argv[1] : "";
  if (cmd == "gen") return aicore::gen::gen_main(args, std::cout, std::cerr);
  if (cmd == "densify") return aicore::gen::densify_main(args, std::cout, std::cerr);
  std::cerr << "usage: aicore-gen gen|densify [options]   (--help after a command for its options)\n";
  return cmd == "--help" || cmd == "-h" ? 0 : 2;
}
