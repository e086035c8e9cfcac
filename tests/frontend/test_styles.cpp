// The static-tensor styles (LocalMemAllocator without a TPipe; TBufs of a TPipe destroyed at once)
// next to TPipe/TQue: all compute the right C, and record the flags their style implies.
#include <catch2/catch.hpp>

#include "runner.hpp"

using namespace frontend_test;

namespace {
std::vector<std::string> recorded(const TempDir& dir, const std::string& variant, Result& r) {
  r = run_kernel("styles", variant, {"--out=" + dir.file("out"), "--emit-trace", "-q"});
  return statements(dir.file("out/styles/kernel.trace"));
}
}  // namespace

TEST_CASE("static tensors, TBufs and queues compute the same result", "[styles]") {
  for (const char* v : {"static_ok", "tbuf_ok", "queue_ok"}) {
    TempDir dir;
    Result r;
    const std::vector<std::string> st = recorded(dir, v, r);
    INFO(v << "\n" << r.out << r.err);
    CHECK(r.status == 0);
    CHECK(r.out.find(std::string("styles ") + v + ": match") != std::string::npos);
    REQUIRE(st.size() > 8);
    if (std::string(v) == "static_ok") {
      // No TPipe: the kernel's own flags are the whole schedule.
      CHECK(st.front() == "DataCopyNd2Nz dst=L1:0 src=a nValue=16 dValue=32 srcDValue=32 dstNzC0Stride=16");
      CHECK(st.back() == "PipeBarrier pipe=PIPE_ALL");
      for (const std::string& s : st) CHECK(s.find("M_MTE1") == std::string::npos);
    } else if (std::string(v) == "tbuf_ok") {
      // TPipe() sets M_MTE1 0-2, Destroy() right away drains them: before any of the kernel's work.
      const std::vector<std::string> head = {"SetFlag event=M_MTE1 id=0",  "SetFlag event=M_MTE1 id=1",
                                             "SetFlag event=M_MTE1 id=2",  "WaitFlag event=M_MTE1 id=0",
                                             "WaitFlag event=M_MTE1 id=1", "WaitFlag event=M_MTE1 id=2",
                                             "PipeBarrier pipe=PIPE_ALL"};
      CHECK(std::vector<std::string>(st.begin(), st.begin() + 7) == head);
      CHECK(st[8] == "DataCopyNd2Nz dst=L1:0x200 src=bt nValue=16 dValue=32 srcDValue=32 dstNzC0Stride=16");
      CHECK(st.back().rfind("Fixpipe ", 0) == 0);  // the destructor after Destroy() emits nothing
    } else {
      CHECK(st.front() == "SetFlag event=M_MTE1 id=0");
    }
  }
}
