// Names of the files instructions come from (a trace, a kernel's .cpp), interned once so that
// every instruction record carries a 4-byte id instead of a string. Reports turn the id back
// into "FILE:LINE". Thread-safe: readers parse on their own threads.
#pragma once
#include <cstdint>
#include <string>

namespace aicore {

using FileId = uint32_t;

// The id of `name`, the same for the same string; id 0 is "" (no file).
FileId intern_source_file(const std::string& name);
// The name of an id returned by intern_source_file (stable for the process's life).
const std::string& source_file_name(FileId id);

}  // namespace aicore
