// `aicore-sim validate DATA.csv... [--config X] [--tolerance P] [--plot out.png] [-j N]`: simulate
// every measured row and print how far the config is from silicon; exit 1 when a row is beyond its
// tolerance (docs/validation.md).
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>

#include "aicore/calib/evaluate.hpp"
#include "aicore/calib/simulator.hpp"
#include "aicore/calib/table.hpp"
#include "aicore/common/temp_dir.hpp"
#include "aicore/sweep/plot.hpp"
#include "commands.hpp"
#include "options.hpp"
#include "sweep_support.hpp"

namespace aicore::cli {

namespace fs = std::filesystem;

namespace {

const char* kSynopsis =
    "validate DATA.csv... [--config X] [--tolerance P] [--only train|check] [--plot out.png] [-j N]";

struct ValidateArgs {
  std::vector<std::string> data;
  std::string config = "atlas-a2", plot, only;
  int jobs = 0;
  double tolerance = 5, kernel_tolerance = 10, pipe_tolerance = 20;
  bool help = false;
};

po::options_description validate_options(ValidateArgs& a) {
  po::options_description o;
  o.add_options()("config", po::value(&a.config)->value_name("PRESET|YAML"),
                  "the config to check (default atlas-a2)")(
      "tolerance", po::value(&a.tolerance)->value_name("P"),
      "microbenchmark rows: largest |error| in % (default 5)")(
      "kernel-tolerance", po::value(&a.kernel_tolerance)->value_name("P"),
      "kernel task time: largest |error| in % (default 10)")(
      "pipe-tolerance", po::value(&a.pipe_tolerance)->value_name("P"),
      "kernel per-pipe times: largest |error| in % (default 20)")(
      "only", po::value(&a.only)->value_name("train|check"),
      "judge only the training rows or only the held-out check rows (default: all)")(
      "plot", po::value(&a.plot)->value_name("FILE.png"),
      "draw measured against simulated curves, one panel per kind (python3-matplotlib); the points go to "
      "FILE.csv")("jobs,j", po::value(&a.jobs)->value_name("N"), "worker processes (default: every core)")(
      "help,h", po::bool_switch(&a.help), "this help");
  return o;
}

// Rows for the simulated curves: every microbenchmark group (kind, dst, count, fields) at its
// measured parameters and at geometric steps between them.
calib::Dataset curve_rows(const calib::Dataset& d) {
  calib::Dataset c;
  c.files = d.files;
  std::map<std::string, std::vector<const calib::MicroRow*>> groups;
  std::vector<std::string> order;
  for (const calib::MicroRow& r : d.micro) {
    const std::string g = r.kind + "|" + r.dst + "|" + std::to_string(r.count) + "|" + r.fields;
    if (!groups.count(g)) order.push_back(g);
    groups[g].push_back(&r);
  }
  for (const std::string& g : order) {
    const auto& rows = groups[g];
    uint64_t lo = UINT64_MAX, hi = 0;
    std::vector<uint64_t> params;
    for (const auto* r : rows) {
      lo = std::min(lo, r->param);
      hi = std::max(hi, r->param);
      params.push_back(r->param);
    }
    const calib::KindInfo* k = calib::find_kind(rows[0]->kind);
    const int steps = 16;
    for (int i = 0; i <= steps && hi > lo; ++i) {
      uint64_t p = static_cast<uint64_t>(
          std::llround(static_cast<double>(lo) * std::pow(double(hi) / lo, i / double(steps))));
      // Whole fractals along n: a partial one costs as much as a full one, a saw of no interest here.
      if (rows[0]->kind == "fixpipe" || rows[0]->kind.rfind("mmad", 0) == 0 || rows[0]->kind == "sparse")
        p = std::max<uint64_t>(16, (p + 8) / 16 * 16);
      params.push_back(std::clamp<uint64_t>(p, k->param_min, k->param_max));
    }
    std::sort(params.begin(), params.end());
    params.erase(std::unique(params.begin(), params.end()), params.end());
    for (uint64_t p : params) {
      calib::MicroRow r = *rows[0];
      r.param = p;
      r.value = 1;  // not measured: only the simulated value is drawn
      c.micro.push_back(r);
    }
  }
  return c;
}

void write_plot_csv(const std::string& path, const calib::Dataset& data, const calib::Dataset& curves,
                    const std::vector<calib::RowFigures>& measured_figs,
                    const std::vector<calib::RowFigures>& curve_figs, const calib::Evaluator& eval) {
  std::ofstream f(path);
  f << "kind,dst,param,measured,simulated,set,unit\n";
  for (size_t i = 0; i < data.micro.size(); ++i) {
    const calib::MicroRow& r = data.micro[i];
    f << r.kind << "," << r.dst << "," << r.param << "," << r.value << "," << measured_figs[i].value << ","
      << calib::to_string(r.set) << "," << r.unit << "\n";
  }
  for (size_t i = 0; i < curves.micro.size(); ++i) {
    const calib::MicroRow& r = curves.micro[i];
    f << r.kind << "," << r.dst << "," << r.param << ",," << curve_figs[i].value << ",curve," << r.unit
      << "\n";
  }
  for (size_t k = 0; k < data.kernels.size(); ++k) {
    const size_t row = data.micro.size() + k;
    for (const auto& c : eval.compare(row, measured_figs[row], {})) {
      const std::string figure = c.label.substr(data.kernels[k].name.size() + 1);
      f << "kernel," << data.kernels[k].name << "," << figure << "," << c.measured << "," << c.simulated
        << "," << calib::to_string(data.kernels[k].set) << ",us\n";
    }
  }
  if (!f.flush()) throw InputError(SourceLoc{path}, "cannot write the plot's points");
}

void keep_only(calib::Dataset& d, calib::RowSet set) {
  d.micro.erase(std::remove_if(d.micro.begin(), d.micro.end(), [&](const auto& r) { return r.set != set; }),
                d.micro.end());
  d.kernels.erase(
      std::remove_if(d.kernels.begin(), d.kernels.end(), [&](const auto& r) { return r.set != set; }),
      d.kernels.end());
}

}  // namespace

int validate_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  ValidateArgs a;
  po::options_description all;
  all.add(validate_options(a)).add_options()("data", po::value(&a.data), "the data files");
  po::positional_options_description pos;
  pos.add("data", -1);
  po::variables_map vm;
  if (!parse_options("validate", args, all, &pos, vm, kSynopsis, err)) return kExitBadInput;
  if (a.help) {
    ValidateArgs d;
    out << command_help_text(
        {kSynopsis, "compare a config's timing with measured silicon data, row by row",
         "  Exit status: 0 every row within its tolerance, 1 some row beyond it, 2 bad input.\n",
         format_options(validate_options(d), 2)});
    return kExitOk;
  }
  if (a.data.empty()) {
    err << "aicore-sim validate: error: missing DATA.csv (measured rows, e.g. "
           "calibration/measured-910b1.csv)\n"
        << "usage: aicore-sim " << kSynopsis << "\n";
    return kExitBadInput;
  }
  for (double t : {a.tolerance, a.kernel_tolerance, a.pipe_tolerance})
    if (!(t > 0 && t <= 1000)) {
      err << "aicore-sim validate: error: a tolerance is a percentage in (0, 1000]\n";
      return kExitBadInput;
    }
  if (a.jobs < 0 || a.jobs > 1024) {
    err << "aicore-sim validate: error: --jobs must be in 0..1024\n";
    return kExitBadInput;
  }
  if (!a.only.empty() && a.only != "train" && a.only != "check") {
    err << "aicore-sim validate: error: --only takes train or check, not '" << a.only << "'\n";
    return kExitBadInput;
  }
  if (!a.plot.empty() && fs::path(a.plot).extension() != ".png") {
    err << "aicore-sim validate: error: --plot writes a PNG: give a FILE.png, not '" << a.plot << "'\n";
    return kExitBadInput;
  }
  Diagnostics diag(err, false);
  try {
    const config::Config cfg = load_config(a.config, {}, diag);
    calib::Dataset data = calib::load_dataset(a.data);
    if (!a.only.empty()) keep_only(data, a.only == "check" ? calib::RowSet::Check : calib::RowSet::Train);
    if (data.micro.empty() && data.kernels.empty())
      throw InputError(SourceLoc{a.data[0]}, "no " + a.only + " rows in the data");
    TempDir work("aicore-calib");
    const calib::Simulator sim =
        calib::pool_simulator(pool_options(a.jobs, "fork"), a.config, cfg, work.path());
    calib::Evaluator eval(data, cfg, {}, work.path(), sim);
    std::vector<size_t> every(eval.rows());
    for (size_t r = 0; r < every.size(); ++r) every[r] = r;
    const calib::Tolerances tol{a.tolerance / 100, a.kernel_tolerance / 100, a.pipe_tolerance / 100};
    const auto figs = eval.run({{}}, every);
    out << "config " << cfg.name << "\n";
    const size_t beyond = calib::print_table(out, calib::table_rows(eval, figs[0], nullptr, tol), false);
    if (!a.plot.empty()) {
      const calib::Dataset curves = curve_rows(data);
      const fs::path curve_dir = fs::path(work.path()) / "curves";
      fs::create_directories(curve_dir);
      calib::Evaluator ceval(curves, cfg, {}, curve_dir.string(), sim);
      std::vector<size_t> all_curve(ceval.rows());
      for (size_t r = 0; r < all_curve.size(); ++r) all_curve[r] = r;
      const auto cfigs = ceval.run({{}}, all_curve);
      const std::string csv = (fs::path(a.plot).replace_extension(".csv")).string();
      write_plot_csv(csv, data, curves, figs[0], cfigs[0], eval);
      out << "wrote " << csv << "\n";
      if (!sweep::run_tool_script("plot_validation.py",
                                  {csv, "-o", a.plot, "--title", "aicore-sim " + cfg.name + " vs silicon"},
                                  "validate", err))
        return kExitBadInput;
    }
    if (beyond) out << beyond << " figure(s) beyond their tolerance\n";
    return beyond ? kExitMismatch : kExitOk;
  } catch (const InputError& e) {
    err << e.what() << "\n";
    return kExitBadInput;
  } catch (const std::runtime_error& e) {
    err << "aicore-sim validate: error: " << e.what() << "\n";
    return kExitFault;
  }
}

}  // namespace aicore::cli
