// aicore-sim's Ascend C front end: the header Cube kernels include. Written from the documented
// Ascend C interface (docs/ascendc.md lists what is supported); a kernel compiled with g++ against
// it runs on the simulated AI Core: every intrinsic is executed at once, bit-exact, and recorded
// with its source line for the cycle simulation of the launch.
#pragma once

#include "ascendc/detail/compiler_env.hpp"
#include "ascendc/detail/cpu_debug.hpp"
#include "ascendc/detail/dump.hpp"
#include "ascendc/detail/enums.hpp"
#include "ascendc/detail/intrinsics.hpp"
#include "ascendc/detail/params.hpp"
#include "ascendc/detail/pipe.hpp"
#include "ascendc/detail/soft_float.hpp"
#include "ascendc/detail/sync.hpp"
#include "ascendc/detail/system.hpp"
#include "ascendc/detail/tensor.hpp"
#include "ascendc/detail/unsupported.hpp"
#include "ascendc/detail/utils.hpp"
