#include "check_option.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>

#include "aicore/check/format.hpp"
#include "aicore/common/error.hpp"
#include "commands.hpp"

namespace aicore::cli {

namespace fs = std::filesystem;

void add_check_option(po::options_description& opts, std::string& value) {
  opts.add_options()("check", po::value<std::string>(&value)->default_value("error"),
                     "race/sync checker: error (reports, and errors fail the run with exit 3), warn (reports "
                     "only) or none");
}

bool parse_check_mode(const std::string& value, CheckMode& mode, std::ostream& err, const char* command) {
  static const std::vector<std::string> names = {"error", "warn", "none"};
  for (size_t i = 0; i < names.size(); ++i)
    if (value == names[i]) {
      mode = static_cast<CheckMode>(i);
      return true;
    }
  const std::string near = nearest_word(value, names);
  err << "aicore-sim " << command << ": error: --check must be error, warn or none, not '" << value << "'"
      << (near.empty() ? "" : "; did you mean '" + near + "'?") << "\n";
  return false;
}

// What the model hands the checker: each core's instructions in program order (on_issue), and
// when each one ran.
struct CheckSession::Feed : model::Observer {
  explicit Feed(check::BackgroundChecker& c) : checker(c) { wants_issue_ = true; }
  void on_issue(const model::IssueRecord& r) override { checker.issue(r.core, *r.instr); }
  void on_instruction(const model::InstrRecord& r) override {
    checker.executed(r.core, r.instr->index, r.start_cycle, r.end_cycle);
  }
  check::BackgroundChecker& checker;
};

CheckSession::CheckSession(CheckMode mode, const config::Config& cfg, model::Chip& sim) : mode_(mode) {
  if (mode_ == CheckMode::None) return;
  check::CheckOptions o = check::options_from(cfg);
  o.cores = static_cast<uint16_t>(sim.core_count());
  checker_ = std::make_unique<check::BackgroundChecker>(o);
  feed_ = std::make_unique<Feed>(*checker_);
  sim.add_observer(feed_.get());
}

CheckSession::~CheckSession() = default;

void CheckSession::finish(const model::ChipSummary& s, const model::Chip& sim, const std::string& out_dir,
                          std::ostream& err, bool quiet_reports) {
  const std::string path = (fs::path(out_dir) / "checks.json").string();
  std::vector<std::string> names;  // by chip tensor id
  for (const auto& t : sim.tensors()) names.push_back(t.name);
  nlohmann::json doc;
  if (checker_) {
    const bool deadlock = s.fault && s.fault->kind() == FaultKind::Deadlock;
    try {
      checker_->finish(check::RunEnd{s.completed, deadlock});
    } catch (const std::exception& e) {  // a checker bug must not lose the run's own results
      err << "aicore-sim: check: internal error: " << e.what() << "\n";
      failed_ = true;
    }
    const check::Checker& c = checker_->checker();
    doc = check::to_json(c.reports(), c.summary(), names);
    if (!quiet_reports && (c.summary().errors || c.summary().warnings))
      err << check::format_text(c.reports(), c.summary(), names) << "check: every report is in " << path
          << "\n";
  } else {
    doc = check::to_json({}, check::Summary{}, names);
  }
  doc["mode"] = mode_ == CheckMode::Error ? "error" : mode_ == CheckMode::Warn ? "warn" : "none";
  std::ofstream f(path);
  if (!f)
    throw InputError(SourceLoc{path, 0, 0},
                     std::string("cannot create checks.json: ") + std::strerror(errno));
  f << doc.dump(2) << "\n";
  if (!f.flush()) throw InputError(SourceLoc{path, 0, 0}, "cannot write checks.json (disk full?)");
}

int CheckSession::status(int run_status) const {
  if (mode_ != CheckMode::Error || !checker_) return run_status;
  if (!failed_ && checker_->checker().summary().errors == 0) return run_status;
  return run_status == kExitOk || run_status == kExitMismatch ? kExitFault : run_status;
}

}  // namespace aicore::cli
