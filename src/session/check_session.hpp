// The race/sync checker (docs/checking.md) of one run. It is on by default; errors make the run
// exit 3 once everything else is written; warn reports without failing; none turns it off. The
// model sees only an observer (issue and instruction events); formats and files are decided here.
#pragma once
#include <iosfwd>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "aicore/check/background.hpp"
#include "aicore/model/chip.hpp"
#include "aicore/session/options.hpp"

namespace aicore::session {

class CheckSession {
 public:
  CheckSession(CheckMode mode, const config::Config& cfg, model::Chip& sim);
  ~CheckSession();
  CheckSession(const CheckSession&) = delete;
  CheckSession& operator=(const CheckSession&) = delete;

  // After the run: prints the reports on err (unless `quiet_reports`) and returns the checks.json
  // document; writes it to OUT_DIR/checks.json when out_dir is not "" (InputError if it cannot).
  nlohmann::json finish(const model::ChipSummary& s, const model::Chip& sim, const std::string& out_dir,
                        std::ostream& err, bool quiet_reports = false);
  // Whether the checker fails the run: the error mode and an error reported (or the checker's
  // own internal error).
  bool failed() const;
  uint64_t errors() const;
  uint64_t warnings() const;

 private:
  struct Feed;
  CheckMode mode_;
  std::unique_ptr<check::BackgroundChecker> checker_;  // checks on a second core
  bool internal_error_ = false;
  std::unique_ptr<Feed> feed_;
};

}  // namespace aicore::session
