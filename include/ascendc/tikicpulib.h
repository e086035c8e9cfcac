// CANN's CPU-debug header, as CPU-debug main() programs include it: GmAlloc, GmFree, SetKernelMode
// and ICPU_RUN_KF, here driving aicore-sim (see kernel_operator.h).
#pragma once

#include "kernel_operator.h"
