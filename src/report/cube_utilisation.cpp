#include "aicore/report/cube_utilisation.hpp"

#include <cstdio>

namespace aicore::report {

namespace {

// The Cube computes one 16 x 16 output fractal per cycle-step: M x N cells at once, K per cycle
// by kind (the same fractal count the timing model charges).
constexpr double kCellsPerStep = 16.0 * 16.0;

constexpr CubeKind kKinds[] = {CubeKind::Int8, CubeKind::B16, CubeKind::Sparse, CubeKind::Float,
                               CubeKind::Int4};

double ratio(double a, double b) {
  return b > 0 ? a / b : 0.0;
}

}  // namespace

const char* to_string(CubeKind k) {
  switch (k) {
    case CubeKind::Int8:
      return "int8";
    case CubeKind::B16:
      return "b16";
    case CubeKind::Sparse:
      return "sparse";
    case CubeKind::Float:
      return "float";
    case CubeKind::Int4:
      return "int4";
  }
  return "?";
}

std::optional<CubeKind> cube_kind(const isa::Op& op) {
  if (const auto* m = std::get_if<isa::Mmad>(&op))
    return m->dtype == isa::DType::Int8    ? CubeKind::Int8
           : m->dtype == isa::DType::Int4  ? CubeKind::Int4
           : m->dtype == isa::DType::Float ? CubeKind::Float
                                           : CubeKind::B16;
  if (std::holds_alternative<isa::MmadWithSparse>(op)) return CubeKind::Sparse;
  return std::nullopt;
}

double peak_macs_per_cycle(CubeKind k, const config::Config& cfg) {
  switch (k) {
    case CubeKind::Int8:
      return kCellsPerStep * cfg.cube.int8_k_per_cycle;
    case CubeKind::B16:
      return kCellsPerStep * cfg.cube.b16_k_per_cycle;
    case CubeKind::Sparse:
      return kCellsPerStep * cfg.cube.sparse_k_per_cycle;
    case CubeKind::Float:
      return kCellsPerStep * cfg.cube.float_k_per_cycle;
    case CubeKind::Int4:
      return kCellsPerStep * cfg.cube.int4_k_per_cycle;
  }
  return 0;
}

void CubeUtilisation::add(const model::InstrRecord& r) {
  const auto k = cube_kind(r.instr->op);
  if (!k) return;
  Tally& t = tallies_[static_cast<size_t>(*k)];
  ++t.instructions;
  t.busy_cycles += r.busy_end - r.start_cycle - r.port_stall_cycles;
  t.dense_macs += r.dense_macs;
}

void CubeUtilisation::add(const CubeUtilisation& other) {
  for (size_t k = 0; k < tallies_.size(); ++k) {
    tallies_[k].instructions += other.tallies_[k].instructions;
    tallies_[k].busy_cycles += other.tallies_[k].busy_cycles;
    tallies_[k].dense_macs += other.tallies_[k].dense_macs;
  }
}

double CubeUtilisation::ideal_cycles(CubeKind k, const config::Config& cfg) const {
  return ratio(static_cast<double>(tally(k).dense_macs), peak_macs_per_cycle(k, cfg));
}

double CubeUtilisation::utilisation(CubeKind k, const config::Config& cfg) const {
  return ratio(ideal_cycles(k, cfg), static_cast<double>(tally(k).busy_cycles));
}

double CubeUtilisation::overall(const config::Config& cfg) const {
  double ideal = 0, busy = 0;
  for (CubeKind k : kKinds) {
    ideal += ideal_cycles(k, cfg);
    busy += static_cast<double>(tally(k).busy_cycles);
  }
  return ratio(ideal, busy);
}

double CubeUtilisation::of_run(const config::Config& cfg, uint64_t run_cycles) const {
  double ideal = 0;
  for (CubeKind k : kKinds) ideal += ideal_cycles(k, cfg);
  return ratio(ideal, static_cast<double>(run_cycles));
}

void CubeUtilisation::to_json(nlohmann::json& cube, const config::Config& cfg, uint64_t run_cycles) const {
  uint64_t busy = 0;
  double ideal = 0;
  for (CubeKind k : kKinds) {
    const Tally& t = tally(k);
    cube["kinds"][to_string(k)] = {
        {"instructions", t.instructions},        {"busy_cycles", t.busy_cycles},
        {"dense_equivalent_macs", t.dense_macs}, {"peak_macs_per_cycle", peak_macs_per_cycle(k, cfg)},
        {"ideal_cycles", ideal_cycles(k, cfg)},  {"utilisation", utilisation(k, cfg)}};
    busy += t.busy_cycles;
    ideal += ideal_cycles(k, cfg);
  }
  cube["busy_cycles"] = busy;
  cube["ideal_cycles"] = ideal;
  cube["mac_utilisation"] = overall(cfg);
  cube["run_mac_utilisation"] = of_run(cfg, run_cycles);
}

std::string CubeUtilisation::text(const config::Config& cfg, uint64_t run_cycles) const {
  char line[256];
  std::snprintf(
      line, sizeof line,
      "  Cube MAC utilisation: %.1f%% while busy, %.1f%% of the run (each kind against its own peak)\n",
      100.0 * overall(cfg), 100.0 * of_run(cfg, run_cycles));
  std::string out = line;
  for (CubeKind k : kKinds) {
    const Tally& t = tally(k);
    if (!t.instructions) continue;
    std::snprintf(line, sizeof line,
                  "    %-6s %5.1f%% of %5.0f MAC/cycle while busy  busy %10llu cycles  instructions %8llu\n",
                  to_string(k), 100.0 * utilisation(k, cfg), peak_macs_per_cycle(k, cfg),
                  static_cast<unsigned long long>(t.busy_cycles),
                  static_cast<unsigned long long>(t.instructions));
    out += line;
  }
  return out;
}

}  // namespace aicore::report
