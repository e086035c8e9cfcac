// Keys whose effect another key limits: raising a capped key past its cap changes nothing in a
// run (MTE2 cannot read faster than the GM port it shares). `--set`, what-if overlays and sweeps
// warn about it instead of silently simulating the cap.
#pragma once
#include <string>
#include <vector>

#include "aicore/config/config.hpp"

namespace aicore::config {

struct Cap {
  std::string key;               // the capped key, e.g. "gm.read.bytes_per_cycle"
  std::string capped_by;         // the key that bounds it, e.g. "gm.shared_bytes_per_cycle"
  std::string why;               // one line: why the second bounds the first
  double factor = 1;             // the bound is capped_by x factor (unit conversion, e.g. bytes -> elements)
  std::string factor_text = "";  // how the factor reads in messages: " / 4", " x 4" ("" for 1)
  // Also warn when the user lowers `capped_by` under `key` (false where the presets themselves sit
  // past the cap on purpose, so that lowering the bound would only repeat that).
  bool when_bound_lowered = true;
};

// Every cap relation, in param-table order of `key`.
const std::vector<Cap>& caps();

// The warning for `key` in `c` when its value exceeds a cap ("" when it does not, or when `key`
// is capped by nothing): "gm.read.bytes_per_cycle = 512 is above gm.shared_bytes_per_cycle = 256
// (...): raising it past 256 changes nothing". The first cap `key` exceeds, in table order.
std::string cap_warning(const Config& c, const std::string& key);

// The warnings a change of `key` gives: its own cap (cap_warning), and every key it bounds
// (`when_bound_lowered` caps) that now exceeds it.
std::vector<std::string> cap_warnings_for_change(const Config& c, const std::string& key);

}  // namespace aicore::config
