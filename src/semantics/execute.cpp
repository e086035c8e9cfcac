#include "aicore/semantics/execute.hpp"

namespace aicore::sem {

namespace {
struct Exec {
  const MemoryView& mem;
  void operator()(const isa::DataCopy& o) const { data_copy(o, mem); }
  void operator()(const isa::DataCopyNd2Nz& o) const { data_copy_nd2nz(o, mem); }
  void operator()(const isa::DataCopyL1ToBT& o) const { data_copy_l1_to_bt(o, mem); }
  void operator()(const isa::LoadData& o) const { load_data(o, mem); }
  void operator()(const isa::LoadDataWithSparse& o) const { load_data_with_sparse(o, mem); }
  void operator()(const isa::LoadData3DV2& o) const { load_data_3dv2(o, mem); }
  void operator()(const isa::LoadDataWithTranspose& o) const { load_data_with_transpose(o, mem); }
  void operator()(const isa::Mmad& o) const { mmad(o, mem); }
  void operator()(const isa::MmadWithSparse& o) const { mmad_with_sparse(o, mem); }
  void operator()(const isa::Fixpipe& o) const { fixpipe(o, mem); }
  void operator()(const isa::SetFlag& o) const { isa::check_fields(o); }
  void operator()(const isa::WaitFlag& o) const { isa::check_fields(o); }
  void operator()(const isa::PipeBarrier&) const {}
  void operator()(const isa::SyncAll&) const {}
  void operator()(const isa::SetAtomicAdd&) const {}
  void operator()(const isa::SetAtomicNone&) const {}
};
}  // namespace

void execute(const isa::Op& op, const MemoryView& mem) {
  std::visit(Exec{mem}, op);
}

}  // namespace aicore::sem
