// Prototype Cube kernels, kept in bench/ to measure candidate speed-ups for
// src/semantics/cube.cpp before anyone changes it. Same contract as sem::mmad /
// sem::mmad_with_sparse (bit-exact L0C), but int8 only and no fault messages beyond isa::check.
#pragma once
#include "aicore/isa/instructions.hpp"
#include "aicore/semantics/memory.hpp"

namespace bench::proto {

// Step 1: today's int16 unpacking, but the GEMM computes a 4 x 4 block of outputs per pass
// over K, so each loaded A/B vector feeds 4 multiply-adds instead of 1 (load-bound -> compute-bound).
void mmad_i16_blocked(const aicore::isa::Mmad& op, const aicore::sem::MemoryView& mem);
void sparse_i16_blocked(const aicore::isa::MmadWithSparse& op, const aicore::sem::MemoryView& mem);

// Step 2: keep operands int8 and let GCC emit vpdpbusd (u8 x s8, 4 MACs per 32-bit lane, twice
// pmaddwd's 2): A is biased to unsigned (a + 128) and 128 * column-sum(B) is subtracted after.
// Sparse falls back to step 1 when two B' values select the same A element (their sum may not
// fit int8; 4:2 densify never produces it).
void mmad_u8s8_blocked(const aicore::isa::Mmad& op, const aicore::sem::MemoryView& mem);
void sparse_u8s8_blocked(const aicore::isa::MmadWithSparse& op, const aicore::sem::MemoryView& mem);

}  // namespace bench::proto
