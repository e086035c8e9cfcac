// The APIs the examples leave out (kernels/api.cpp checks each against host values), and the flags
// the scalar variant records: FreeAllEvent drains the queue's free id before ~TPipe, TQueSync sets
// raw flags, V events vanish on the AIC and FIX_FIX is PipeBarrier<PIPE_FIX>.
#include <catch2/catch.hpp>

#include "runner.hpp"

using namespace frontend_test;

TEST_CASE("the APIs the examples do not use behave as documented", "[api]") {
  for (const char* v : {"bias", "bf16", "scalar"}) {
    TempDir dir;
    const Result r = run_kernel("api", v, {"--out=" + dir.file("out"), "-q", "--emit-trace"});
    INFO(v << "\n" << r.out << r.err);
    CHECK(r.status == 0);
    CHECK(r.out.find(std::string("api ") + v + ": ok") != std::string::npos);
    if (std::string(v) != "scalar") continue;
    const std::vector<std::string> want = {
        "SetFlag event=M_MTE1 id=0",     "SetFlag event=M_MTE1 id=1",  "SetFlag event=M_MTE1 id=2",
        "SetFlag event=M_FIX id=0",      "WaitFlag event=M_FIX id=0",  "SetFlag event=FIX_M id=0",
        "WaitFlag event=FIX_M id=0",     "WaitFlag event=M_MTE1 id=0", "WaitFlag event=M_MTE1 id=1",
        "WaitFlag event=M_MTE1 id=2",    "PipeBarrier pipe=PIPE_ALL",  "SetFlag event=MTE2_MTE1 id=3",
        "WaitFlag event=MTE2_MTE1 id=3", "PipeBarrier pipe=PIPE_FIX",  "PipeBarrier pipe=PIPE_ALL"};
    CHECK(statements(dir.file("out/api/kernel.trace")) == want);
  }
  TempDir dir;
  const Result r = run_kernel("api", "bias_c2", {"--out=" + dir.file("out"), "-q"});
  const int line =
      line_of(std::string(AICORE_SOURCE_DIR) + "/tests/frontend/kernels/api.cpp", "// expect: bias_c2");
  CHECK(r.status == 3);
  // The unfilled bias makes C undefined; the error is where it leaves the core, naming the Mmad.
  const int out =
      line_of(std::string(AICORE_SOURCE_DIR) + "/tests/frontend/kernels/api.cpp", "// expect: bias_c2 out");
  CHECK(r.err.find("api.cpp:" + std::to_string(out) + ": error: uninitialised read of L0C") !=
        std::string::npos);
  CHECK(r.err.find("these cells were computed by Mmad at line " + std::to_string(line + 2) +
                   " from bias-table cells nothing wrote") != std::string::npos);
}
