#include "aicore/model/global_memory.hpp"

#include <unistd.h>
#include <cstring>
#include <new>

namespace aicore::model {

namespace {
// Physical memory of the host in bytes (0 if unknown).
uint64_t host_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(page) : 0;
}
std::string both(const SourceLoc& first, const SourceLoc& second) {
  return " (declared at " + first.str() + " and at " + second.str() + ")";
}
}  // namespace

GlobalMemory::GlobalMemory(uint64_t max_bytes, uint64_t hbm_bytes, bool allocate)
    : max_bytes_(max_bytes), hbm_bytes_(hbm_bytes), allocate_(allocate) {}

void GlobalMemory::add_view(sem::MemoryView* view) {
  views_.push_back(view);
  for (uint32_t id = 0; id < info_.size(); ++id) view->attach_gm(id, storage_[id].get(), info_[id].bytes);
}

uint32_t GlobalMemory::declare(const TensorDecl& d) {
  const auto it = by_name_.find(d.name);
  if (it == by_name_.end()) return add(d);
  merge(it->second, d);
  return it->second;
}

std::unique_ptr<uint8_t[]> GlobalMemory::allocate_for(const TensorDecl& d) {
  // Refuse before allocating anything (in --timing-only nothing is ever allocated).
  total_ += d.bytes;
  if (d.bytes > max_bytes_ || total_ > max_bytes_)
    throw InputError(d.loc, ".gm " + d.name + ": " + std::to_string(total_) +
                                " bytes of GM tensors exceed buffers.gm_max_bytes = " +
                                std::to_string(max_bytes_) + " (raise it with --set)");
  if (!allocate_) return nullptr;
  // A data run allocates every tensor: refuse what this machine cannot hold, before trying.
  const uint64_t host = host_memory_bytes();
  if (host && total_ > host)
    throw InputError(d.loc, ".gm " + d.name + ": " + std::to_string(total_) +
                                " bytes of GM tensors exceed this machine's memory (" + std::to_string(host) +
                                " bytes); --timing-only runs allocate no GM");
  try {
    std::unique_ptr<uint8_t[]> p(new uint8_t[d.bytes]());
    return p;
  } catch (const std::bad_alloc&) {
    throw InputError(d.loc, ".gm " + d.name + ": cannot allocate " + std::to_string(d.bytes) +
                                " bytes of host memory; --timing-only runs allocate no GM");
  }
}

uint32_t GlobalMemory::add(const TensorDecl& d) {
  const uint64_t at = (next_address_ + kTensorAlign - 1) / kTensorAlign * kTensorAlign;
  if (d.bytes > hbm_bytes_ || at > hbm_bytes_ - d.bytes)
    throw InputError(d.loc, ".gm " + d.name + ": the GM tensors do not fit in chip.hbm.bytes = " +
                                std::to_string(hbm_bytes_) + " bytes of HBM (this one would end at " +
                                std::to_string(at + d.bytes) + "; each tensor starts on a 2 MiB boundary)");
  std::unique_ptr<uint8_t[]> data = allocate_for(d);
  address_.push_back(at);
  next_address_ = at + d.bytes;
  if (data && d.load && !d.content_key.empty()) d.load(data.get());
  const auto id = static_cast<uint32_t>(info_.size());
  info_.push_back(TensorInfo{d.name, d.bytes, d.content_key, d.loc, d.loc});
  storage_.push_back(std::move(data));
  decl_of_content_.push_back(d);
  by_name_.emplace(d.name, id);
  for (sem::MemoryView* v : views_) v->attach_gm(id, storage_[id].get(), d.bytes);
  return id;
}

void GlobalMemory::merge(uint32_t id, const TensorDecl& d) {
  TensorInfo& t = info_[id];
  if (d.bytes != t.bytes)
    throw InputError(d.loc, ".gm " + d.name + ": size " + std::to_string(d.bytes) + " differs from the " +
                                std::to_string(t.bytes) + " bytes it was declared with" + both(t.loc, d.loc) +
                                "; a name several cores declare is one shared tensor");
  if (d.content_key.empty() || d.content_key == t.content_key) return;
  if (t.content_key.empty()) {
    if (sealed_)
      throw InputError(d.loc, ".gm " + d.name + ": gives data (" + d.content_key +
                                  ") to a tensor that was declared without data" + both(t.loc, d.loc) +
                                  " after the kernel started; give the file in the first declaration");
    if (uint8_t* p = storage_[id].get(); p && d.load) d.load(p);
    t.content_key = d.content_key;
    t.content_loc = d.loc;
    decl_of_content_[id] = d;
    return;
  }
  // Two different files: the same tensor only if their bytes are identical.
  const TensorDecl& first = decl_of_content_[id];
  std::unique_ptr<uint8_t[]> a(new uint8_t[t.bytes]), b(new uint8_t[t.bytes]);
  if (first.load) first.load(a.get());
  if (d.load) d.load(b.get());
  if (std::memcmp(a.get(), b.get(), t.bytes) != 0)
    throw InputError(d.loc, ".gm " + d.name + ": data file " + d.content_key + " differs from " +
                                t.content_key + both(t.content_loc, d.loc) +
                                "; a name several cores declare is one shared tensor");
}

}  // namespace aicore::model
