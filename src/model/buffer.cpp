#include "aicore/model/buffer.hpp"

#include <algorithm>

namespace aicore::model {

Buffer::Buffer(const BufferParams& p) : params_(p), bank_bytes_(p.bytes / std::max<uint32_t>(p.banks, 1)) {
  if (params_.allocate) storage_.assign(params_.bytes, 0);
}

void Buffer::add_user(bool write, const TimeSource* user) {
  Port& port = ports_[write ? 1 : 0];
  if (std::find(port.users.begin(), port.users.end(), user) == port.users.end()) port.users.push_back(user);
  if (port.users.size() > 1 && port.banks.empty()) port.banks.resize(std::max<uint32_t>(params_.banks, 1));
}

void Buffer::calendars(bool write, uint64_t begin, uint64_t end, std::vector<Calendar*>& out) {
  Port& port = ports_[write ? 1 : 0];
  if (port.banks.empty() || end <= begin) return;
  const uint64_t first = begin / bank_bytes_,
                 last = std::min<uint64_t>((end - 1) / bank_bytes_, port.banks.size() - 1);
  for (uint64_t b = first; b <= last; ++b) out.push_back(&port.banks[b]);
}

bool Buffer::sharer_before(bool write, const TimeSource* self, uint64_t t) const {
  const Port& port = ports_[write ? 1 : 0];
  if (port.banks.empty()) return false;
  for (const TimeSource* u : port.users)
    if (u != self && u->horizon() < t) return true;
  return false;
}

void Buffer::forget_old() {
  // Cheap enough every few bookings: a user's next request starts at or after its horizon.
  if (++bookings_ % 16 != 0) return;
  for (Port& port : ports_) {
    if (port.banks.empty()) continue;
    uint64_t floor = UINT64_MAX;
    for (const TimeSource* u : port.users) floor = std::min(floor, u->horizon());
    for (Calendar& c : port.banks) c.forget_before(floor);
  }
}

}  // namespace aicore::model
