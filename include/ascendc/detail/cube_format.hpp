// CubeFormat: the data formats of the Matmul API's MatmulType (kernel side) and of the Matmul
// tiling's SetAType/SetBType/SetCType (host side). One definition for both, so that a CPU-debug
// program with the kernel and the host in one file may say `CubeFormat::ND` under
// `using namespace AscendC;` and `using namespace matmul_tiling;` at once.
#pragma once
#include <cstdint>

namespace AscendC {

enum class CubeFormat : int32_t { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR, ROW_MAJOR, COLUMN_MAJOR };

}  // namespace AscendC

using AscendC::CubeFormat;
