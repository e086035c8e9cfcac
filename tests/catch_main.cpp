// Catch2's main(), compiled once for every test executable (tests/CMakeLists.txt). Instantiating
// the framework is by far the slowest file of the suite (over two minutes under ASan + UBSan), so
// the test binaries link this library instead of each compiling its own copy.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
