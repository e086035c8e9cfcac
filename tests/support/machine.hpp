// Test harness for generated programs, independent of the timing model: a Cube core's
// buffers (docs/semantics.md §1) as plain vectors, executed with sem::execute, plus a flag model
// that checks the synchronisation protocol.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "aicore/gen/gemm.hpp"
#include "aicore/isa/instructions.hpp"
#include "aicore/semantics/memory.hpp"

namespace gentest {

struct Machine {
  // On-chip buffers start filled with pseudo-random bytes (never zero) so that a read of data
  // the program did not load yet gives a wrong answer instead of a lucky zero.
  Machine(const std::vector<std::vector<uint8_t>>& gm_images, uint64_t garbage_seed);
  std::vector<uint8_t> l1, l0a, l0b, l0c, index, bias_table;
  std::vector<std::vector<uint8_t>> gm;
  aicore::sem::MemoryView view;
};

std::vector<aicore::isa::Op> ops_of(const std::vector<aicore::gen::Emitted>& program);

// Program order, flags as per-(src, dst, id) booleans: a SetFlag on a set flag, a WaitFlag on
// a clear one, or a flag left set at the end is an error. Returns "" when clean.
std::string check_flags_in_order(const std::vector<aicore::isa::Op>& ops);

// Executes in program order (throws on a fault).
void run_in_order(const std::vector<aicore::isa::Op>& ops, Machine& m);

// Executes per-pipe queues in one random interleaving that respects only in-order execution
// per pipe, flags, unit flags (whole instructions at a time) and PIPE_ALL barriers; pipes get
// random speed weights so some run far ahead. Returns "" or the first problem (double set, deadlock, flag
// left set, fault).
std::string run_interleaved(const std::vector<aicore::isa::Op>& ops, Machine& m, uint64_t seed);

// The int32 contents of a GM tensor.
std::vector<int32_t> as_i32(const std::vector<uint8_t>& bytes);

}  // namespace gentest
