// Where the checker's reports collect: one report per key (kind, hazard, buffer, the two lines),
// later instances merged into it (bytes, ranges, repeat count); at most max_reports kept, the
// rest counted. Also matches reports with the cycles their instructions ran, which arrive on
// their own schedule (executed()).
// The cap must not depend on how the cores' instruction streams interleave (the model hands each
// core's over as it issues, in no order across cores): while running, each core (and the
// cross-core comparison) keeps its own first max_reports, which its own program order decides;
// finish() then keeps the first max_reports of all in report order and counts the others.
#pragma once
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "aicore/check/options.hpp"
#include "aicore/check/report.hpp"
#include "refs.hpp"

namespace aicore::check {

struct ReportKey {
  ReportKind kind = ReportKind::DataRace;
  uint8_t hazard = 0;  // 0 none, 1 RAW, 2 WAR, 3 WAW
  isa::Space space = isa::Space::GM;
  uint32_t tensor = 0;
  uint16_t core_a = 0, core_b = 0;
  FileId file_a = 0, file_b = 0;
  uint32_t line_a = 0, line_b = 0;
  uint64_t index_a = 0, index_b = 0;  // disambiguates instructions without lines (programmatic sources)
  bool operator==(const ReportKey& o) const;
};
// The key of a report about instructions a (of core_a; none for one-instruction reports) and b.
// Lines identify them, so repeats of a source line merge; instruction indexes stand in for
// lines only where a source has none.
ReportKey key_of(ReportKind kind, uint16_t core_a, const AccessRef& a, uint16_t core_b, const AccessRef& b,
                 isa::Space space = isa::Space::GM, uint32_t tensor = 0, uint8_t hazard = 0);

struct ReportKeyHash {
  size_t operator()(const ReportKey& k) const;
};

class ReportBook {
 public:
  explicit ReportBook(const CheckOptions& o) : max_(o.max_reports) {}

  struct Slot {
    Report* report = nullptr;  // null: past the cap, only counted
    uint32_t id = 0;
    bool fresh = false;  // a new report: the caller fills it in
  };
  Slot find(const ReportKey& key, Severity severity);
  Report& at(uint32_t id) { return reports_[id]; }
  // One more piece [lo, hi) of bytes for report `id`, from the instruction pair (a, b) and the
  // given hazard kind. One pair racing in two ways (RAW and WAW) counts the bytes of the first.
  void add_range(uint32_t id, uint64_t a, uint64_t b, uint64_t lo, uint64_t hi, uint8_t hazard = 0);

  // Report `id` wants the cycles of instruction (core, index) as its first or second one.
  void want_cycles(uint32_t id, bool second, uint16_t core, uint64_t index);
  void executed(uint16_t core, uint64_t index, uint64_t start, uint64_t end);

  // Withdraws the report with this key, if one was kept (an "unneeded synchronisation" lint of a
  // line that another instance showed to be needed). Before finish().
  void withdraw(const ReportKey& key);

  // Sorts the reports (errors first, then by position) and totals them. Once.
  void finish(bool complete);
  const std::vector<Report>& reports() const { return reports_; }
  const Summary& summary() const { return summary_; }

 private:
  struct Track {
    uint64_t a = UINT64_MAX, b = UINT64_MAX;  // the instance last merged
    uint64_t last_hi = UINT64_MAX;            // end of the last piece (contiguous pieces are one range)
    bool first_open = true;                   // the first range still grows
    uint8_t hazard = 0;                       // of the instance's first piece
  };
  struct Cycles {
    uint64_t index = UINT64_MAX, start = 0, end = 0;
  };
  struct Want {
    uint32_t id;
    bool second;
  };
  void fill(uint32_t id, bool second, uint64_t start, uint64_t end);

  uint32_t max_;
  std::vector<uint32_t> stored_;  // reports kept so far: [0] cross-core ones, [c + 1] core c's
  std::vector<Report> reports_;
  std::vector<Track> tracks_;
  std::vector<uint32_t> withdrawn_;  // ids
  std::unordered_map<ReportKey, uint32_t, ReportKeyHash> ids_;
  uint64_t unstored_errors_ = 0, unstored_warnings_ = 0;
  // The cycles of recent instructions per core (a ring indexed by instruction index), and the
  // instructions reports still wait for.
  std::vector<std::vector<Cycles>> recent_;
  std::unordered_map<uint64_t, std::vector<Want>> wanted_;
  Summary summary_;
};

}  // namespace aicore::check
