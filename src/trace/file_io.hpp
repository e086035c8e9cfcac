// Private to the trace layer: whole-file reads and writes with InputError reporting.
#pragma once
#include <cstdint>
#include <fstream>
#include <string>

namespace aicore::trace::detail {

// Opens a file for binary reading; InputError naming the file when impossible. Sets `size`.
std::ifstream open_for_read(const std::string& path, uint64_t& size);
// Opens a file for binary writing, creating missing parent directories.
std::ofstream open_for_write(const std::string& path);
// Checks a stream after writing (InputError naming the file on failure).
void finish_write(std::ofstream& out, const std::string& path);

}  // namespace aicore::trace::detail
