// Numbers as people write them, for messages, generated docs and YAML that must read back.
#pragma once
#include <string>

namespace aicore {

// The shortest decimal text that reads back as exactly `v`; whole numbers as integers ("1850",
// not "1.85e+03").
std::string format_number(double v);

}  // namespace aicore
