// Reading a whole small input file (a config, a calibration CSV) with a size cap, without
// allocating the cap: a 4 MiB buffer filled with zeros per file cost every run a few milliseconds
// of page faults for files of a few kilobytes.
#pragma once
#include <cstddef>
#include <istream>
#include <string>

namespace aicore {

// Up to `cap` + 1 bytes of `in` (so a caller sees that a file is over its cap by the size).
std::string read_capped(std::istream& in, size_t cap);

}  // namespace aicore
