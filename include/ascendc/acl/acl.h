// The acl runtime subset that Ascend C sample host programs use (docs/ascendc.md, "The acl
// subset"), written from the public acl API reference: the types, enumerators and return codes
// keep their documented names and values. Device memory is the simulator's GM (the front end's
// GmAlloc buffers); a `kernel<<<blockDim, l2ctrl, stream>>>(args)` launch runs and simulates the
// kernel at once, so streams only have to exist and synchronising them does nothing more.
// Every call returns ACL_SUCCESS or a documented error code; on an error it also prints
// "FILE:LINE: error: aclXxx: ..." (the caller's line) to stderr and keeps the message for
// aclGetRecentErrMsg. A call outside the subset does not compile: those the samples are known to
// use are declared and fail with a message naming them.
#pragma once
#include <cstddef>
#include <cstdint>

#include "aicore/frontend/asc_launch.hpp"
#include "aicore/frontend/call_site.hpp"

typedef int aclError;
typedef void* aclrtStream;
typedef void* aclrtContext;

// Return codes (acl's aclError table).
static const int ACL_SUCCESS = 0;
static const int ACL_ERROR_NONE = 0;
static const int ACL_ERROR_INVALID_PARAM = 100000;
static const int ACL_ERROR_UNINITIALIZE = 100001;
static const int ACL_ERROR_REPEAT_INITIALIZE = 100002;
static const int ACL_ERROR_BAD_ALLOC = 200000;
static const int ACL_ERROR_RT_PARAM_INVALID = 107000;
static const int ACL_ERROR_RT_INVALID_DEVICEID = 107001;
static const int ACL_ERROR_RT_CONTEXT_NULL = 107002;

typedef enum aclrtMemcpyKind {
  ACL_MEMCPY_HOST_TO_HOST,
  ACL_MEMCPY_HOST_TO_DEVICE,
  ACL_MEMCPY_DEVICE_TO_HOST,
  ACL_MEMCPY_DEVICE_TO_DEVICE,
  ACL_MEMCPY_DEFAULT,
} aclrtMemcpyKind;

typedef enum aclrtMemMallocPolicy {
  ACL_MEM_MALLOC_HUGE_FIRST,
  ACL_MEM_MALLOC_HUGE_ONLY,
  ACL_MEM_MALLOC_NORMAL_ONLY,
  ACL_MEM_MALLOC_HUGE_FIRST_P2P,
  ACL_MEM_MALLOC_HUGE_ONLY_P2P,
  ACL_MEM_MALLOC_NORMAL_ONLY_P2P,
  ACL_MEM_TYPE_LOW_BAND_WIDTH = 0x0100,
  ACL_MEM_TYPE_HIGH_BAND_WIDTH = 0x1000,
} aclrtMemMallocPolicy;

namespace aicore::frontend::acl {
using Site = ::aicore::frontend::CallSite;
aclError init(const char* config, Site s);
aclError finalize(Site s);
aclError set_device(int32_t device, Site s);
aclError reset_device(int32_t device, Site s);
aclError get_device_count(uint32_t* count, Site s);
aclError create_context(aclrtContext* context, int32_t device, Site s);
aclError destroy_context(aclrtContext context, Site s);
aclError create_stream(aclrtStream* stream, Site s);
aclError destroy_stream(aclrtStream stream, Site s);
aclError synchronize_stream(aclrtStream stream, Site s);
aclError synchronize_device(Site s);
aclError malloc_device(void** p, size_t size, int policy, Site s);
aclError free_device(void* p, Site s);
aclError malloc_host(void** p, size_t size, Site s);
aclError free_host(void* p, Site s);
aclError memcpy_(void* dst, size_t dest_max, const void* src, size_t count, aclrtMemcpyKind kind,
                 const char* api, Site s);
aclError memset_(void* p, size_t max, int32_t value, size_t count, Site s);
aclError check_stream(aclrtStream stream, const char* api, Site s);
const char* recent_error();
template <class T>
struct unsupported {
  static constexpr bool value = false;
};
}  // namespace aicore::frontend::acl

#define AICORE_ACL_SITE ::aicore::frontend::CallSite site = ::aicore::frontend::CallSite::here()

