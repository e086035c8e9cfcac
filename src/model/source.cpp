#include "aicore/model/source.hpp"

#include "aicore/isa/descriptors.hpp"

namespace aicore::model {

void remap_gm(isa::Op& op, const std::vector<uint32_t>& chip_id_of) {
  isa::for_each_operand(op, [&](const isa::FieldFacts&, isa::Addr& a) {
    if (a.space == isa::Space::GM) a.tensor = chip_id_of.at(a.tensor);
  });
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
