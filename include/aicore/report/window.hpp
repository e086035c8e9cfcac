// The optional cycle window of --window START:END: timeline.json and waves.vcd keep only what
// happens in [START, END), so a huge run still yields files a viewer can open.
#pragma once
#include <cstdint>
#include <limits>
#include <string>

namespace aicore::report {

struct CycleWindow {
  uint64_t begin = 0;
  uint64_t end = std::numeric_limits<uint64_t>::max();  // exclusive

  bool whole() const { return begin == 0 && end == std::numeric_limits<uint64_t>::max(); }
  // Does the interval [start, stop) show in the window? A zero-length interval shows when its
  // cycle is inside.
  bool shows(uint64_t start, uint64_t stop) const { return start < end && (start >= begin || stop > begin); }
};

// "START:END" or "START:" (to the end of the run), decimal cycles, END > START. Throws
// std::invalid_argument with a message naming what is wrong.
CycleWindow parse_window(const std::string& text);

}  // namespace aicore::report
