// Inputs, points, run arguments and ids of a plan; the configurations are checked in combos.cpp.
#include <filesystem>
#include <map>

#include "aicore/config/loader.hpp"
#include "aicore/sweep/hash.hpp"
#include "aicore/sweep/plan.hpp"
#include "combos.hpp"
#include "yaml_util.hpp"

namespace aicore::sweep {

namespace fs = std::filesystem;

namespace {

// "sample.trace" -> the nearest name in its folder, for "did you mean".
std::string nearby_file(const fs::path& p) {
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(p.parent_path().empty() ? "." : p.parent_path(), ec), end; !ec && it != end;
       it.increment(ec))
    names.push_back(it->path().filename().string());
  return nearest_word(p.filename().string(), names);
}

// Relative to the study's folder, as a path from the current directory (messages of the runs then
// name files the way the user named the study).
fs::path resolve(const Study& s, const std::string& text) {
  const fs::path p(text);
  return (p.is_absolute() ? p : fs::path(s.dir) / p).lexically_normal();
}

void add_inputs(Plan& plan, const std::string& out_dir, ErrorSink& errors) {
  const Study& s = plan.study;
  for (const Scalar& t : s.traces) {
    const fs::path p = resolve(s, t.text);
    std::error_code ec;
    if (!fs::is_regular_file(p, ec)) {
      const std::string near = fs::exists(p, ec) ? "" : nearby_file(p);
      errors.add(t.loc, "trace '" + t.text + "' " + (fs::exists(p, ec) ? "is not a file" : "not found") +
                            " (" + p.string() + ")" + (near.empty() ? "" : "; did you mean '" + near + "'?"));
      continue;
    }
    plan.inputs.push_back(Input{t.text, p.string(), t.loc, -1, ""});
  }
  for (size_t i = 0; i < s.gen.size(); ++i) {
    const GenCase& g = s.gen[i];
    const std::string label = "gen/" + g.name + "/" + g.name + ".trace";
    const fs::path p = (fs::path(out_dir) / label).lexically_normal();
    plan.inputs.push_back(Input{label, p.string(), g.loc, static_cast<int>(i), ""});
  }
}

// A preset name stays a name; a path is relative to the study file. A word that is neither a
// preset nor an existing file stays as written, so the loader can suggest the nearest preset.
std::string config_arg(const Study& s, const Scalar& c) {
  for (const std::string& p : config::preset_names())
    if (c.text == p) return p;
  const bool pathlike = c.text.find('/') != std::string::npos || fs::path(c.text).extension() == ".yaml" ||
                        fs::path(c.text).extension() == ".yml";
  std::error_code ec;
  if (!pathlike && !fs::exists(resolve(s, c.text), ec)) return c.text;
  return resolve(s, c.text).string();
}

void add_columns(Plan& plan) {
  const Study& s = plan.study;
  plan.columns = {"trace", "config"};
  if (plan.inputs.size() > 1) plan.swept.push_back("trace");
  if (s.configs.size() > 1) plan.swept.push_back("config");
  for (const std::string& g : s.gen_swept) {
    plan.columns.push_back(g);
    plan.swept.push_back(g);
  }
  for (const Axis& a : s.axes)
    for (const Scalar& k : a.keys) {
      plan.columns.push_back(k.text);
      plan.swept.push_back(k.text);
    }
}

}  // namespace

std::vector<std::pair<std::string, std::string>> Plan::values(const Point& p) const {
  const Input& in = inputs[p.input];
  const Combo& c = combos[p.combo];
  std::vector<std::pair<std::string, std::string>> out = {{"trace", in.label},
                                                          {"config", study.configs[c.config].text}};
  for (const std::string& g : study.gen_swept) {
    std::string v;
    if (in.gen >= 0)
      for (const auto& [name, value] : study.gen[static_cast<size_t>(in.gen)].columns)
        if (name == g) v = value;
    out.emplace_back(g, v);
  }
  for (size_t a = 0; a < study.axes.size(); ++a) {
    const Axis& axis = study.axes[a];
    for (size_t k = 0; k < axis.keys.size(); ++k)
      out.emplace_back(axis.keys[k].text, axis.values[k][c.choice[a]].text);
  }
  return out;
}

std::vector<std::string> Plan::run_args(const Point& p, const std::string& point_dir) const {
  const Combo& c = combos[p.combo];
  std::vector<std::string> args = {inputs[p.input].path, "--config", config_args[c.config]};
  for (const std::string& s : c.sets) {
    args.push_back("--set");
    args.push_back(s);
  }
  args.insert(args.end(), {"--out", point_dir, "-q"});
  if (study.timing_only) args.push_back("--timing-only");
  for (const Scalar& a : study.run_args) args.push_back(a.text);
  return args;
}

namespace {

Plan plan_with(Study study, const std::string& out_dir, ErrorSink& errors) {
  Plan plan;
  plan.study = std::move(study);
  add_inputs(plan, out_dir, errors);
  for (const Scalar& c : plan.study.configs) plan.config_args.push_back(config_arg(plan.study, c));
  detail::check_combos(plan, errors);
  add_columns(plan);
  for (size_t i = 0; i < plan.inputs.size(); ++i)
    for (size_t c = 0; c < plan.combos.size(); ++c)
      plan.points.push_back(Point{plan.points.size(), i, c, ""});
  return plan;
}

}  // namespace

Plan make_plan(Study study, const std::string& out_dir) {
  ErrorSink errors;
  Plan plan = plan_with(std::move(study), out_dir, errors);
  errors.throw_if_any();
  return plan;
}

Plan load_plan(const std::string& study_path, const std::string& out_dir) {
  ErrorSink errors;
  Study s = detail::parse_into(detail::read_study(study_path), study_path, errors);
  Plan plan = plan_with(std::move(s), out_dir, errors);
  errors.throw_if_any();
  return plan;
}

Plan load_plan_text(const std::string& text, const std::string& path, const std::string& base_dir,
                    const std::string& out_dir) {
  ErrorSink errors;
  Study s = detail::parse_into(text, path, errors);
  s.dir = base_dir;
  Plan plan = plan_with(std::move(s), out_dir, errors);
  errors.throw_if_any();
  return plan;
}

void assign_ids(Plan& plan) {
  for (Input& in : plan.inputs) in.hash = input_hash(in.path);
  std::map<std::string, size_t> first;
  size_t repeats = 0;
  for (Point& p : plan.points) {
    Hasher h;
    h.add("aicore-sweep point v1").add(plan.inputs[p.input].hash).add(plan.combos[p.combo].config_hash);
    h.add(plan.study.timing_only ? "timing-only" : "full");
    for (const Scalar& a : plan.study.run_args) h.add(a.text);
    p.id = h.hex();
    if (!first.emplace(p.id, p.index).second) ++repeats;
  }
  if (repeats)
    plan.warnings.push_back(SourceLoc{plan.study.path}.str() + ": warning: " + std::to_string(repeats) +
                            " point(s) repeat another point's run (same input and resolved configuration, " +
                            "e.g. 64 and 64.0); each is run once");
}

}  // namespace aicore::sweep
