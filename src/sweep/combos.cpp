// Every configuration of a study through config::load, exactly as `aicore-sim run --config C
// --set ...` would load it, so a study accepts what run accepts and refuses it before running.
#include <map>
#include <set>

#include "aicore/config/caps.hpp"
#include "aicore/config/json.hpp"
#include "aicore/config/loader.hpp"
#include "aicore/config/params.hpp"
#include "aicore/sweep/hash.hpp"
#include "combos.hpp"

namespace aicore::sweep::detail {

namespace {

constexpr double kMaxCombos = 1e6;  // as the parser's point limit

// Where the ordinal-th --set of a combo was written in the study.
struct SetOrigin {
  const Scalar* key;
  const Scalar* value;
};

// Cap findings of one key over all combos.
struct CapCount {
  SourceLoc loc;
  size_t capped = 0;
  std::string first;
};

class Checker {
 public:
  Checker(Plan& plan, ErrorSink& errors) : plan_(plan), errors_(errors) {}

  void run() {
    const Study& s = plan_.study;
    double n = static_cast<double>(s.configs.size());
    for (const Axis& a : s.axes) n *= static_cast<double>(a.size());
    if (n > kMaxCombos || n == 0) return;  // too large is reported by the parser; empty has nothing to check
    if (!keys_known()) return;             // every configuration would fail on the same key
    for (size_t c = 0; c < s.configs.size(); ++c) {
      if (!config_loads(c)) continue;
      std::vector<size_t> choice(s.axes.size(), 0);
      for (;;) {
        check(c, choice);
        if (!next(choice)) break;
      }
    }
    report_caps();
  }

 private:
  bool next(std::vector<size_t>& choice) const {
    for (size_t a = choice.size(); a-- > 0;) {
      if (++choice[a] < plan_.study.axes[a].size()) return true;
      choice[a] = 0;
    }
    return false;
  }

  void check(size_t c, const std::vector<size_t>& choice) {
    const Study& s = plan_.study;
    Combo combo{c, choice, {}, ""};
    std::vector<SetOrigin> origins;
    for (const auto& [k, v] : s.sets) {
      combo.sets.push_back(k.text + "=" + v.text);
      origins.push_back({&k, &v});
    }
    for (size_t a = 0; a < s.axes.size(); ++a)
      for (size_t k = 0; k < s.axes[a].keys.size(); ++k) {
        const Scalar& v = s.axes[a].values[k][choice[a]];
        combo.sets.push_back(s.axes[a].keys[k].text + "=" + v.text);
        origins.push_back({&s.axes[a].keys[k], &v});
      }
    try {
      const config::Config cfg =
          config::load(plan_.config_args[c], combo.sets, config::default_configs_dir());
      nlohmann::json j = config::to_json(cfg);
      j.erase("name");  // the same values under another name are the same run
      combo.config_hash = Hasher().add(j.dump()).hex();
      count_caps(cfg, origins);
    } catch (const InputError& e) {
      report(e, c, combo, origins);
      return;
    }
    plan_.combos.push_back(std::move(combo));
  }

  // The study's config on its own: when it fails, every point of it would, for the same reason.
  bool config_loads(size_t c) {
    try {
      config::load(plan_.config_args[c], {}, config::default_configs_dir());
      return true;
    } catch (const InputError& e) {
      const Scalar& cfg = plan_.study.configs[c];
      errors_.add(cfg.loc, "config '" + cfg.text + "' does not load: " + e.what());
      return false;
    }
  }

  // Keys first, against the config's own key table: an unknown key is one error, not one per point.
  bool keys_known() {
    bool ok = true;
    auto check = [&](const Scalar& key) {
      if (config::find_param(key.text)) return;
      ok = false;
      // The loader's own message, with its suggestion: a --set of the key alone on the first config.
      std::string message = "unknown config key '" + key.text + "'";
      uint32_t column = 1;
      try {
        config::load(plan_.config_args[0], {key.text + "=0"}, config::default_configs_dir());
      } catch (const InputError& e) {
        if (e.loc().file == "--set") {
          message = e.message();
          column = e.loc().column ? e.loc().column : 1;
        }
      }
      SourceLoc where = key.loc;
      if (where.column) where.column += column - 1;
      errors_.add(where, message);
    };
    for (const auto& [k, v] : plan_.study.sets) check(k);
    for (const Axis& a : plan_.study.axes)
      for (const Scalar& k : a.keys) check(k);
    return ok;
  }

  // The loader names the n-th --set at "--set:n:column"; the study names the key or value there.
  // The same problem in many points (one bad value is in every combination with it) is reported
  // once, naming the first point it was met in.
  void report(const InputError& e, size_t c, const Combo& combo, const std::vector<SetOrigin>& origins) {
    const SourceLoc& l = e.loc();
    SourceLoc where = plan_.study.configs[c].loc;
    std::string message = "config '" + plan_.study.configs[c].text + "': " + e.what();
    if (l.file == "--set" && l.line >= 1 && l.line <= origins.size()) {
      const SetOrigin& o = origins[l.line - 1];
      where = o.value->loc;
      message = e.message();
      if (l.column <= o.key->text.size()) {
        where = o.key->loc;
        if (where.column) where.column += l.column - 1;
      }
    }
    if (!reported_.insert(where.str() + message).second) return;
    errors_.add(where, message + point_context(combo));
  }

  std::string point_context(const Combo& combo) const {
    const Study& s = plan_.study;
    if (s.axes.empty()) return "";
    std::string v;
    for (size_t a = 0; a < s.axes.size(); ++a)
      for (size_t k = 0; k < s.axes[a].keys.size(); ++k)
        v += (v.empty() ? "" : ", ") + s.axes[a].keys[k].text + "=" +
             s.axes[a].values[k][combo.choice[a]].text;
    return " (in the point " + v + ")";
  }

  void count_caps(const config::Config& cfg, const std::vector<SetOrigin>& origins) {
    for (const SetOrigin& o : origins) {
      const std::string w = config::cap_warning(cfg, o.key->text);
      CapCount& n = caps_[o.key->text];
      if (n.loc.file.empty()) n.loc = o.key->loc;
      if (w.empty()) continue;
      if (!n.capped++) n.first = w;
    }
  }

  void report_caps() {
    const size_t total = plan_.combos.size();
    for (const auto& [key, n] : caps_) {
      if (!n.capped) continue;
      plan_.warnings.push_back(n.loc.str() + ": warning: " + key + " is capped in " +
                               std::to_string(n.capped) + " of " + std::to_string(total) +
                               " configurations: " + n.first);
    }
  }

  Plan& plan_;
  ErrorSink& errors_;
  std::map<std::string, CapCount> caps_;
  std::set<std::string> reported_;
};

}  // namespace

void check_combos(Plan& plan, ErrorSink& errors) {
  Checker(plan, errors).run();
}

}  // namespace aicore::sweep::detail
