// What the hardware computes, instruction by instruction (docs/semantics.md). Every function first
// validates the op against the attached memories (isa::check) and throws aicore::Fault on
// a violation; after that the loops run unchecked. No SystemC, no timing.
#pragma once
#include "aicore/isa/instructions.hpp"
#include "aicore/semantics/memory.hpp"

namespace aicore::sem {

void data_copy(const isa::DataCopy& op, const MemoryView& mem);
void data_copy_nd2nz(const isa::DataCopyNd2Nz& op, const MemoryView& mem);
void data_copy_l1_to_bt(const isa::DataCopyL1ToBT& op, const MemoryView& mem);
void load_data(const isa::LoadData& op, const MemoryView& mem);
void load_data_with_sparse(const isa::LoadDataWithSparse& op, const MemoryView& mem);
void load_data_3dv2(const isa::LoadData3DV2& op, const MemoryView& mem);
void load_data_with_transpose(const isa::LoadDataWithTranspose& op, const MemoryView& mem);
void mmad(const isa::Mmad& op, const MemoryView& mem);
void mmad_with_sparse(const isa::MmadWithSparse& op, const MemoryView& mem);
void fixpipe(const isa::Fixpipe& op, const MemoryView& mem);
// The Fixpipe under SetAtomicAdd: each output element is added to GM (atomic.hpp), in the type
// the Fixpipe writes (isa::output_dtype: float, half or int32; the model checks it first).
void fixpipe_atomic_add(const isa::Fixpipe& op, const MemoryView& mem);

// Dispatch on the op kind; sync ops (SetFlag, WaitFlag, PipeBarrier, SyncAll, the atomic mode) touch no data.
void execute(const isa::Op& op, const MemoryView& mem);

}  // namespace aicore::sem
