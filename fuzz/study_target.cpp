// Fuzz target: the sweep's study parser and planner. Input: study YAML text, parsed as
// SCRATCH/s.yaml beside a small trace t.trace (so `traces: [t.trace]` resolves); a study with few
// enough points goes on through make_plan, which loads every configuration with the config loader.
// Oracle: every error is a "s.yaml:..." line with "error:"; an accepted study's axes are non-empty
// and zip axes equally long; an accepted plan has inputs x configurations points, each with run
// arguments naming its input and an --out.
#include <cstdint>
#include <string>

#include "aicore/sweep/plan.hpp"
#include "aicore/sweep/study.hpp"
#include "fuzz_util.hpp"

using namespace aicore;

namespace {

constexpr double kMaxPlannedPoints = 64;  // each configuration is a config load: keep inputs fast

void check_messages(const sweep::StudyErrors& e, const std::string& path) {
  if (e.messages().empty()) fuzz::oracle_failed("StudyErrors without a message");
  for (const std::string& m : e.messages())
    if (m != "(more errors not shown)" && (m.rfind(path, 0) != 0 || m.find("error:") == std::string::npos))
      fuzz::oracle_failed("a study error without its location: " + m);
}

double points(const sweep::Study& s) {
  double n = static_cast<double>(s.traces.size() + s.gen.size()) * static_cast<double>(s.configs.size());
  for (const sweep::Axis& a : s.axes) {
    if (a.size() == 0) fuzz::oracle_failed("an accepted axis without values");
    for (const auto& v : a.values)
      if (v.size() != a.size()) fuzz::oracle_failed("an accepted zip axis with lists of unequal length");
    n *= static_cast<double>(a.size());
  }
  return n;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string trace = [] {
    const std::string t = fuzz::scratch_file("t.trace");
    const std::string text = "SetFlag event=M_FIX id=0\nWaitFlag event=M_FIX id=0\n";
    fuzz::write_file(t, text.data(), text.size());
    return t;
  }();
  (void)trace;
  const std::string path = fuzz::scratch_file("s.yaml");
  const std::string text(reinterpret_cast<const char*>(data), size);
  sweep::Study study;
  try {
    study = sweep::parse_study_text(text, path);
  } catch (const sweep::StudyErrors& e) {
    check_messages(e, path);
    return 0;
  }
  const double n = points(study);
  if (n > kMaxPlannedPoints || !study.gen.empty()) return 0;  // gen: planning is the generator's fuzzing
  try {
    const sweep::Plan plan = sweep::make_plan(study, fuzz::scratch_file("out"));
    if (plan.points.size() != plan.inputs.size() * plan.combos.size())
      fuzz::oracle_failed("points are not inputs x configurations");
    for (const sweep::Point& p : plan.points) {
      const auto args = plan.run_args(p, "OUT");
      if (args.empty() || args[0] != plan.inputs[p.input].path)
        fuzz::oracle_failed("run arguments lack the input");
      if (plan.values(p).size() != plan.columns.size())
        fuzz::oracle_failed("values do not match the columns");
    }
  } catch (const sweep::StudyErrors& e) {
    check_messages(e, path);
  }
  return 0;
}
