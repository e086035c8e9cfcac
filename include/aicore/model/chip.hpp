// A chip: N cores (one per instruction source; block index = position) sharing GM — the
// tensors their sources declare by name and the GM bandwidth (gm_port.hpp). Elaborates the
// SystemC modules, runs every core to the end of its program (or to the first fault), and
// exposes what the reports and the CLI need. SystemC elaboration is process-global: create at
// most one Chip per process.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "aicore/config/config.hpp"
#include "aicore/model/core.hpp"
#include "aicore/model/fault.hpp"
#include "aicore/model/global_memory.hpp"
#include "aicore/model/l2_cache.hpp"
#include "aicore/model/observer.hpp"
#include "aicore/model/source.hpp"

namespace aicore::model {

// The L2 at the end of a run: every core's requests summed, and what it holds.
struct L2Summary {
  L2Counts counts;
  uint64_t evictions = 0, valid_lines = 0, dirty_lines = 0;
};

struct ChipSummary {
  bool completed = false;     // every instruction of every core ran
  uint64_t cycles = 0;        // when the last core finished (or the fault / deadlock cycle)
  uint64_t instructions = 0;  // issued instructions, all cores
  std::vector<CoreSummary> cores;
  L2Summary l2;
  uint32_t flags_left_set = 0;                  // all cores
  uint64_t held_sets = 0, held_set_cycles = 0;  // all cores (CoreSummary)
  uint64_t late_requests = 0;                   // see Engine::late_requests (0 in a sound run)
  std::optional<SimFault> fault;                // exit 3
  std::optional<InputError> input_error;        // exit 2 (met while reading a source)
};

class Chip {
 public:
  // One core per source, in order; more sources than chip.cores is an InputError.
  Chip(const config::Config& cfg, const std::vector<InstructionSource*>& sources, bool timing_only);
  ~Chip();

  void add_observer(Observer* o);
  ChipSummary run();  // once
  size_t core_count() const;

  // After run() (or during it, for observers): the GM tensors; data is null in timing-only runs.
  const std::vector<TensorInfo>& tensors() const;
  const uint8_t* tensor_data(uint32_t id) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace aicore::model