inline aclError aclInit(const char* configPath, AICORE_ACL_SITE) {
  return ::aicore::frontend::acl::init(configPath, site);
}
inline aclError aclFinalize(AICORE_ACL_SITE) {
  return ::aicore::frontend::acl::finalize(site);
}
inline aclError aclrtSetDevice(int32_t deviceId, AICORE_ACL_SITE) {
  return ::aicore::frontend::acl::set_device(deviceId, site);
}
inline aclError aclrtResetDevice(int32_t deviceId, AICORE_ACL_SITE) {
  return ::aicore::frontend::acl::reset_device(deviceId, site);
}
inline aclError aclrtGetDeviceCount(uint32_t* count, AICORE_ACL_SITE) {
  return ::aicore::frontend::acl::get_device_count(count, site);
}
inline aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId, AICORE_ACL_SITE) {
  return ::aicore::frontend::acl::create_context(context, deviceId, site);
}
inline aclError aclrtDestroyContext(aclrtContext context, AICORE_ACL_SITE) {
  return ::aicore::frontend::acl::destroy_context(context, site);
}
inline aclError aclrtCreateStream(aclrtStream* stream, AICORE_ACL_SITE) {
  return ::aicore::frontend::acl::create_stream(stream, site);
}
inline aclError aclrtDestroyStream(aclrtStream stream, AICORE_ACL_SITE) {
  return ::aicore::frontend::acl::destroy_stream(stream, site);
}
inline aclError aclrtSynchronizeStream(aclrtStream stream, AICORE_ACL_SITE) {
  return ::aicore::frontend::acl::synchronize_stream(stream, site);
}
inline aclError aclrtSynchronizeDevice(AICORE_ACL_SITE) {
  return ::aicore::frontend::acl::synchronize_device(site);
}
inline aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy, AICORE_ACL_SITE) {
  return ::aicore::frontend::acl::malloc_device(devPtr, size, static_cast<int>(policy), site);
}
inline aclError aclrtFree(void* devPtr, AICORE_ACL_SITE) {
  return ::aicore::frontend::acl::free_device(devPtr, site);
}
inline aclError aclrtMallocHost(void** hostPtr, size_t size, AICORE_ACL_SITE) {
  return ::aicore::frontend::acl::malloc_host(hostPtr, size, site);
}
inline aclError aclrtFreeHost(void* hostPtr, AICORE_ACL_SITE) {
  return ::aicore::frontend::acl::free_host(hostPtr, site);
}
inline aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind,
                            AICORE_ACL_SITE) {
  return ::aicore::frontend::acl::memcpy_(dst, destMax, src, count, kind, "aclrtMemcpy", site);
}
// Synchronous here: the copy is done when it returns (the stream must exist).
inline aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count,
                                 aclrtMemcpyKind kind, aclrtStream stream, AICORE_ACL_SITE) {
  if (const aclError e = ::aicore::frontend::acl::check_stream(stream, "aclrtMemcpyAsync", site)) return e;
  return ::aicore::frontend::acl::memcpy_(dst, destMax, src, count, kind, "aclrtMemcpyAsync", site);
}
inline aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count, AICORE_ACL_SITE) {
  return ::aicore::frontend::acl::memset_(devPtr, maxCount, value, count, site);
}
inline const char* aclGetRecentErrMsg() {
  return ::aicore::frontend::acl::recent_error();
}
#undef AICORE_ACL_SITE

// Calls the samples make that are outside the subset: a compile error naming the call.
#define AICORE_ACL_UNSUPPORTED(name, why)                                                                  \
  template <class... A>                                                                                    \
  aclError name(A...) {                                                                                    \
    static_assert(::aicore::frontend::acl::unsupported<void(A...)>::value,                                 \
                  #name " is not in aicore-sim's acl subset (docs/ascendc.md, \"The acl subset\"): " why); \
    return ACL_ERROR_INVALID_PARAM;                                                                        \
  }
AICORE_ACL_UNSUPPORTED(aclrtCreateEvent, "events are not modelled; launches are synchronous")
AICORE_ACL_UNSUPPORTED(aclrtCreateEventExWithFlag, "events are not modelled; launches are synchronous")
AICORE_ACL_UNSUPPORTED(aclrtRecordEvent, "events are not modelled; launches are synchronous")
AICORE_ACL_UNSUPPORTED(aclrtStreamWaitEvent, "events are not modelled; launches are synchronous")
AICORE_ACL_UNSUPPORTED(aclrtSynchronizeEvent, "events are not modelled; launches are synchronous")
AICORE_ACL_UNSUPPORTED(aclrtDestroyEvent, "events are not modelled; launches are synchronous")
AICORE_ACL_UNSUPPORTED(aclrtEventElapsedTime, "use the simulation's cycles (stats.json) instead")
AICORE_ACL_UNSUPPORTED(aclrtGetDeviceInfo, "the SoC is the simulator's config (aicore-sim config show)")
AICORE_ACL_UNSUPPORTED(aclrtGetLastError, "errors are returned by each call and printed at its line")
AICORE_ACL_UNSUPPORTED(aclrtSetCurrentContext, "one device and one implicit context")
AICORE_ACL_UNSUPPORTED(aclrtLaunchKernel, "launch with kernel<<<blockDim, l2ctrl, stream>>>(args)")
#undef AICORE_ACL_UNSUPPORTED
