// GM for kernels run on the host: GmAlloc'd buffers, and host addresses turned into GM operands.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

#include "aicore/frontend/launch.hpp"
#include "aicore/frontend/runtime.hpp"
#include "state.hpp"

namespace aicore::frontend {

namespace {
// GM buffers start on a 512-byte boundary (as device allocations do), so alignment rules that hold
// for offsets inside a tensor hold for host addresses too.
constexpr size_t kGmAlign = 512;
// The device's memory page (state.hpp, GmRegion::readable).
constexpr size_t kDevicePage = size_t{2} << 20;
}  // namespace

GmRegistry& gm_registry() {
  static GmRegistry r;
  return r;
}

GmRegistry::~GmRegistry() {
  for (const auto& [address, id] : by_address) std::free(regions[id].data);
}

int64_t GmRegistry::find(const void* p) const {
  const auto a = reinterpret_cast<uintptr_t>(p);
  auto it = by_address.upper_bound(a);
  if (it == by_address.begin()) return -1;
  --it;
  const GmRegion& r = regions[it->second];
  return a - it->first < r.bytes || (r.bytes == 0 && a == it->first) ? static_cast<int64_t>(it->second) : -1;
}

void* gm_alloc(size_t bytes, CallSite site) {
  const size_t readable = (std::max<size_t>(bytes, 1) + kDevicePage - 1) / kDevicePage * kDevicePage;
  void* p = std::aligned_alloc(kGmAlign, readable);
  if (!p) fail(site, "GmAlloc", "cannot allocate " + std::to_string(bytes) + " bytes of host memory");
  std::memset(p, 0, readable);
  GmRegistry& g = gm_registry();
  g.by_address[reinterpret_cast<uintptr_t>(p)] = static_cast<uint32_t>(g.regions.size());
  g.regions.push_back(GmRegion{static_cast<uint8_t*>(p), bytes, true, readable, bytes});
  return p;
}

void gm_free(void* p, CallSite site) {
  GmRegistry& g = gm_registry();
  const auto it = g.by_address.find(reinterpret_cast<uintptr_t>(p));
  if (!p || it == g.by_address.end())
    fail(site, "GmFree", "the pointer was not returned by GmAlloc (or was freed already)");
  if (current_launch()) fail(site, "GmFree", "called while a kernel runs");
  GmRegion& r = g.regions[it->second];
  std::free(r.data);
  r = GmRegion{};
  g.by_address.erase(it);
}

isa::Addr gm_address(const void* p, CallSite site, const char* api) {
  const GmRegistry& g = gm_registry();
  const int64_t id = g.find(p);
  if (id < 0)
    fail(site, api,
         "the GlobalTensor's address is not inside a GmAlloc buffer (every GM tensor must come from "
         "AscendC::GmAlloc)");
  const GmRegion& r = g.regions[id];
  return isa::Addr{isa::Space::GM, static_cast<uint32_t>(id),
                   static_cast<uint64_t>(static_cast<const uint8_t*>(p) - r.data)};
}

}  // namespace aicore::frontend
