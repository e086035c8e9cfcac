// The study file's structure: top-level keys, traces, config, set, grid and zip. Values stay text;
// the config loader judges them (plan.cpp), so a study accepts exactly what --set accepts.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "aicore/config/params.hpp"
#include "yaml_util.hpp"

namespace aicore::sweep {

namespace fs = std::filesystem;

namespace {

constexpr size_t kMaxErrors = 20;
constexpr double kMaxPoints = 1e6;       // a study larger than this is a typo, not a plan
constexpr double kMaxRangeValues = 1e4;  // values one range may produce

std::string join_lines(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += (s.empty() ? "" : "\n") + l;
  return s;
}

}  // namespace

StudyErrors::StudyErrors(std::vector<std::string> messages)
    : std::runtime_error(join_lines(messages)), messages_(std::move(messages)) {}

void ErrorSink::add(const SourceLoc& loc, const std::string& message) {
  add(std::string(InputError(loc, message).what()));
}

void ErrorSink::add(const std::string& full_message) {
  for (const auto& m : messages_)
    if (m == full_message) return;  // one bad value is met by many points: say it once
  if (messages_.size() == kMaxErrors) messages_.push_back("(more errors not shown)");
  if (messages_.size() > kMaxErrors) return;
  messages_.push_back(full_message);
}

void ErrorSink::throw_if_any() const {
  if (!messages_.empty()) throw StudyErrors(messages_);
}

const std::vector<std::string>& study_keys() {
  static const std::vector<std::string> keys = {"name",    "traces", "gen",  "config", "timing_only",
                                                "timeout", "set",    "grid", "zip",    "run_args"};
  return keys;
}

namespace detail {

std::vector<Entry> entries(const YAML::Node& map, const std::string& file, const std::string& where,
                           ErrorSink& errors) {
  std::vector<Entry> out;
  std::set<std::string> seen;  // yaml-cpp keeps duplicate keys silently; a study must not
  for (auto it = map.begin(); it != map.end(); ++it) {
    const YAML::Node k = it->first, v = it->second;
    const SourceLoc kloc = at(file, k);
    if (!k.IsScalar()) {
      errors.add(kloc, "a key must be a plain name" + where);
      continue;
    }
    if (!seen.insert(k.Scalar()).second) {
      errors.add(kloc, "duplicate key '" + k.Scalar() + "'" + where);
      continue;
    }
    SourceLoc vloc = at(file, v);
    if (vloc.line == 0 || v.IsNull()) vloc = kloc;
    out.push_back(Entry{k.Scalar(), kloc, v, vloc});
  }
  return out;
}

std::vector<Scalar> scalar_list(const Entry& e, const std::string& file, const std::string& what,
                                ErrorSink& errors) {
  std::vector<Scalar> out;
  if (e.value.IsScalar()) return {Scalar{e.value.Scalar(), e.value_loc}};
  if (!e.value.IsSequence()) {
    errors.add(e.value_loc, what + " must be one value or a list of values, not " + kind(e.value));
    return out;
  }
  if (e.value.size() == 0) errors.add(e.value_loc, what + " is an empty list");
  std::set<std::string> seen;
  for (const YAML::Node& v : e.value) {
    if (!v.IsScalar()) {
      errors.add(at(file, v), what + ": each entry must be a single value, not " + kind(v));
      continue;
    }
    if (!seen.insert(v.Scalar()).second) {
      errors.add(at(file, v), what + ": '" + v.Scalar() + "' is listed twice");
      continue;
    }
    out.push_back(Scalar{v.Scalar(), at(file, v)});
  }
  return out;
}

}  // namespace detail

namespace {

using detail::at;
using detail::Entry;

// Number text the config loader reads back exactly; integers without a decimal point.
std::string number_text(double v) {
  if (std::fabs(v) < 1e15 && v == std::floor(v)) return std::to_string(static_cast<long long>(v));
  std::ostringstream s;
  s.precision(12);
  s << v;
  return s.str();
}

class Parser {
 public:
  Parser(const std::string& file, Study& s, ErrorSink& errors) : file_(file), s_(s), errors_(errors) {}

