// What the Ascend C compiler (bisheng) supplies to a kernel before any header: the address-space
// and kernel qualifiers, GM_ADDR, the pipe and event-id enumerators, QuantMode_t, the macros of an
// AIC (Cube) compile for NPU arch 2201, and the kernel-type hint. In a g++ build the qualifiers
// are empty, as in CANN's CPU-debug mode: a kernel's functions that differ only in a qualifier
// therefore collide here too.
#pragma once
#include <cstdint>

#include "aicore/frontend/installed_prefix.hpp"

#ifndef __NPU_ARCH__
#define __NPU_ARCH__ 2201
#endif
#if __NPU_ARCH__ != 2201
#error \
    "aicore-sim's kernel_operator.h models NPU arch 2201 (Atlas A2/A3) only: build without -D__NPU_ARCH__ or with 2201"
#endif
// An AIC (Cube core) compile of arch 2201.
#define __DAV_C220__ 1
#define __DAV_C220_CUBE__ 1
#define __DAV_CUBE__ 1
// Kernels built by aicore-sim run on the host, like CANN's CPU-debug build.
#ifndef ASCENDC_CPU_DEBUG
#define ASCENDC_CPU_DEBUG 1
#endif

// Kernel and address-space qualifiers: meaningless on the host.
#define __aicore__
#define __global__
#define __cube__
#define __vector__
#define __mix__(...)
#define __gm__
#define __cbuf__
#define __ubuf__
#define __ca__
#define __cb__
#define __cc__
#define __fbuf__
#define __biasbuf__
#define __inout_pipe__(...)
#define __in_pipe__(...)
#define __out_pipe__(...)
#define __sync_alias__
#define __sync_noalias__

#define GM_ADDR __gm__ uint8_t*

// A Cube-only build: the AIC branch is taken, the AIV branch is discarded.
#define ASCEND_IS_AIC constexpr(true)
#define ASCEND_IS_AIV constexpr(false)

// Pipes, with the numbers CANN's tooling gives them.
enum pipe_t : uint8_t {
  PIPE_S = 1,
  PIPE_V = 2,
  PIPE_M = 3,
  PIPE_MTE1 = 4,
  PIPE_MTE2 = 5,
  PIPE_MTE3 = 6,
  PIPE_ALL = 10,
  PIPE_FIX = 11,
};

// Event ids of SetFlag/WaitFlag.
enum event_t : uint8_t {
  EVENT_ID0,
  EVENT_ID1,
  EVENT_ID2,
  EVENT_ID3,
  EVENT_ID4,
  EVENT_ID5,
  EVENT_ID6,
  EVENT_ID7
};

// Fixpipe's conversion on the way out of L0C (arch 2201 values). Unscoped and global, as kernels
// write QuantMode_t::F322F16.
enum QuantMode_t : uint8_t {
  NoQuant,
  F322F16,
  F322BF16,
  DEQF16,
  VDEQF16,
  QF322B8_PRE,
  VQF322B8_PRE,
  REQ8,
  VREQ8,
};

// The kernel-type hint: Cube-only kernels are what this front end runs; the other types need the
// Vector cores and are refused when the kernel starts.
enum KernelMetaType : uint8_t {
  KERNEL_TYPE_AIV_ONLY,
  KERNEL_TYPE_AIC_ONLY,
  KERNEL_TYPE_MIX_AIV_1_0,
  KERNEL_TYPE_MIX_AIC_1_0,
  KERNEL_TYPE_MIX_AIC_1_1,
  KERNEL_TYPE_MIX_AIC_1_2,
};
