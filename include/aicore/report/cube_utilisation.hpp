// MAC utilisation of the Cube, each instruction measured against the peak of its own kind, so a
// dense int8 kernel can reach 100% (against one sparse peak it could reach only half):
//
//   peak(kind)        = 16 x 16 output cells x cube.<kind>_k_per_cycle MAC/cycle
//                       (int8 dense, b16 = half/bf16 dense, sparse = int8 4:2 in dense-equivalent MACs:
//                       8192, 4096 and 16384 on the presets)
//   ideal_cycles(k)   = dense-equivalent MACs of kind k / peak(k): cycles the work needs at peak
//   utilisation(k)    = ideal_cycles(k) / busy_cycles(k), busy = the M pipe's occupancy of kind k's
//                       instructions (head cycles and partial fractals count against it)
//   mac_utilisation   = sum ideal_cycles / sum busy_cycles: the kinds' utilisations weighted by
//                       their busy cycles (how well the Cube is used while it runs)
//   run_mac_utilisation = sum ideal_cycles / run cycles (how much of the whole run it does peak work)
#pragma once
#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "aicore/config/config.hpp"
#include "aicore/model/observer.hpp"

namespace aicore::report {

enum class CubeKind : uint8_t { Int8, B16, Sparse, Float, Int4 };
constexpr int kCubeKinds = 5;
const char* to_string(CubeKind k);  // "int8", "b16", "sparse", "float", "int4"
// The kind of a Cube instruction; nullopt for every other instruction.
std::optional<CubeKind> cube_kind(const isa::Op& op);
// Dense-equivalent MACs per cycle at full rate, from the config's K per cycle.
double peak_macs_per_cycle(CubeKind k, const config::Config& cfg);

class CubeUtilisation {
 public:
  struct Tally {
    uint64_t instructions = 0, busy_cycles = 0, dense_macs = 0;
  };

  void add(const model::InstrRecord& r);
  void add(const CubeUtilisation& other);  // sums the tallies (the chip's cores)
  const Tally& tally(CubeKind k) const { return tallies_[static_cast<size_t>(k)]; }

  double ideal_cycles(CubeKind k, const config::Config& cfg) const;
  double utilisation(CubeKind k, const config::Config& cfg) const;  // 0 when the kind never ran
  double overall(const config::Config& cfg) const;                  // mac_utilisation above
  double of_run(const config::Config& cfg, uint64_t run_cycles) const;

  // The stats.json "cube" members about utilisation: per kind and overall.
  void to_json(nlohmann::json& cube, const config::Config& cfg, uint64_t run_cycles) const;
  // Summary lines, one per kind that ran.
  std::string text(const config::Config& cfg, uint64_t run_cycles) const;

 private:
  std::array<Tally, kCubeKinds> tallies_{};
};

}  // namespace aicore::report