  void top(const YAML::Node& root) {
    bool has_traces = false;
    for (const Entry& e : detail::entries(root, file_, "", errors_)) {
      if (e.key == "name") {
        if (e.value.IsScalar())
          s_.name = e.value.Scalar();
        else
          errors_.add(e.value_loc, "name must be a single value, not " + std::string(detail::kind(e.value)));
      } else if (e.key == "traces") {
        s_.traces = detail::scalar_list(e, file_, "traces", errors_);
        has_traces = true;
      } else if (e.key == "gen") {
        detail::parse_gen(e, file_, s_, errors_);
        has_traces = true;
      } else if (e.key == "config") {
        s_.configs = detail::scalar_list(e, file_, "config", errors_);
      } else if (e.key == "timing_only") {
        s_.timing_only = boolean(e);
      } else if (e.key == "timeout") {
        s_.timeout_s = timeout(e);
      } else if (e.key == "set") {
        set(e);
      } else if (e.key == "grid") {
        grid(e);
      } else if (e.key == "zip") {
        zip(e);
      } else if (e.key == "run_args") {
        run_args(e);
      } else {
        unknown_top_key(e);
      }
    }
    if (!has_traces)
      errors_.add(at(file_, root).line ? at(file_, root) : SourceLoc{file_, 1, 1},
                  "the study names nothing to run: give traces: (trace files or kernel manifests) or gen:");
    if (s_.configs.empty()) s_.configs.push_back(Scalar{"atlas-a2", SourceLoc{file_, 1, 1}});
    check_size(root);
  }

 private:
  void unknown_top_key(const Entry& e) {
    if (config::find_param(e.key) || config::is_group(e.key)) {
      errors_.add(
          e.key_loc,
          "'" + e.key + "' is a config key: put it under set: (one value) or grid: (a list to sweep)");
      return;
    }
    const std::string near = nearest_word(e.key, study_keys());
    std::string all;
    for (const auto& k : study_keys()) all += (all.empty() ? "" : ", ") + k;
    errors_.add(e.key_loc, "unknown study key '" + e.key + "'" +
                               (near.empty() ? "" : "; did you mean '" + near + "'?") + " (keys: " + all +
                               ")");
  }

  bool boolean(const Entry& e) {
    bool b = false;
    if (e.value.IsScalar() && YAML::convert<bool>::decode(e.value, b)) return b;
    errors_.add(e.value_loc, e.key + " must be true or false");
    return false;
  }

  double timeout(const Entry& e) {
    double t = -1;
    if (e.value.IsScalar() && YAML::convert<double>::decode(e.value, t) && t >= 0 && t <= 1e7) return t;
    errors_.add(e.value_loc,
                "timeout must be a number of seconds per point (0 = no limit), not '" +
                    (e.value.IsScalar() ? e.value.Scalar() : std::string(detail::kind(e.value))) + "'");
    return 0;
  }

  // A config key may be fixed or swept, once.
  bool claim(const Scalar& key, const std::string& section) {
    const auto [it, fresh] = claimed_.emplace(key.text, std::make_pair(key.loc, section));
    if (fresh) return true;
    errors_.add(key.loc, "config key '" + key.text + "' is already " + it->second.second + " at " +
                             it->second.first.str() + "; a key is either fixed (set:) or swept once");
    return false;
  }

  bool mapping(const Entry& e, const std::string& what) {
    if (e.value.IsMap()) return true;
    errors_.add(e.value_loc,
                what + " must be a mapping of config keys, not " + std::string(detail::kind(e.value)));
    return false;
  }

  void set(const Entry& e) {
    if (!mapping(e, "set")) return;
    for (const Entry& k : detail::entries(e.value, file_, " (under 'set')", errors_)) {
      if (!k.value.IsScalar()) {
        errors_.add(k.value_loc, "set: '" + k.key + "' takes a single value, not " +
                                     std::string(detail::kind(k.value)) + " (to sweep it, move it to grid:)");
        continue;
      }
      const Scalar key{k.key, k.key_loc};
      if (claim(key, "fixed")) s_.sets.emplace_back(key, Scalar{k.value.Scalar(), k.value_loc});
    }
  }

