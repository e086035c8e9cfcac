// Every shipped trace in traces/ runs bit-exact (.expect) on both presets.
#include <catch2/catch.hpp>
#include <filesystem>

#include "harness.hpp"

namespace fs = std::filesystem;

TEST_CASE("every trace in traces/ matches its golden result on atlas-a2 and atlas-a3", "[cli][traces]") {
  int count = 0;
  for (const auto& e : fs::recursive_directory_iterator(AICORE_TRACES_DIR)) {
    if (e.path().extension() != ".trace") continue;
    for (const char* preset : {"atlas-a2", "atlas-a3"}) {
      harness::TempDir d;
      const auto r = harness::run("run " + e.path().string() + " --config " + preset + " --out " + d.file("out"));
      INFO(e.path() << " on " << preset << "\n" << r.out << r.err);
      CHECK(r.status == 0);
      CHECK_THAT(r.out, Catch::Contains("match"));
      ++count;
    }
  }
  CHECK(count >= 6);
}
