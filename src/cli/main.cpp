// aicore-sim entry point. We own main() (instead of SystemC's) only to switch off SystemC's
// copyright banner before the kernel starts: users parse our stdout.
#include <cstdlib>
#include <iostream>
#include <systemc>

#include "commands.hpp"

namespace {

// SystemC displays its reports on stdout; ours carries results only (diagnostics.hpp), so what
// SystemC has to say goes to stderr like every other diagnostic.
void report_to_stderr(const sc_core::sc_report& report, const sc_core::sc_actions& actions) {
  if (actions & sc_core::SC_DISPLAY) std::cerr << sc_core::sc_report_compose_message(report) << std::endl;
  sc_core::sc_report_handler::default_handler(report, actions & ~sc_core::SC_DISPLAY);
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  // SystemC's informational reports (e.g. "simulation stopped by user" after a fault) say
  // nothing a user needs; faults are reported by the CLI itself.
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  sc_core::sc_report_handler::set_handler(report_to_stderr);
  std::vector<std::string> args(argv + 1, argv + argc);
  return aicore::cli::dispatch(args, std::cout, std::cerr);
}

int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
