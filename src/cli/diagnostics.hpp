// Where the CLI's messages go. stdout carries results only (the summary, .expect results and the
// "wrote ..." lines), so scripts can parse it; every other message goes to stderr. Notes are
// informational and -q silences them; warnings say a result may not mean what the user thinks
// (a capped --set value, flags left set) and are shown even with -q, like errors.
#pragma once
#include <ostream>
#include <string>

namespace aicore::cli {

class Diagnostics {
 public:
  Diagnostics(std::ostream& err, bool quiet) : err_(err), quiet_(quiet) {}
  void note(const std::string& text) {
    if (!quiet_) err_ << "note: " << text << "\n";
  }
  void warning(const std::string& text) { err_ << "warning: " << text << "\n"; }

 private:
  std::ostream& err_;
  bool quiet_;
};

}  // namespace aicore::cli
