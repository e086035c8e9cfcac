// The chip's GM: the tensors every core's sources declared, by name, and their storage (none
// in --timing-only runs). Implements the TensorRegistry sources declare through, with the rules
// for a name several cores declare, and attaches each tensor to every core's memory view. Each
// tensor also gets an HBM address, which is what the L2 is looked up by (l2_cache.hpp): tensors
// are laid out in declaration order, each from the next multiple of kTensorAlign bytes.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "aicore/model/source.hpp"
#include "aicore/semantics/memory.hpp"

namespace aicore::model {

struct TensorInfo {
  std::string name;
  uint64_t bytes = 0;
  std::string content_key;  // of the declaration that gave the content ("" = zeros)
  SourceLoc loc;            // first declaration
  SourceLoc content_loc;    // the declaration that gave the content
};

class GlobalMemory : public TensorRegistry {
 public:
  // Assumed (docs/decisions.md): device allocations start on 2 MiB pages, so no two tensors share
  // an L2 line.
  static constexpr uint64_t kTensorAlign = uint64_t{2} << 20;

  // max_bytes: total of all tensors accepted (buffers.gm_max_bytes); hbm_bytes: the address
  // space they are laid out in (chip.hbm.bytes); allocate = data run.
  GlobalMemory(uint64_t max_bytes, uint64_t hbm_bytes, bool allocate);

  uint32_t declare(const TensorDecl& d) override;
  // Every tensor, declared now or later, is attached to `view` too.
  void add_view(sem::MemoryView* view);
  // Once set, a declaration that would give an existing tensor its content is refused: some
  // core may already have read the tensor's zeros.
  void seal_contents() { sealed_ = true; }

  const std::vector<TensorInfo>& tensors() const { return info_; }
  const uint8_t* data(uint32_t id) const { return storage_[id].get(); }
  uint64_t address(uint32_t id) const { return address_[id]; }

 private:
  uint32_t add(const TensorDecl& d);
  void merge(uint32_t id, const TensorDecl& d);
  std::unique_ptr<uint8_t[]> allocate_for(const TensorDecl& d);

  uint64_t max_bytes_, hbm_bytes_;
  bool allocate_;
  uint64_t next_address_ = 0;
  std::vector<uint64_t> address_;
  bool sealed_ = false;
  uint64_t total_ = 0;
  std::vector<TensorInfo> info_;
  std::vector<std::unique_ptr<uint8_t[]>> storage_;
  std::vector<TensorDecl> decl_of_content_;  // per tensor: the declaration whose load gives the content
  std::unordered_map<std::string, uint32_t> by_name_;
  std::vector<sem::MemoryView*> views_;
};

}  // namespace aicore::model
