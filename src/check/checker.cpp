#include "aicore/check/checker.hpp"

#include <stdexcept>

#include "core.hpp"
#include "cross_core.hpp"

namespace aicore::check {

struct Checker::Impl {
  explicit Impl(const CheckOptions& o) : options(o), book(options) {
    if (options.cores == 0) throw std::invalid_argument("check::CheckOptions::cores must be at least 1");
    if (options.cores > 1) cross = std::make_unique<CrossCore>(options.cores, book);
    for (uint16_t c = 0; c < options.cores; ++c)
      cores.push_back(std::make_unique<CoreChecker>(c, options, book, cross.get()));
  }
  CoreChecker& core(isa::CoreId id) {
    if (id.value >= cores.size())
      throw std::out_of_range("check::Checker: core " + std::to_string(id.value) + " of a checker for " +
                              std::to_string(cores.size()) + " core(s)");
    return *cores[id.value];
  }

  CheckOptions options;
  ReportBook book;  // before the cores: they report into it until they are gone
  std::unique_ptr<CrossCore> cross;
  std::vector<std::unique_ptr<CoreChecker>> cores;
  bool finished = false;
};

Checker::Checker(const CheckOptions& options) : impl_(std::make_unique<Impl>(options)) {}
Checker::~Checker() = default;

void Checker::issue(isa::CoreId core, const isa::Instruction& instr) {
  if (!impl_->finished) impl_->core(core).issue(instr);
}

void Checker::executed(isa::CoreId core, uint64_t index, uint64_t start_cycle, uint64_t end_cycle) {
  if (!impl_->finished) impl_->book.executed(core.value, index, start_cycle, end_cycle);
}

void Checker::finish(const RunEnd& end) {
  if (impl_->finished) return;
  bool complete = end.completed;
  for (auto& c : impl_->cores) {
    complete = complete && !c->stuck();
    c->finish(end);
  }
  if (impl_->cross) impl_->cross->finish();
  impl_->book.finish(complete);
  impl_->finished = true;
}

const std::vector<Report>& Checker::reports() const {
  return impl_->book.reports();
}

const Summary& Checker::summary() const {
  return impl_->book.summary();
}

}  // namespace aicore::check
