// Included by Ascend C samples for their CPU-debug build. aicore-sim always builds `.asc` programs
// for the host (ASCENDC_CPU_DEBUG), so it only has to bring the launch support: the kernel header
// and its `<<<>>>` launch (aicore/frontend/asc_launch.hpp).
#pragma once

#include "aicore/frontend/asc_launch.hpp"
#include "kernel_operator.h"
