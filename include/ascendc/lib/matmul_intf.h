// The Matmul API's kernel header, as the Ascend C samples include it ("lib/matmul_intf.h"):
// matmul::Matmul, MatmulType, the templates' configs and REGIST_MATMUL_OBJ (docs/ascendc.md,
// "Matmul API").
#pragma once

#include "ascendc/detail/matmul.hpp"
#include "ascendc/kernel_tiling/kernel_tiling.h"
#include "kernel_operator.h"
