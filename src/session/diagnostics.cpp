#include "aicore/session/diagnostics.hpp"

namespace aicore::session {

const char* to_string(Message::Level l) {
  switch (l) {
    case Message::Level::Note:
      return "note";
    case Message::Level::Warning:
      return "warning";
    case Message::Level::Error:
      return "error";
  }
  return "?";
}

void Diagnostics::note(const std::string& text) {
  messages_.push_back({Message::Level::Note, text});
  if (!quiet_) err_ << "note: " << text << "\n";
}

void Diagnostics::warning(const std::string& text) {
  messages_.push_back({Message::Level::Warning, text});
  err_ << "warning: " << text << "\n";
}

void Diagnostics::error(const std::string& text) {
  messages_.push_back({Message::Level::Error, text});
  err_ << text << "\n";
}

}  // namespace aicore::session
