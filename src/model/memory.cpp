#include "aicore/model/memory.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "aicore/model/clock.hpp"
#include "aicore/model/transport.hpp"

namespace aicore::model {

Memory::Memory(sc_core::sc_module_name name, const MemoryParams& params)
    : sc_core::sc_module(name), socket("socket"), params_(params) {
  socket.register_b_transport(this, &Memory::b_transport);
  socket.register_get_direct_mem_ptr(this, &Memory::get_direct_mem_ptr);
  if (params_.allocate && params_.space != isa::Space::GM) storage_.assign(params_.bytes, 0);
}

uint8_t* Memory::add_tensor(uint64_t bytes) {
  tensor_sizes_.push_back(bytes);
  tensors_.emplace_back();
  if (params_.allocate) tensors_.back().assign(bytes, 0);
  return tensor_data(static_cast<uint32_t>(tensors_.size() - 1));
}

uint8_t* Memory::tensor_data(uint32_t id) {
  return tensors_[id].empty() ? nullptr : tensors_[id].data();
}

uint64_t Memory::shared_transfer(uint64_t now, uint64_t bytes, uint64_t path_cycles) {
  const double cap = params_.shared_bytes_per_cycle;
  const double own = path_cycles ? static_cast<double>(bytes) / static_cast<double>(path_cycles) : cap;
  uint64_t start = now;
  for (;;) {
    double used = 0;
    uint64_t first_end = UINT64_MAX;
    for (auto it = flows_.begin(); it != flows_.end();) {
      if (it->end <= start) {
        it = flows_.erase(it);
        continue;
      }
      used += it->rate;
      if (it->end < first_end) first_end = it->end;
      ++it;
    }
    const double avail = cap - used;
    // Start once at least 1 B/cycle (or the whole own rate, if smaller) is free.
    if (avail >= std::min(own, 1.0) || flows_.empty()) {
      const double rate = std::min(own, std::max(avail, 1e-9));
      const uint64_t duration =
          rate >= own ? path_cycles : static_cast<uint64_t>(std::ceil(static_cast<double>(bytes) / rate));
      flows_.push_back(Flow{start + duration, rate});
      read_port_.busy += duration;
      return start + duration;
    }
    start = first_end;
  }
}

void Memory::b_transport(int, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  const bool read = trans.is_read();
  const uint64_t len = trans.get_data_length();
  const auto* ext = trans.get_extension<PathExtension>();
  const uint64_t path_cycles = ext ? ext->path_cycles : 0;
  const uint64_t now = (ext ? ext->start_cycle : now_cycles()) + to_cycles(delay);
  (read ? bytes_read_ : bytes_written_) += len;
  uint64_t done;
  if (params_.shared_bytes_per_cycle > 0) {
    done = shared_transfer(now, len, path_cycles);
  } else {
    // An on-chip port serves one transfer at a time for the initiator's transfer time.
    Port& port = read ? read_port_ : write_port_;
    const uint64_t start = port.busy_until > now ? port.busy_until : now;
    port.busy_until = start + path_cycles;
    port.busy += path_cycles;
    done = port.busy_until;
  }
  delay = cycles(done - now);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

bool Memory::get_direct_mem_ptr(int, tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi) {
  uint8_t* base = nullptr;
  uint64_t size = 0;
  if (params_.space == isa::Space::GM) {
    const uint32_t t = address_tensor(trans.get_address());
    if (t < tensors_.size()) {
      base = tensor_data(t);
      size = tensor_sizes_[t];
    }
  } else {
    base = data();
    size = params_.bytes;
  }
  if (!base || size == 0) return false;
  const uint64_t first = trans.get_address() & ~((uint64_t{1} << 40) - 1);
  dmi.set_dmi_ptr(base);
  dmi.set_start_address(first);
  dmi.set_end_address(first + size - 1);
  dmi.allow_read_write();
  return true;
}

}  // namespace aicore::model
