#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

// libsystemc's main() needs an sc_main to link; Catch2's main() above is the one that runs.
extern "C" int sc_main(int, char*[]) {
  return 0;
}
