// A memory of the Cube core as a TLM-2.0 target: it owns its storage (none in --timing-only
// runs) and the timing of its ports. On-chip buffers have a read and a write port, each held
// for the initiator's transfer time, so two engines using one port serialise. GM has one port
// shared by MTE2 reads and FIX writes with its own bandwidth (config gm.shared_bytes_per_cycle),
// modelled as a fluid share: a transfer runs at its own path rate while the port has that much
// bandwidth left, and slower (or later) when concurrent transfers already use it.
#pragma once
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <cstdint>
#include <string>
#include <tlm>
#include <vector>

#include "aicore/isa/types.hpp"

namespace aicore::model {

struct MemoryParams {
  isa::Space space = isa::Space::L1;
  uint64_t bytes = 0;                 // on-chip capacity (GM: tensors are added at run time)
  double shared_bytes_per_cycle = 0;  // > 0: one shared port with this bandwidth (GM)
  bool allocate = true;               // false in --timing-only runs: no storage at all
};

class Memory : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<Memory> socket;

  Memory(sc_core::sc_module_name name, const MemoryParams& params);

  isa::Space space() const { return params_.space; }
  uint64_t size() const { return params_.bytes; }
  uint8_t* data() { return storage_.empty() ? nullptr : storage_.data(); }

  // GM only: adds a tensor (ids dense, in order) and returns its storage (nullptr if not allocated).
  uint8_t* add_tensor(uint64_t bytes);
  uint8_t* tensor_data(uint32_t id);
  uint64_t tensor_size(uint32_t id) const { return tensor_sizes_[id]; }

  uint64_t bytes_read() const { return bytes_read_; }
  uint64_t bytes_written() const { return bytes_written_; }
  uint64_t port_busy_cycles() const { return read_port_.busy + write_port_.busy; }

 private:
  struct Port {
    uint64_t busy_until = 0;
    uint64_t busy = 0;  // total cycles held
  };
  void b_transport(int id, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  bool get_direct_mem_ptr(int id, tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);

  MemoryParams params_;
  std::vector<uint8_t> storage_;
  std::vector<std::vector<uint8_t>> tensors_;
  std::vector<uint64_t> tensor_sizes_;
  struct Flow {
    uint64_t end;
    double rate;  // bytes per cycle
  };
  uint64_t shared_transfer(uint64_t now, uint64_t bytes, uint64_t path_cycles);

  Port read_port_, write_port_;  // GM counts its shared-port time in read_port_.busy
  std::vector<Flow> flows_;      // GM transfers still in flight
  uint64_t bytes_read_ = 0, bytes_written_ = 0;
};

}  // namespace aicore::model
