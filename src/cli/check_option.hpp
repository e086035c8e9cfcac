// `aicore-sim run --check MODE`: the race/sync checker (docs/checking.md) of one run. It is on by
// default; errors make the run exit 3 once everything else is written; `warn` reports without
// failing; `none` turns it off. The model sees only an observer (issue and instruction events);
// formats and files are decided here.
#pragma once
#include <iosfwd>
#include <memory>
#include <string>

#include "aicore/check/background.hpp"
#include "aicore/model/chip.hpp"
#include "options.hpp"

namespace aicore::cli {

enum class CheckMode { Error, Warn, None };

// Adds --check to `opts`, its value going to `value`.
void add_check_option(po::options_description& opts, std::string& value);
// The mode --check names; false, with a message on err (from `command`), for anything else.
bool parse_check_mode(const std::string& value, CheckMode& mode, std::ostream& err,
                      const char* command = "run");

class CheckSession {
 public:
  CheckSession(CheckMode mode, const config::Config& cfg, model::Chip& sim);
  ~CheckSession();
  CheckSession(const CheckSession&) = delete;
  CheckSession& operator=(const CheckSession&) = delete;

  // After the run: prints the reports on err (unless `quiet_reports`) and writes
  // OUT_DIR/checks.json (InputError if it cannot).
  void finish(const model::ChipSummary& s, const model::Chip& sim, const std::string& out_dir,
              std::ostream& err, bool quiet_reports = false);
  // The run's exit status once the check is taken into account.
  int status(int run_status) const;

 private:
  struct Feed;
  CheckMode mode_;
  std::unique_ptr<check::BackgroundChecker> checker_;  // checks on a second core
  bool failed_ = false;                                // an internal error of the checker
  std::unique_ptr<Feed> feed_;
};

}  // namespace aicore::cli
