#include "check_session.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>

#include "aicore/check/format.hpp"
#include "aicore/common/error.hpp"

namespace aicore::session {

namespace fs = std::filesystem;

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

nlohmann::json CheckSession::finish(const model::ChipSummary& s, const model::Chip& sim,
                                    const std::string& out_dir, std::ostream& err, bool quiet_reports) {
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
      internal_error_ = true;
    }
    const check::Checker& c = checker_->checker();
    doc = check::to_json(c.reports(), c.summary(), names);
    if (!quiet_reports && (c.summary().errors || c.summary().warnings))
      err << check::format_text(c.reports(), c.summary(), names)
          << (out_dir.empty() ? "" : "check: every report is in " + path + "\n");
  } else {
    doc = check::to_json({}, check::Summary{}, names);
  }
  doc["mode"] = to_string(mode_);
  if (out_dir.empty()) return doc;
  std::ofstream f(path);
  if (!f)
    throw InputError(SourceLoc{path, 0, 0},
                     std::string("cannot create checks.json: ") + std::strerror(errno));
  f << doc.dump(2) << "\n";
  if (!f.flush()) throw InputError(SourceLoc{path, 0, 0}, "cannot write checks.json (disk full?)");
  return doc;
}

bool CheckSession::failed() const {
  if (mode_ != CheckMode::Error || !checker_) return false;
  return internal_error_ || checker_->checker().summary().errors > 0;
}

uint64_t CheckSession::errors() const {
  return checker_ ? checker_->checker().summary().errors : 0;
}

uint64_t CheckSession::warnings() const {
  return checker_ ? checker_->checker().summary().warnings : 0;
}

}  // namespace aicore::session
