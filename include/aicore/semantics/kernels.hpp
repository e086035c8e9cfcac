// Which host kernels the Cube semantics use. Native picks the fastest the CPU supports
// (AVX-512 VNNI for int8 Mmad, + VBMI for MmadWithSparse); Portable forces the plain C++
// kernels. Both are bit-exact; tests run every case through both.
#pragma once

namespace aicore::sem {

enum class KernelLevel { Portable, Native };
void set_kernel_level(KernelLevel level);
KernelLevel kernel_level();
// True when the CPU has the instructions of the native int8 (dense, sparse) kernels.
bool native_int8_available();
bool native_sparse_available();

}  // namespace aicore::sem