  // A list of values, or a range {from, to, step | times}.
  std::vector<Scalar> values(const Entry& k, const std::string& section) {
    if (k.value.IsMap()) return range(k, section);
    if (k.value.IsScalar()) {
      errors_.add(k.value_loc, section + ": '" + k.key +
                                   "' has a single value; give a list to sweep, or move " + "it to set:");
      return {};
    }
    return detail::scalar_list(k, file_, section + ": '" + k.key + "'", errors_);
  }

  std::vector<Scalar> range(const Entry& k, const std::string& section) {
    const std::string what = section + ": '" + k.key + "' range";
    std::map<std::string, double> v;
    for (const Entry& f : detail::entries(k.value, file_, " (in " + what + ")", errors_)) {
      static const std::vector<std::string> fields = {"from", "to", "step", "times"};
      double x = 0;
      if (std::find(fields.begin(), fields.end(), f.key) == fields.end()) {
        const std::string near = nearest_word(f.key, fields);
        errors_.add(f.key_loc, "unknown key '" + f.key + "' in " + what +
                                   (near.empty() ? "" : "; did you mean '" + near + "'?") +
                                   " (a range is {from, to, step} or {from, to, times})");
      } else if (!f.value.IsScalar() || !YAML::convert<double>::decode(f.value, x) || !std::isfinite(x)) {
        errors_.add(f.value_loc, what + ": " + f.key + " must be a number");
      } else {
        v[f.key] = x;
      }
    }
    const bool step = v.count("step"), times = v.count("times");
    if (!v.count("from") || !v.count("to") || step == times) {
      errors_.add(k.value_loc,
                  what + " needs from, to and exactly one of step (added) or times (multiplied)");
      return {};
    }
    const double from = v["from"], to = v["to"];
    const double by = step ? v["step"] : v["times"];
    if ((step && (by <= 0 || to < from)) || (times && (by <= 1 || from <= 0 || to < from))) {
      errors_.add(k.value_loc,
                  what + " is empty or endless: need from <= to and step > 0 (or times > 1, from > 0)");
      return {};
    }
    const double n = step ? std::floor((to - from) / by + 1e-9) + 1
                          : std::floor(std::log(to / from) / std::log(by) + 1e-9) + 1;
    if (n > kMaxRangeValues) {
      errors_.add(k.value_loc,
                  what + " gives " + number_text(n) + " values; at most " + number_text(kMaxRangeValues));
      return {};
    }
    std::vector<Scalar> out;
    for (int i = 0; i < static_cast<int>(n); ++i)
      out.push_back(Scalar{number_text(step ? from + i * by : from * std::pow(by, i)), k.value_loc});
    return out;
  }

  void grid(const Entry& e) {
    if (!mapping(e, "grid")) return;
    for (const Entry& k : detail::entries(e.value, file_, " (under 'grid')", errors_)) {
      const Scalar key{k.key, k.key_loc};
      std::vector<Scalar> vals = values(k, "grid");
      if (vals.empty() || !claim(key, "swept")) continue;
      s_.axes.push_back(Axis{{key}, {std::move(vals)}, false});
    }
  }

  void zip(const Entry& e) {
    if (e.value.IsSequence()) {
      for (const YAML::Node& group : e.value)
        zip_group(Entry{e.key, at(file_, group), group, at(file_, group)});
      return;
    }
    zip_group(e);
  }

