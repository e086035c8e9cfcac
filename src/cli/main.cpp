// aicore-sim entry point. We own main() (instead of SystemC's) only to switch off SystemC's
// copyright banner before the kernel starts: users parse our stdout.
#include <cstdlib>
#include <iostream>
#include <systemc>

#include "aicore/session/process.hpp"
#include "commands.hpp"

int sc_main(int argc, char* argv[]) {
  aicore::session::route_systemc_reports();
  std::vector<std::string> args(argv + 1, argv + argc);
  return aicore::cli::dispatch(args, std::cout, std::cerr);
}

int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
