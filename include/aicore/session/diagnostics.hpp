// Where a run's messages go. stdout carries results only (the summary, .expect results and the
// "wrote ..." lines), so scripts can parse it; every other message goes to stderr. Notes are
// informational and quiet silences them; warnings say a result may not mean what the user thinks
// (a capped --set value, flags left set) and are shown even when quiet, like errors. Every
// message is also kept, for the run's result (a library caller may give no stream at all).
#pragma once
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace aicore::session {

struct Message {
  enum class Level : uint8_t { Note, Warning, Error };
  Level level = Level::Note;
  std::string text;  // as printed, without the "note: " / "warning: " prefix
};
const char* to_string(Message::Level l);  // "note", "warning", "error"

class Diagnostics {
 public:
  Diagnostics(std::ostream& err, bool quiet) : err_(err), quiet_(quiet) {}
  void note(const std::string& text);
  void warning(const std::string& text);
  // An error message printed as is (it carries its own "file:line:column: error:" or "fault:").
  void error(const std::string& text);
  const std::vector<Message>& messages() const { return messages_; }

 private:
  std::ostream& err_;
  bool quiet_;
  std::vector<Message> messages_;
};

}  // namespace aicore::session
