// The acl runtime subset (include/ascendc/acl/acl.h) and the `<<<>>>` launch (asc_launch.hpp).
// Device memory is GM: aclrtMalloc is gm_alloc, so a device pointer passed to a kernel is a GM
// tensor of its launches. The runtime's state is one device (id 0), one implicit context, and the
// streams aclrtCreateStream made.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <set>
#include <string>

#include "acl/acl.h"
#include "aicore/frontend/launch.hpp"
#include "state.hpp"

namespace aicore::frontend {

namespace {

struct AclState {
  bool initialized = false;
  bool finalized = false;
  bool device = false;
  std::set<const void*> streams, contexts, host;
  std::string recent;
  int next_handle = 0;
};
AclState& st() {
  static AclState s;
  return s;
}

aclError error(CallSite site, const char* api, aclError code, const std::string& message) {
  std::string text = std::string(site.file) + ":" + std::to_string(site.line) + ": error: " + api + ": " +
                     message + " (returns " + std::to_string(code) + ")";
  std::fflush(stdout);
  std::cerr << text << std::endl;
  st().recent = text;
  return code;
}

// aclInit first (ACL_ERROR_UNINITIALIZE), and a device for what needs one.
aclError need(CallSite site, const char* api, bool device) {
  if (!st().initialized)
    return error(site, api, ACL_ERROR_UNINITIALIZE,
                 st().finalized ? "called after aclFinalize" : "called before aclInit");
  if (device && !st().device)
    return error(site, api, ACL_ERROR_RT_CONTEXT_NULL, "no device is set (call aclrtSetDevice(0) first)");
  return ACL_SUCCESS;
}

// A handle for a stream or a context: a distinct non-null address.
void* new_handle() {
  return reinterpret_cast<void*>(static_cast<uintptr_t>(0x5100000 + 64 * ++st().next_handle));
}

}  // namespace

namespace acl {

using Site = CallSite;

aclError init(const char*, Site s) {
  set_asc_program();
  if (st().initialized) return error(s, "aclInit", ACL_ERROR_REPEAT_INITIALIZE, "aclInit was called already");
  st().initialized = true;
  return ACL_SUCCESS;
}
aclError finalize(Site s) {
  if (const aclError e = need(s, "aclFinalize", false)) return e;
  st().initialized = false;
  st().finalized = true;
  return ACL_SUCCESS;
}
aclError set_device(int32_t device, Site s) {
  if (const aclError e = need(s, "aclrtSetDevice", false)) return e;
  if (device != 0)
    return error(s, "aclrtSetDevice", ACL_ERROR_RT_INVALID_DEVICEID,
                 "device " + std::to_string(device) + " does not exist: aicore-sim simulates one device, 0");
  st().device = true;
  return ACL_SUCCESS;
}
aclError reset_device(int32_t device, Site s) {
  if (const aclError e = need(s, "aclrtResetDevice", false)) return e;
  if (device != 0)
    return error(s, "aclrtResetDevice", ACL_ERROR_RT_INVALID_DEVICEID,
                 "device " + std::to_string(device) + " does not exist: aicore-sim simulates one device, 0");
  st().device = false;
  return ACL_SUCCESS;
}
aclError get_device_count(uint32_t* count, Site s) {
  if (const aclError e = need(s, "aclrtGetDeviceCount", false)) return e;
  if (!count) return error(s, "aclrtGetDeviceCount", ACL_ERROR_INVALID_PARAM, "count is null");
  *count = 1;
  return ACL_SUCCESS;
}
aclError create_context(aclrtContext* context, int32_t device, Site s) {
  if (const aclError e = need(s, "aclrtCreateContext", false)) return e;
  if (!context) return error(s, "aclrtCreateContext", ACL_ERROR_INVALID_PARAM, "context is null");
  if (device != 0)
    return error(s, "aclrtCreateContext", ACL_ERROR_RT_INVALID_DEVICEID,
                 "device " + std::to_string(device) + " does not exist: aicore-sim simulates one device, 0");
  st().device = true;  // creating a context makes its device the current one
  *context = new_handle();
  st().contexts.insert(*context);
  return ACL_SUCCESS;
}
aclError destroy_context(aclrtContext context, Site s) {
  if (const aclError e = need(s, "aclrtDestroyContext", false)) return e;
  if (!st().contexts.erase(context))
    return error(s, "aclrtDestroyContext", ACL_ERROR_INVALID_PARAM,
                 "not a context aclrtCreateContext made (or destroyed already)");
  return ACL_SUCCESS;
}
aclError create_stream(aclrtStream* stream, Site s) {
  if (const aclError e = need(s, "aclrtCreateStream", true)) return e;
  if (!stream) return error(s, "aclrtCreateStream", ACL_ERROR_INVALID_PARAM, "stream is null");
  *stream = new_handle();
  st().streams.insert(*stream);
  return ACL_SUCCESS;
}
aclError check_stream(aclrtStream stream, const char* api, Site s) {
  if (const aclError e = need(s, api, true)) return e;
  if (stream && !st().streams.count(stream))
    return error(s, api, ACL_ERROR_INVALID_PARAM,
                 "not a stream aclrtCreateStream made (or destroyed already)");
  return ACL_SUCCESS;
}
aclError destroy_stream(aclrtStream stream, Site s) {
  if (const aclError e = need(s, "aclrtDestroyStream", true)) return e;
  if (!stream || !st().streams.erase(stream))
    return error(s, "aclrtDestroyStream", ACL_ERROR_INVALID_PARAM,
                 "not a stream aclrtCreateStream made (or destroyed already)");
  return ACL_SUCCESS;
}
aclError synchronize_stream(aclrtStream stream, Site s) {
  return check_stream(stream, "aclrtSynchronizeStream", s);  // launches finish before they return
}
aclError synchronize_device(Site s) {
  return need(s, "aclrtSynchronizeDevice", true);
}
aclError malloc_device(void** p, size_t size, int policy, Site s) {
  if (const aclError e = need(s, "aclrtMalloc", true)) return e;
  if (!p) return error(s, "aclrtMalloc", ACL_ERROR_INVALID_PARAM, "devPtr is null");
  if (size == 0) return error(s, "aclrtMalloc", ACL_ERROR_INVALID_PARAM, "size is 0");
  const int base = policy & 0xff;
  if (base > ACL_MEM_MALLOC_NORMAL_ONLY_P2P || (policy & ~0x11ff) != 0)
    return error(s, "aclrtMalloc", ACL_ERROR_INVALID_PARAM,
                 "policy " + std::to_string(policy) + " is not an aclrtMemMallocPolicy");
  *p = gm_alloc(size, s);
  return ACL_SUCCESS;
}
aclError free_device(void* p, Site s) {
  if (const aclError e = need(s, "aclrtFree", true)) return e;
  if (!p || !gm_registry().by_address.count(reinterpret_cast<uintptr_t>(p)))
    return error(s, "aclrtFree", ACL_ERROR_INVALID_PARAM,
                 "the pointer was not returned by aclrtMalloc (or was freed already)");
  gm_free(p, s);
  return ACL_SUCCESS;
}
aclError malloc_host(void** p, size_t size, Site s) {
  if (const aclError e = need(s, "aclrtMallocHost", true)) return e;
  if (!p) return error(s, "aclrtMallocHost", ACL_ERROR_INVALID_PARAM, "hostPtr is null");
  if (size == 0) return error(s, "aclrtMallocHost", ACL_ERROR_INVALID_PARAM, "size is 0");
  *p = std::calloc(size, 1);
  if (!*p)
    return error(s, "aclrtMallocHost", ACL_ERROR_BAD_ALLOC,
                 "cannot allocate " + std::to_string(size) + " bytes");
  st().host.insert(*p);
  return ACL_SUCCESS;
}
aclError free_host(void* p, Site s) {
  if (const aclError e = need(s, "aclrtFreeHost", true)) return e;
  if (!p || !st().host.erase(p))
    return error(s, "aclrtFreeHost", ACL_ERROR_INVALID_PARAM,
                 "the pointer was not returned by aclrtMallocHost (or was freed already)");
  std::free(p);
  return ACL_SUCCESS;
}

namespace {
// Whether [p, p + n) lies in one device (GM) buffer.
bool on_device(const void* p, size_t n) {
  const GmRegistry& g = gm_registry();
  const int64_t r = g.find(p);
  if (r < 0) return false;
  const uint64_t off = static_cast<const uint8_t*>(p) - g.regions[r].data;
  return off + n <= g.regions[r].bytes;
}
}  // namespace

aclError memcpy_(void* dst, size_t dest_max, const void* src, size_t count, aclrtMemcpyKind kind,
                 const char* api, Site s) {
  if (const aclError e = need(s, api, true)) return e;
  if (!dst || !src)
    return error(s, api, ACL_ERROR_INVALID_PARAM, std::string(dst ? "src" : "dst") + " is null");
  if (count > dest_max)
    return error(s, api, ACL_ERROR_INVALID_PARAM,
                 "count " + std::to_string(count) + " is larger than destMax " + std::to_string(dest_max));
  const bool dst_dev = on_device(dst, count), src_dev = on_device(src, count);
  const bool want_dst = kind == ACL_MEMCPY_HOST_TO_DEVICE || kind == ACL_MEMCPY_DEVICE_TO_DEVICE;
  const bool want_src = kind == ACL_MEMCPY_DEVICE_TO_HOST || kind == ACL_MEMCPY_DEVICE_TO_DEVICE;
  if (kind < ACL_MEMCPY_HOST_TO_HOST || kind > ACL_MEMCPY_DEFAULT)
    return error(s, api, ACL_ERROR_INVALID_PARAM,
                 "kind " + std::to_string(kind) + " is not an aclrtMemcpyKind");
  if (kind != ACL_MEMCPY_DEFAULT) {
    static const char* kNames[] = {"ACL_MEMCPY_HOST_TO_HOST", "ACL_MEMCPY_HOST_TO_DEVICE",
                                   "ACL_MEMCPY_DEVICE_TO_HOST", "ACL_MEMCPY_DEVICE_TO_DEVICE"};
    if (want_dst != dst_dev)
      return error(s, api, ACL_ERROR_INVALID_PARAM,
                   std::string(kNames[kind]) + ": dst is " +
                       (dst_dev ? "device memory"
                                : "not " + std::to_string(count) + " bytes of one aclrtMalloc buffer"));
    if (want_src != src_dev)
      return error(s, api, ACL_ERROR_INVALID_PARAM,
                   std::string(kNames[kind]) + ": src is " +
                       (src_dev ? "device memory"
                                : "not " + std::to_string(count) + " bytes of one aclrtMalloc buffer"));
  }
  if (current_launch()) return error(s, api, ACL_ERROR_INVALID_PARAM, "called while a kernel runs");
  std::memmove(dst, src, count);
  return ACL_SUCCESS;
}
aclError memset_(void* p, size_t max, int32_t value, size_t count, Site s) {
  if (const aclError e = need(s, "aclrtMemset", true)) return e;
  if (!p) return error(s, "aclrtMemset", ACL_ERROR_INVALID_PARAM, "devPtr is null");
  if (count > max)
    return error(s, "aclrtMemset", ACL_ERROR_INVALID_PARAM,
                 "count " + std::to_string(count) + " is larger than maxCount " + std::to_string(max));
  std::memset(p, value, count);
  return ACL_SUCCESS;
}
const char* recent_error() {
  return st().recent.c_str();
}

}  // namespace acl

void asc_launch(const char* kernel, uint64_t blocks, const void* stream, const std::function<void()>& body,
                const std::vector<const void*>& args, const char* arg_text, CallSite site) {
  set_asc_program();
  const std::string at = std::string(site.file) + ":" + std::to_string(site.line) + ": error: <<<>>>: ";
  if (stream && !st().streams.count(stream)) {
    std::fflush(stdout);
    std::cerr << at << "the stream of kernel " << kernel
              << "'s launch is not one aclrtCreateStream made (or it was destroyed)" << std::endl;
    std::exit(2);
  }
  if (blocks > UINT32_MAX) {
    std::fflush(stdout);
    std::cerr << at << "blockDim " << blocks << " is out of range" << std::endl;
    std::exit(2);
  }
  launch(kernel, static_cast<uint32_t>(blocks), body, args, arg_text, site, "<<<>>>");
}

void asc_null_kernel(const char* kernel, CallSite site) {
  std::fflush(stdout);
  std::cerr << site.file << ":" << site.line << ": error: <<<>>>: " << kernel
            << " is a null kernel pointer (point it at a kernel function before the launch)" << std::endl;
  std::exit(2);
}

}  // namespace aicore::frontend
