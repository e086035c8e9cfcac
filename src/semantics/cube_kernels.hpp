// Internal interface between cube.cpp (dispatch, validation, portable kernels) and the
// native x86 AVX-512 kernels in cube_avx512.cpp. Operands are already validated.
#pragma once
#include "aicore/isa/instructions.hpp"
#include "aicore/semantics/memory.hpp"

namespace aicore::sem::detail {

bool avx512_vnni_supported();
bool avx512_vbmi_supported();
// Dense int8 Mmad, outer-product form straight from L0A into L0C.
void mmad_i8_avx512(const isa::Mmad& op, const MemoryView& mem);
// MmadWithSparse in the compressed domain (K/2 MACs per output). Returns false, having
// written nothing to L0C, when an index value 3 is present: the caller reports the fault.
bool mmad_sparse_avx512(const isa::MmadWithSparse& op, const MemoryView& mem);

}  // namespace aicore::sem::detail
