// SyncAll(), SetAtomicAdd<T>() and SetAtomicNone() through the Ascend C front end
// (kernels/splitk.cpp): two blocks add their int32 partials into one C, bit-exact; the recorded
// program carries the three instructions; without the atomic mode the race checker names the fix.
#include <catch2/catch.hpp>

#include <algorithm>

#include "runner.hpp"

using namespace frontend_test;

TEST_CASE("split-K through the front end: SetAtomicAdd<int32_t>, SyncAll, bit-exact", "[examples][atomic]") {
  TempDir dir;
  const Result r = run_kernel("splitk", "", {"--out=" + dir.file("out"), "-q", "--emit-trace"});
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("splitk: ok") != std::string::npos);
  // Block 0 is not the last: its reads after SyncAll could not see block 1's writes; said once.
  CHECK(r.err.find("warning: SyncAll: the blocks of a launch compute their data one after another") !=
        std::string::npos);
  const auto st = statements(dir.file("out/splitk/block0.trace"));
  const auto at = [&](const std::string& s) { return std::find(st.begin(), st.end(), s) - st.begin(); };
  REQUIRE(at("SetAtomicAdd dtype=int32") < static_cast<long>(st.size()));
  CHECK(at("SetAtomicAdd dtype=int32") < at("SetAtomicNone"));
  CHECK(at("SetAtomicNone") < at("SyncAll"));
  // The emitted kernel runs again with aicore-sim run: the same C (int32 adds commute).
  const Result again = run_sim("run " + dir.file("out/splitk/kernel.yaml") + " --out " + dir.file("again"));
  INFO(again.out << again.err);
  CHECK(again.status == 0);
  CHECK(again.out.find("match") != std::string::npos);
}

TEST_CASE("split-K through the front end without the atomic mode: a cross-core race naming SetAtomicAdd",
          "[examples][atomic][check]") {
  TempDir dir;
  const Result r = run_kernel("splitk", "plain", {"--out=" + dir.file("out"), "-q"});
  INFO(r.out << r.err);
  CHECK(r.status == 3);
  CHECK(r.err.find("cross-core data race (WAW) on GM gc") != std::string::npos);
  CHECK(r.err.find("wrap the Fixpipe on each core in SetAtomicAdd<int32_t>() ... SetAtomicNone()") !=
        std::string::npos);
}
