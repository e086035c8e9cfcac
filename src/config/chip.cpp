// The chip level's derived capacities (config.hpp, ChipConfig).
#include <algorithm>

#include "aicore/config/config.hpp"

namespace aicore::config {

double ChipConfig::hbm_capacity() const {
  return std::min(hbm.bytes_per_cycle, hbm.bytes_per_cycle_per_core * cores);
}
double ChipConfig::l2_read_capacity() const {
  return std::min(l2.read_bytes_per_cycle, l2.read_bytes_per_cycle_per_core * cores);
}
double ChipConfig::l2_write_capacity() const {
  return std::min(l2.write_bytes_per_cycle, l2.write_bytes_per_cycle_per_core * cores);
}

}  // namespace aicore::config
