// What each measured row is simulated as (docs/validation.md, "Kinds"), and how the simulated
// metric is computed from the run, in the row's unit.
//
// A microbenchmark row is a trace of COUNT identical instructions back to back on one pipe; the
// metric is taken over the whole run, as on silicon (bytes or operations / the run's cycles). A
// kernel row is the best-practice matmul kernel of gen/matmul.hpp, timing-only; a big one is
// simulated for one and two output blocks and extrapolated (its blocks all cost the same).
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "aicore/calib/data.hpp"
#include "aicore/config/config.hpp"
#include "aicore/isa/instructions.hpp"

namespace aicore::calib {

struct KindInfo {
  std::string name;
  std::vector<std::string> dsts;  // accepted dst cells (the first is the canonical one)
  std::string unit;
  std::string param;  // what PARAM sets, for messages and docs
  uint64_t param_min = 1, param_max = 1;
  std::string instruction;  // the instruction with P where PARAM goes, before `fields`
};

// Every kind, in documentation order; find_kind: nullptr if unknown.
const std::vector<KindInfo>& kinds();
const KindInfo* find_kind(const std::string& name);

// The microbenchmark of a row, checked: the instruction (with `fields` applied), the GM tensor
// it needs, the bytes or operations one instruction contributes to the metric.
struct Micro {
  std::string instruction;  // trace text of one instruction
  isa::Op op;
  uint64_t gm_bytes = 0;  // size of tensor a (reads) or c (Fixpipe writes); 0: none
  bool gm_is_c = false;
  double per_instruction = 0;  // bytes (GiB/s kinds) or operations (OPs/cycle kinds)
};
// Throws InputError at the row (or its fields cell) when the instruction is not valid.
Micro micro_of(const MicroRow& row);
// Throws InputError at the row when the instruction does not fit the configuration's buffers.
void check_micro(const MicroRow& row, const Micro& m, const config::Config& cfg);
// COUNT copies of the instruction; its GM tensor is named `prefix` + "a" (or "c" for writes), so
// the traces of several rows can run as the cores of one chip.
std::string micro_trace(const MicroRow& row, const Micro& m, const std::string& prefix);
// The metric of a run of `cycles` cycles at `clock_mhz`, in the row's unit.
double micro_metric(const MicroRow& row, const Micro& m, uint64_t cycles, double clock_mhz);

// A kernel row: the blocks to simulate (all of them when there are at most 3, else 1 and 2).
std::vector<uint64_t> kernel_block_runs(const KernelRow& row);
// The timing-only trace of the row's kernel cut to `blocks` output blocks (0 = all).
std::string kernel_trace(const KernelRow& row, uint64_t blocks, const std::string& prefix);
// A row of several cores, whole (chip effects such as the L2 do not extrapolate from a few
// blocks): gen --cores --split's kernel, timing-only, as dir/kernel.yaml and dir/coreI.trace.
// Returns the manifest's path. Throws InputError when a file cannot be written.
std::string write_chip_kernel(const KernelRow& row, const std::string& dir);  // matmul or stream

// What a kernel run measured: the run's cycles and each pipe's time as msprof counts it (aic_time_cycles,
// kKernelPipeNames order).
struct KernelCycles {
  double task = 0;
  std::array<double, kKernelPipeCount> pipes{};
};
// The whole kernel from its runs (kernel_block_runs order): linear in the blocks beyond the first.
KernelCycles extrapolate(const KernelRow& row, const std::vector<KernelCycles>& runs);

}  // namespace aicore::calib
