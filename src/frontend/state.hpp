// The front end's process-wide state, private to src/frontend: the GM buffers the host allocated,
// and the launch (and block) that is running, if any.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "aicore/config/config.hpp"
#include "aicore/frontend/call_site.hpp"
#include "aicore/frontend/runtime.hpp"
#include "aicore/isa/instructions.hpp"
#include "aicore/semantics/memory.hpp"

namespace aicore::frontend {

// One GmAlloc buffer. Its id (its index in GmRegistry::regions) is its tensor number in the
// instructions recorded while it lives.
struct GmRegion {
  uint8_t* data = nullptr;
  uint64_t bytes = 0;
  bool live = false;
  // Device memory comes in 2 MiB pages: a read past a buffer's end that stays in its last page
  // reads whatever lies there on silicon (Huawei's own load_data_l12l0 sample reads 1600 bytes
  // past its A buffer and ignores them). Here those bytes are zeros, readable (with a warning),
  // never writable; `readable` is where the page ends, `read_end` how far kernels read.
  uint64_t readable = 0;
  uint64_t read_end = 0;
};

struct GmRegistry {
  GmRegistry() = default;
  GmRegistry(const GmRegistry&) = delete;
  GmRegistry& operator=(const GmRegistry&) = delete;
  // The buffers a program never freed go with it, as a device's memory goes at aclrtResetDevice /
  // process end (and a leak checker sees no leak the program could not have avoided).
  ~GmRegistry();
  std::vector<GmRegion> regions;
  std::map<uintptr_t, uint32_t> by_address;  // live regions by start address
  // The live region holding [p, p+1), or -1.
  int64_t find(const void* p) const;
};
GmRegistry& gm_registry();

// A block's on-chip memories (zeroed) and the program it has recorded so far.
struct Block {
  Block(uint32_t index, const config::Buffers& b);
  uint32_t index;
  std::vector<uint8_t> l1, l0a, l0b, l0c, sparse_index, bias_table;
  sem::MemoryView view;
  std::vector<isa::Instruction> program;
  std::optional<isa::DType> atomic;  // SetAtomicAdd's type until SetAtomicNone (its Fixpipes add)
  bool after_sync_all = false;       // a SyncAll was issued (see issue() in runtime.cpp)
  FixpipeRegisters fixpipe;          // SetFixpipeNz2ndFlag / SetFixpipePreQuantFlag (runtime.hpp)
};

struct Launch {
  std::string kernel;
  uint32_t blocks = 1;
  const config::Config* cfg = nullptr;
  bool timing_only = false;                             // check instructions, compute nothing
  bool sync_all_noted = false;                          // the SyncAll warning was given
  std::vector<uint32_t> past_end_noted;                 // call-site lines warned of a read past a buffer
  std::unique_ptr<Block> block;                         // the running block
  std::vector<std::vector<isa::Instruction>> programs;  // finished blocks
  std::unordered_map<const char*, FileId> files;        // call-site file -> interned id
  uint32_t allocators_alive[8] = {};                    // LocalMemAllocator per Hardware
};
// The running launch, or null.
Launch* current_launch();
void set_current_launch(Launch* l);

// The running launch with a block, or a KernelError naming `api` (called outside a kernel).
Launch& need_block(CallSite site, const char* api);

}  // namespace aicore::frontend
