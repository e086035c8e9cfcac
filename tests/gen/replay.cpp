#include "replay.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>

#include "aicore/trace/reader.hpp"
#include "machine.hpp"

namespace gentest {

using namespace aicore;

std::vector<uint8_t> slurp(const std::string& p) {
  std::ifstream f(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

Replay replay(const std::string& trace_path) {
  trace::Reader r(trace_path);
  trace::Statement st;
  Replay out;
  std::vector<std::vector<uint8_t>> gm;
  uint32_t expect_tensor = 0;
  while (r.next(st)) {
    if (st.kind == trace::Statement::Kind::Gm) {
      gm.push_back(st.gm.file.empty() ? std::vector<uint8_t>(st.gm.size, 0) : slurp(st.gm.file));
      REQUIRE(gm.back().size() == st.gm.size);
    } else if (st.kind == trace::Statement::Kind::Expect) {
      expect_tensor = st.expect.tensor;
      out.golden = slurp(st.expect.file);
    } else if (st.kind == trace::Statement::Kind::Instr) {
      out.ops.push_back(st.instr.op);
    }
  }
  Machine m(gm, 77);
  run_in_order(out.ops, m);
  out.c = m.gm[expect_tensor];
  return out;
}
}  // namespace gentest
