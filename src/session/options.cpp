#include "aicore/session/options.hpp"

#include <array>
#include <stdexcept>

#include "aicore/common/error.hpp"

namespace aicore::session {

namespace {
const std::array<std::string, 3> kCheckModes = {"error", "warn", "none"};
}  // namespace

const char* to_string(CheckMode m) {
  return kCheckModes[static_cast<size_t>(m)].c_str();
}

std::optional<CheckMode> check_mode_from(const std::string& text) {
  for (size_t i = 0; i < kCheckModes.size(); ++i)
    if (text == kCheckModes[i]) return static_cast<CheckMode>(i);
  return std::nullopt;
}

std::string check_mode_error(const std::string& text) {
  const std::string near = nearest_word(text, kCheckModes);
  return "--check must be error, warn or none, not '" + text + "'" +
         (near.empty() ? "" : "; did you mean '" + near + "'?");
}

std::string options_error(const RunOptions& o, report::CycleWindow* window) {
  if (o.window.empty()) return "";
  if (!o.timeline && !o.vcd) return "--window limits --timeline and --vcd; give at least one of them";
  try {
    const report::CycleWindow w = report::parse_window(o.window);
    if (window) *window = w;
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace aicore::session
