// The happens-before race, uninitialised-read and synchronisation checker (docs/checking.md).
// A plain object, not a SystemC module: the model (or a test) hands it every instruction in
// program order as the scalar unit issues it, and, separately, the cycles each one ran. It
// decides ordering from the instructions alone, never from simulated time, so the same trace
// gives the same reports under any configuration; cycles only fill each report's `timing`.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "aicore/check/options.hpp"
#include "aicore/check/report.hpp"
#include "aicore/isa/instructions.hpp"

namespace aicore::check {

// How the run ended, for the end-of-run checks.
struct RunEnd {
  bool completed = true;  // every instruction ran (no fault, no bad input, no deadlock)
  bool deadlock = false;  // the model stopped because no pipe could make progress
};

class Checker {
 public:
  explicit Checker(const CheckOptions& options);
  ~Checker();
  Checker(const Checker&) = delete;
  Checker& operator=(const Checker&) = delete;

  // Program order of one core: every instruction, sync ones included, in the order its scalar
  // unit issues it. Memory stays bounded: an instruction is kept only while a WaitFlag ahead of
  // it on its pipe waits for a SetFlag not issued yet.
  void issue(isa::CoreId core, const isa::Instruction& instr);
  // The cycles an instruction ran (any order). Only reports' timing facts use them.
  void executed(isa::CoreId core, uint64_t index, uint64_t start_cycle, uint64_t end_cycle);
  // End of the run: flags left set, deadlock hints, unused syncs, cross-core GM races. Once.
  void finish(const RunEnd& end);

  // After finish(): errors first, then by position in the program.
  const std::vector<Report>& reports() const;
  const Summary& summary() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace aicore::check
