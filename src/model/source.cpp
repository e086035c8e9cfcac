#include "aicore/model/source.hpp"

namespace aicore::model {

namespace {
struct Remap {
  const std::vector<uint32_t>& ids;
  void fix(isa::Addr& a) const {
    if (a.space == isa::Space::GM) a.tensor = ids.at(a.tensor);
  }
  void operator()(isa::DataCopy& o) const { fix(o.src); }
  void operator()(isa::DataCopyNd2Nz& o) const { fix(o.src); }
  void operator()(isa::Fixpipe& o) const { fix(o.dst); }
  template <class T>
  void operator()(T&) const {}  // no GM operand
};
}  // namespace

void remap_gm(isa::Op& op, const std::vector<uint32_t>& chip_id_of) {
  std::visit(Remap{chip_id_of}, op);
}

ProgramSource::ProgramSource(std::vector<TensorDecl> tensors, std::vector<isa::Instruction> program)
    : tensors_(std::move(tensors)), program_(std::move(program)) {}

bool ProgramSource::next(isa::Instruction& out, TensorRegistry& gm) {
  if (!declared_) {
    declared_ = true;
    for (const TensorDecl& d : tensors_) chip_ids_.push_back(gm.declare(d));
  }
  if (pos_ >= program_.size()) return false;
  out = program_[pos_];
  out.index = pos_++;
  remap_gm(out.op, chip_ids_);
  return true;
}

}  // namespace aicore::model
