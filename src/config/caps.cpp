#include "aicore/config/caps.hpp"

#include <variant>

#include "aicore/config/params.hpp"
#include "raw.hpp"

namespace aicore::config {

const std::vector<Cap>& caps() {
  static const std::vector<Cap> table = {
      {"gm.read.bytes_per_cycle", "gm.shared_bytes_per_cycle",
       "MTE2 reads go through the core's GM port, shared with Fixpipe writes"},
      {"gm.write.bytes_per_cycle", "gm.shared_bytes_per_cycle",
       "Fixpipe writes go through the core's GM port, shared with MTE2 reads"},
  };
  return table;
}

namespace {
double value_of(const Config& c, const std::string& key) {
  const Param* p = find_param(key);
  if (!p) return 0;
  Config copy = c;  // Param::field takes a mutable Config
  return std::visit([](auto* f) { return static_cast<double>(*f); }, p->field(copy));
}
}  // namespace

std::string cap_warning(const Config& c, const std::string& key) {
  for (const Cap& cap : caps()) {
    if (cap.key != key) continue;
    const double v = value_of(c, cap.key), limit = value_of(c, cap.capped_by);
    if (v <= limit) continue;
    return cap.key + " = " + detail::format_number(v) + " is above " + cap.capped_by + " = " +
           detail::format_number(limit) + " (" + cap.why + "): raising it past " +
           detail::format_number(limit) + " changes nothing";
  }
  return "";
}

}  // namespace aicore::config