  void zip_group(const Entry& e) {
    if (!e.value.IsMap()) {
      errors_.add(e.value_loc,
                  "zip must be a mapping of config keys to lists (or a list of such mappings), not " +
                      std::string(detail::kind(e.value)));
      return;
    }
    Axis axis;
    axis.zip = true;
    for (const Entry& k : detail::entries(e.value, file_, " (under 'zip')", errors_)) {
      const Scalar key{k.key, k.key_loc};
      std::vector<Scalar> vals = values(k, "zip");
      if (vals.empty() || !claim(key, "swept")) continue;
      if (!axis.keys.empty() && vals.size() != axis.size()) {
        errors_.add(k.value_loc, "zip: '" + k.key + "' has " + std::to_string(vals.size()) + " values but '" +
                                     axis.keys.front().text + "' has " + std::to_string(axis.size()) +
                                     " (zip lists vary together, so they must be equally long)");
        continue;
      }
      axis.keys.push_back(key);
      axis.values.push_back(std::move(vals));
    }
    if (axis.keys.empty()) return;
    std::map<std::vector<std::string>, size_t> rows;
    for (size_t i = 0; i < axis.size(); ++i) {
      std::vector<std::string> row;
      for (const auto& v : axis.values) row.push_back(v[i].text);
      if (!rows.emplace(row, i).second)
        errors_.add(axis.values.front()[i].loc, "zip: value " + std::to_string(i + 1) + " repeats value " +
                                                    std::to_string(rows[row] + 1) +
                                                    " of every key (the same point twice)");
    }
    s_.axes.push_back(std::move(axis));
  }

  void run_args(const Entry& e) {
    // What the sweep itself decides for every point; the rest reaches `aicore-sim run` as written.
    static const std::vector<std::string> owned = {"--out", "--config", "--set",  "--timing-only",
                                                   "-q",    "--quiet",  "--help", "-h"};
    for (const Scalar& a : detail::scalar_list(e, file_, "run_args", errors_)) {
      const std::string opt = a.text.substr(0, a.text.find('='));
      if (std::find(owned.begin(), owned.end(), opt) != owned.end())
        errors_.add(a.loc, "run_args: '" + opt + "' is set by the sweep itself (use config:, set:, grid:, " +
                               "timing_only: or sweep --out)");
      else
        s_.run_args.push_back(a);
    }
  }

  void check_size(const YAML::Node& root) {
    double n = static_cast<double>(s_.traces.size() + s_.gen.size()) * static_cast<double>(s_.configs.size());
    for (const Axis& a : s_.axes) n *= static_cast<double>(a.size());
    if (n > kMaxPoints)
      errors_.add(at(file_, root).line ? at(file_, root) : SourceLoc{file_, 1, 1},
                  "the study has " + number_text(n) + " points; at most " + number_text(kMaxPoints) +
                      " (split it into several studies)");
  }

  const std::string& file_;
  Study& s_;
  ErrorSink& errors_;
  std::map<std::string, std::pair<SourceLoc, std::string>> claimed_;
};

}  // namespace

namespace detail {

Study parse_into(const std::string& text, const std::string& path, ErrorSink& errors) {
  Study s;
  s.path = path;
  s.dir = fs::path(path).parent_path().string();
  s.name = fs::path(path).stem().string();
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    const SourceLoc loc = e.mark.is_null() || e.mark.line < 0
                              ? SourceLoc{path, 0, 0}
                              : SourceLoc{path, static_cast<uint32_t>(e.mark.line + 1),
                                          static_cast<uint32_t>(e.mark.column + 1)};
    errors.add(loc, "malformed YAML: " + e.msg);
    errors.throw_if_any();
  }
  if (!root.IsMap()) {
    errors.add(SourceLoc{path, 1, 1},
               std::string(root.IsNull() ? "empty study file" : "a study must be a mapping") +
                   " (keys: traces or gen, config, grid, zip, set, ...)");
    errors.throw_if_any();
  }
  try {
    Parser(path, s, errors).top(root);
  } catch (const YAML::Exception& e) {  // defensive: the walk only reads parsed nodes
    errors.add(SourceLoc{path, 0, 0}, "invalid study: " + e.msg);
  }
  return s;
}

std::string read_study(const std::string& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec))
    throw StudyErrors(
        {InputError(SourceLoc{path}, fs::exists(path, ec) ? "the study is not a regular file"
                                                          : "cannot open the study: no such file")
             .what()});
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) throw StudyErrors({InputError(SourceLoc{path}, "cannot read the study").what()});
  return text.str();
}

}  // namespace detail

Study parse_study_text(const std::string& text, const std::string& path) {
  ErrorSink errors;
  Study s = detail::parse_into(text, path, errors);
  errors.throw_if_any();
  return s;
}

Study parse_study(const std::string& path) {
  return parse_study_text(detail::read_study(path), path);
}

}  // namespace aicore::sweep
