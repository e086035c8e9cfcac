// Run statistics (docs/design.md, layer report): an Observer that accumulates per-pipe waits by cause,
// bytes per data path and MACs, and the stats.json document built from it.
#pragma once
#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "aicore/config/config.hpp"
#include "aicore/model/chip.hpp"
#include "aicore/model/observer.hpp"
#include "aicore/report/cube_utilisation.hpp"

namespace aicore::report {

// The data paths reported in stats.json, with the config bandwidth they are compared to.
enum class Path : uint8_t { GmToL1, L1ToL0A, L1ToL0B, L1ToL0BSparse, L0CToGm, L1ToBT };
constexpr int kPathCount = 6;
const char* to_string(Path p);
// The data path an instruction moves its bytes on; nullopt for sync instructions and the Cube.
std::optional<Path> path_of(const isa::Op& op);

class StatsCollector : public model::Observer {
 public:
  void on_instruction(const model::InstrRecord& r) override;

  struct PipeWaits {
    uint64_t flag = 0, barrier = 0, port = 0, unit_flag = 0, queue_full = 0;
  };
  // What one core (or, summed, the chip) did, beyond the model's own counters.
  struct Figures {
    std::array<PipeWaits, isa::kPipeCount> waits{};
    std::array<uint64_t, kPathCount> path_bytes{};
    uint64_t macs = 0, dense_macs = 0, sparse = 0;
    CubeUtilisation cube;  // per kind of Cube instruction
    void add(const Figures& o);
  };
  // Core `c` (zeros for a core that ran nothing) and the sum over all cores.
  Figures core(isa::CoreId c) const;
  Figures total() const;

 private:
  std::vector<Figures> cores_;
};

struct RunInfo {
  std::string trace;
  bool timing_only = false;
  std::string status;   // "completed", "fault", "input_error", "mismatch"
  std::string message;  // the fault or error text, if any
};

// stats.json: the chip's figures at the top level (a chip of one core: that core's) and each
// core's in `cores`.
nlohmann::json stats_json(const model::ChipSummary& s, const StatsCollector& c, const config::Config& cfg,
                          const RunInfo& info);

// The one-screen summary printed after a run.
std::string summary_text(const model::ChipSummary& s, const StatsCollector& c, const config::Config& cfg);

}  // namespace aicore::report
