// `aicore-sim calibrate DATA.csv... --fit KEY[,KEY...] [--config X] [-o fitted.yaml] [-j N]`:
// simulate every measured row, fit the keys to the training rows, print the table before and
// after, and write the fitted values as a config overlay (docs/validation.md).
#include <filesystem>
#include <fstream>
#include <ostream>

#include "aicore/calib/fit.hpp"
#include "aicore/calib/simulator.hpp"
#include "aicore/calib/table.hpp"
#include "aicore/common/temp_dir.hpp"
#include "aicore/config/loader.hpp"
#include "aicore/config/params.hpp"
#include "commands.hpp"
#include "options.hpp"
#include "sweep_support.hpp"

namespace aicore::cli {

namespace fs = std::filesystem;

namespace {

const char* kSynopsis =
    "calibrate DATA.csv... --fit KEY[,KEY...] [--config X] [--rows train|all] [-o fitted.yaml] [-j N]";

struct CalibArgs {
  std::vector<std::string> data, fit;
  std::string config = "atlas-a2", out, rows = "train";
  int jobs = 0, passes = 4;
  double tolerance = 5, kernel_tolerance = 10, pipe_tolerance = 20;
  bool help = false;
};

po::options_description calibrate_options(CalibArgs& a) {
  po::options_description o;
  o.add_options()("fit", po::value(&a.fit)->value_name("KEY[,KEY...]")->composing(),
                  "config keys to fit, each KEY or KEY=LO:HI (its search range; default: the key's "
                  "plausible range, docs/validation.md); repeatable")(
      "config", po::value(&a.config)->value_name("PRESET|YAML"),
      "the config to start from (default atlas-a2)")(
      "output,o", po::value(&a.out)->value_name("FILE"),
      "write the fitted values as an overlay (base: the config) to FILE")(
      "rows", po::value(&a.rows)->value_name("train|all"),
      "fit to the training rows (default; check rows are only predicted) or to every row")(
      "jobs,j", po::value(&a.jobs)->value_name("N"), "worker processes (default: every core)")(
      "passes", po::value(&a.passes)->value_name("N"), "passes over the keys at most (default 4)")(
      "tolerance", po::value(&a.tolerance)->value_name("P"),
      "microbenchmark rows: the error weighed as one unit, in % (default 5)")(
      "kernel-tolerance", po::value(&a.kernel_tolerance)->value_name("P"),
      "kernel task time: likewise (default 10)")(
      "pipe-tolerance", po::value(&a.pipe_tolerance)->value_name("P"),
      "kernel per-pipe times: likewise (default 20)")("help,h", po::bool_switch(&a.help), "this help");
  return o;
}

std::vector<calib::FitKey> fit_keys(const std::vector<std::string>& specs) {
  std::vector<calib::FitKey> keys;
  for (const std::string& spec : specs)
    for (size_t at = 0; at <= spec.size();) {
      const size_t comma = std::min(spec.find(',', at), spec.size());
      const std::string one = spec.substr(at, comma - at);
      at = comma + 1;
      if (one.empty()) continue;
      calib::FitKey k = calib::parse_fit_key(one, SourceLoc{"--fit"});
      for (const calib::FitKey& other : keys)
        if (other.key == k.key) throw InputError(SourceLoc{"--fit"}, "key '" + k.key + "' is named twice");
      keys.push_back(k);
    }
  if (keys.empty()) throw InputError(SourceLoc{"--fit"}, "no key to fit: give --fit KEY[,KEY...]");
  // The overlay nests keys like the presets: table order keeps each group together.
  std::sort(keys.begin(), keys.end(), [](const calib::FitKey& x, const calib::FitKey& y) {
    return config::find_param(x.key) < config::find_param(y.key);
  });
  return keys;
}

double value_of(const config::Config& cfg, const std::string& key) {
  config::Config c = cfg;
  return std::visit([](auto* v) { return static_cast<double>(*v); }, config::find_param(key)->field(c));
}

// The `base:` of the overlay: a preset by name, a file by a path from the overlay's folder.
std::string base_for(const std::string& config, const std::string& out) {
  for (const std::string& p : config::preset_names())
    if (p == config) return config;
  const fs::path from = fs::absolute(fs::path(out)).parent_path();
  return fs::proximate(fs::absolute(config), from).string();
}

bool check_tolerances(const CalibArgs& a, std::ostream& err) {
  for (double t : {a.tolerance, a.kernel_tolerance, a.pipe_tolerance})
    if (!(t > 0 && t <= 1000)) {
      err << "aicore-sim calibrate: error: a tolerance is a percentage in (0, 1000]\n";
      return false;
    }
  if (a.rows != "train" && a.rows != "all") {
    err << "aicore-sim calibrate: error: --rows takes train or all, not '" << a.rows << "'\n";
    return false;
  }
  if (a.passes < 1 || a.passes > 100) {
    err << "aicore-sim calibrate: error: --passes must be in 1..100\n";
    return false;
  }
  if (a.jobs < 0 || a.jobs > 1024) {
    err << "aicore-sim calibrate: error: --jobs must be in 0..1024\n";
    return false;
  }
  return true;
}

}  // namespace

int calibrate_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  CalibArgs a;
  po::options_description all;
  all.add(calibrate_options(a)).add_options()("data", po::value(&a.data), "the data files");
  po::positional_options_description pos;
  pos.add("data", -1);
  po::variables_map vm;
  if (!parse_options("calibrate", args, all, &pos, vm, kSynopsis, err)) return kExitBadInput;
  if (a.help) {
    CalibArgs d;
    out << command_help_text({kSynopsis,
                              "fit config keys to measured silicon data and write them as an overlay", "",
                              format_options(calibrate_options(d), 2)});
    return kExitOk;
  }
  if (a.data.empty()) {
    err << "aicore-sim calibrate: error: missing DATA.csv (measured rows, e.g. "
           "calibration/measured-910b1.csv)\n"
        << "usage: aicore-sim " << kSynopsis << "\n";
    return kExitBadInput;
  }
  if (!check_tolerances(a, err)) return kExitBadInput;
  Diagnostics diag(err, false);
  try {
    const std::vector<calib::FitKey> keys = fit_keys(a.fit);
    const config::Config cfg = load_config(a.config, {}, diag);
    calib::Dataset data = calib::load_dataset(a.data);
    if (a.rows == "all") {
      for (auto& r : data.micro) r.set = calib::RowSet::Train;
      for (auto& r : data.kernels) r.set = calib::RowSet::Train;
    }
    TempDir work("aicore-calib");
    calib::Evaluator eval(data, cfg, keys, work.path(),
                          calib::pool_simulator(pool_options(a.jobs, "fork"), a.config, cfg, work.path()));
    std::vector<size_t> every(eval.rows());
    for (size_t r = 0; r < every.size(); ++r) every[r] = r;
    calib::FitOptions fo;
    fo.tolerances = {a.tolerance / 100, a.kernel_tolerance / 100, a.pipe_tolerance / 100};
    fo.max_passes = a.passes;
    std::vector<double> start;
    for (const calib::FitKey& k : keys) start.push_back(value_of(cfg, k.key));
    const calib::FitResult fr = calib::fit(eval, start, fo);
    const auto figs = eval.run({fr.start, fr.values}, every);
    calib::print_table(out, calib::table_rows(eval, figs[1], &figs[0], fo.tolerances), true);
    std::vector<std::string> fitted_to;
    for (size_t i = 0; i < keys.size(); ++i) {
      fitted_to.push_back(calib::rows_text(eval, fr.rows_of_key[i]));
      char line[256];
      std::snprintf(line, sizeof line, "  %-32s %12.6g -> %-12.6g (range %g..%g)\n", keys[i].key.c_str(),
                    fr.start[i], fr.values[i], keys[i].lo, keys[i].hi);
      out << (i == 0 ? "fitted:\n" : "") << line;
    }
    out << "objective (sum of (error / tolerance)^2 over the training rows): " << fr.start_cost << " -> "
        << fr.cost << " in " << fr.passes << " pass(es), " << eval.simulations() << " simulations\n";
    if (!a.out.empty()) {
      std::string cmd = "aicore-sim calibrate";
      for (const std::string& s : args) cmd += " " + s;
      std::vector<std::string> files;
      for (const std::string& f : data.files) files.push_back(fs::path(f).filename().string());
      std::string from;
      for (const std::string& f : files) from += (from.empty() ? "" : ", ") + f;
      const std::string y = calib::overlay_yaml(
          base_for(a.config, a.out),
          {"Fitted by: " + cmd,
           "Data: " + from + (a.rows == "all" ? " (every row)" : " (training rows only)")},
          keys, fr.values, fitted_to);
      std::ofstream f(a.out);
      if (!(f << y) || !f.flush()) throw InputError(SourceLoc{a.out}, "cannot write the fitted overlay");
      out << "wrote " << a.out << "\n";
    }
    return kExitOk;
  } catch (const InputError& e) {
    err << e.what() << "\n";
    return kExitBadInput;
  } catch (const std::runtime_error& e) {
    err << "aicore-sim calibrate: error: " << e.what() << "\n";
    return kExitFault;
  }
}

}  // namespace aicore::cli
