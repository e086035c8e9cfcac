#include "inspection.hpp"

#include <filesystem>

namespace aicore::session {

namespace fs = std::filesystem;

namespace {
// Viewers load a timeline.json of up to about this size; past it, suggest --window.
constexpr uintmax_t kViewerLimitBytes = 256u << 20;
}  // namespace

Inspection::Inspection(const RunOptions& a, const std::string& run_name, const report::CycleWindow& w,
                       const config::Config& cfg, model::Chip& sim)
    : options_(a) {
  const fs::path dir(a.out_dir);
  const std::string name = fs::path(run_name).filename().string();
  if (!a.instr_log && !a.timeline && !a.vcd) return;
  worker_ = std::make_unique<report::BackgroundObservers>(sim.tensors());
  if (a.instr_log) csv_ = std::make_unique<report::InstrCsvWriter>((dir / "instr.csv").string());
  if (a.timeline || a.vcd)
    signals_ = std::make_unique<report::SignalTracker>(w, a.vcd, static_cast<uint32_t>(sim.core_count()));
  if (a.timeline)
    timeline_ = std::make_unique<report::TimelineWriter>((dir / "timeline.json").string(), cfg, name,
                                                         *signals_, worker_->tensors());
  if (a.vcd) vcd_ = std::make_unique<report::VcdWriter>((dir / "waves.vcd").string(), cfg, name, *signals_);
  if (csv_) worker_->add(*csv_);
  if (signals_) worker_->add(*signals_);
  if (timeline_) worker_->add(*timeline_);
  sim.add_observer(worker_.get());
}

void Inspection::finish(uint64_t cycles, Diagnostics& diag) {
  if (worker_) worker_->finish();  // every event delivered; the writers are ours again
  if (csv_) csv_->finish();
  const fs::path dir(options_.out_dir);
  if (signals_) signals_->finish(cycles);  // the last values, to both files
  if (timeline_) {
    timeline_->finish();
    std::error_code ec;
    const uintmax_t size = fs::file_size(dir / "timeline.json", ec);
    if (!ec && size > kViewerLimitBytes)
      diag.note("timeline.json is " + std::to_string(size >> 20) +
                " MB; viewers load about 256 MB: use --window START:END");
  }
  if (vcd_) vcd_->finish(cycles);
  if (signals_ && signals_->late_changes())
    diag.warning(std::to_string(signals_->late_changes()) +
                 " signal change(s) reached the timeline/waves after their cycle was written (the model "
                 "broke the observer timing contract); they are shown late");
}

std::vector<std::string> Inspection::files() const {
  const fs::path dir(options_.out_dir);
  std::vector<std::string> out;
  if (options_.instr_log) out.push_back((dir / "instr.csv").string());
  if (options_.timeline) out.push_back((dir / "timeline.json").string());
  if (options_.vcd) out.push_back((dir / "waves.vcd").string());
  return out;
}

}  // namespace aicore::session
