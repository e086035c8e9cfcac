// A run-time fault with the context a user needs: which instruction, which line, which cycle.
// Thrown out of the model (never SC_REPORT_FATAL) and mapped to exit status 3 by the CLI.
#pragma once
#include <cstdint>
#include <string>

#include "aicore/common/error.hpp"

namespace aicore::model {

class SimFault : public std::runtime_error {
 public:
  SimFault(FaultKind kind, const std::string& message, uint64_t cycle)
      : std::runtime_error(message), kind_(kind), cycle_(cycle) {}
  FaultKind kind() const { return kind_; }
  uint64_t cycle() const { return cycle_; }

 private:
  FaultKind kind_;
  uint64_t cycle_;
};

}  // namespace aicore::model
