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
      // Fixpipe takes the longer of its conversion (elements) and its GM write (bytes); an output
      // element is 1 (int8), 2 (half/bf16) or 4 (int32/float) bytes.
      {"gm.write.bytes_per_cycle", "fixpipe.elements_per_cycle",
       "Fixpipe cannot write GM faster than it produces output elements of at most 4 bytes", 4, " x 4",
       false},
      {"fixpipe.elements_per_cycle", "gm.write.bytes_per_cycle",
       "Fixpipe cannot produce output elements, of at least 1 byte, faster than it writes them to GM", 1, "",
       false},
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
    const double v = value_of(c, cap.key), limit = value_of(c, cap.capped_by) * cap.factor;
    if (v <= limit) continue;
    std::string w = cap.key + " = " + format_number(v) + " is above " + cap.capped_by + cap.factor_text +
                    " = " + format_number(limit) + " (" + cap.why + "): raising it past " +
                    format_number(limit) + " changes nothing";
    // A GM path with a per-row cost moves row-by-row copies (ND2NZ, Fixpipe to a wider matrix)
    // below its own rate, so those can still gain past the cap: say which copies gain nothing.
    const std::string rows_key = cap.key.substr(0, cap.key.rfind('.') + 1) + "row_cycles";
    if (find_param(rows_key) && value_of(c, rows_key) > 0)
      w += " for contiguous copies (copies of several rows, slowed by " + rows_key + " = " +
           format_number(value_of(c, rows_key)) + ", still gain)";
    return w;
  }
  return "";
}

std::vector<std::string> cap_warnings_for_change(const Config& c, const std::string& key) {
  std::vector<std::string> out;
  if (std::string w = cap_warning(c, key); !w.empty()) out.push_back(std::move(w));
  for (const Cap& cap : caps())
    if (cap.capped_by == key && cap.when_bound_lowered)
      if (std::string w = cap_warning(c, cap.key); !w.empty()) out.push_back(std::move(w));
  return out;
}

}  // namespace aicore::config
