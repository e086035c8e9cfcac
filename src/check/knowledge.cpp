#include "knowledge.hpp"

namespace aicore::check {

uint32_t SyncPool::make(SyncDesc desc) {
  uint32_t slot;
  if (free_.empty()) {
    slot = static_cast<uint32_t>(items_.size());
    items_.emplace_back();
  } else {
    slot = free_.back();
    free_.pop_back();
  }
  items_[slot] = SyncUse{};
  items_[slot].desc = std::move(desc);
  return slot;
}

void SyncPool::release(uint32_t slot) {
  SyncUse& u = items_[slot];
  if (--u.refs != 0) return;
  if (!closed_) judge_(u);
  u.desc = SyncDesc{};
  free_.push_back(slot);
}

void SyncPool::close(bool judge) {
  if (closed_) return;
  closed_ = true;
  if (!judge) return;
  for (const SyncUse& u : items_)
    if (u.refs > 0) judge_(u);
}

}  // namespace aicore::check
