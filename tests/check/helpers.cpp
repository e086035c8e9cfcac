#include "helpers.hpp"

#include <sstream>

#include "aicore/trace/reader.hpp"

namespace checktest {

using namespace aicore;

const char* const kTensors = ".gm a size=1048576\n.gm b size=1048576\n.gm c size=1048576\n";

std::vector<isa::Instruction> parse(const std::string& trace_text) {
  std::istringstream in(trace_text);
  trace::Reader reader(in, "t.trace", "");
  reader.check_fields(false);  // the checker must take whatever the model might be given
  std::vector<isa::Instruction> out;
  trace::Statement st;
  while (reader.next(st))
    if (st.kind == trace::Statement::Kind::Instr) out.push_back(st.instr);
  return out;
}

std::vector<std::string> Run::headlines() const {
  std::vector<std::string> out;
  for (const auto& r : reports) {
    const std::string full = check::format_report(r, {"a", "b", "c"});
    out.push_back(full.substr(0, full.find('\n')));
  }
  return out;
}

std::string Run::text() const {
  return check::format_text(reports, summary, {"a", "b", "c"}, reports.size());
}

size_t Run::count(check::ReportKind k) const {
  size_t n = 0;
  for (const auto& r : reports) n += r.kind == k ? 1 : 0;
  return n;
}

Run run(const std::vector<isa::Instruction>& program, check::CheckOptions options) {
  check::Checker c(options);
  for (const auto& in : program) c.issue(isa::CoreId{0}, in);
  c.finish(check::RunEnd{});
  return Run{c.reports(), c.summary()};
}

Run run_text(const std::string& trace_text, check::CheckOptions options) {
  return run(parse(trace_text), options);
}

}  // namespace checktest
