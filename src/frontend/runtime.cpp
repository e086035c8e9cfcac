#include "aicore/frontend/runtime.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "aicore/common/error.hpp"
#include "aicore/common/source_files.hpp"
#include "aicore/isa/check.hpp"
#include "aicore/isa/descriptors.hpp"
#include "aicore/semantics/atomic.hpp"
#include "aicore/semantics/execute.hpp"
#include "state.hpp"

namespace aicore::frontend {

namespace {

Launch*& launch_slot() {
  static Launch* l = nullptr;
  return l;
}

std::string where(CallSite site) {
  return std::string(site.file) + ":" + std::to_string(site.line);
}

FileId file_id(Launch& l, const char* file) {
  const auto it = l.files.find(file);
  if (it != l.files.end()) return it->second;
  const FileId id = intern_source_file(file);
  l.files.emplace(file, id);
  return id;
}

}  // namespace

KernelError::KernelError(CallSite site, const std::string& api, const std::string& message)
    : std::runtime_error(where(site) + ": error: " + api + ": " + message) {}

void fail(CallSite site, const std::string& api, const std::string& message) {
  KernelError e(site, api, message);
  if (current_launch()) throw e;
  // Outside a launch (host code) nothing would catch it: report and stop here.
  std::fflush(stdout);
  std::cout.flush();
  std::cerr << e.what() << std::endl;
  std::exit(3);
}

Launch* current_launch() {
  return launch_slot();
}
void set_current_launch(Launch* l) {
  launch_slot() = l;
}

Launch& need_block(CallSite site, const char* api) {
  Launch* l = current_launch();
  if (!l || !l->block)
    fail(site, api, "called outside a kernel (only a kernel launched by ICPU_RUN_KF may call it)");
  return *l;
}

Block::Block(uint32_t i, const config::Buffers& b)
    : index(i),
      l1(b.l1_bytes),
      l0a(b.l0a_bytes),
      l0b(b.l0b_bytes),
      l0c(b.l0c_bytes),
      sparse_index(b.sparse_index_bytes),
      bias_table(b.bias_table_bytes) {
  view.attach(isa::Space::L1, l1.data(), l1.size());
  view.attach(isa::Space::L0A, l0a.data(), l0a.size());
  view.attach(isa::Space::L0B, l0b.data(), l0b.size());
  view.attach(isa::Space::L0C, l0c.data(), l0c.size());
  view.attach(isa::Space::SparseIndex, sparse_index.data(), sparse_index.size());
  view.attach(isa::Space::BiasTable, bias_table.data(), bias_table.size());
  const GmRegistry& gm = gm_registry();
  for (uint32_t id = 0; id < gm.regions.size(); ++id)
    view.attach_gm(id, gm.regions[id].live ? gm.regions[id].data : nullptr,
                   gm.regions[id].live ? gm.regions[id].readable : 0);
}

bool in_kernel() {
  return current_launch() && current_launch()->block;
}
bool timing_only(CallSite site, const char* api) {
  return need_block(site, api).timing_only;
}
FixpipeRegisters& fixpipe_registers(CallSite site, const char* api) {
  return need_block(site, api).block->fixpipe;
}

void fixbuf_copy(uint64_t fb, uint64_t l1, uint16_t count, uint16_t len, uint16_t srcGap, uint16_t dstGap,
                 CallSite site, const char* api) {
  Launch& l = need_block(site, api);
  if (count == 0 || len == 0) fail(site, api, "blockCount and blockLen (128-byte units) must not be 0");
  std::vector<FixbufCopy>& copies = l.block->fixpipe.fixbuf;
  // Gap-free bursts are one run; otherwise each burst is its own.
  const bool run = srcGap == 0 && dstGap == 0;
  const uint64_t burst = uint64_t{len} * 128, pieces = run ? 1 : count, piece = run ? burst * count : burst;
  for (uint64_t i = 0; i < pieces; ++i) {
    FixbufCopy c;
    c.fb = fb + i * (burst + uint64_t{dstGap} * 128);
    c.l1 = l1 + i * (burst + uint64_t{srcGap} * 32);
    c.bytes = piece;
    c.line = site.line;
    const uint8_t* p = local_bytes(isa::Space::L1, c.l1, c.bytes, site, api);
    if (!l.timing_only) c.data.assign(p, p + c.bytes);
    // A newer copy replaces what older ones left in the bytes it writes.
    copies.erase(
        std::remove_if(copies.begin(), copies.end(),
                       [&](const FixbufCopy& o) { return o.fb < c.fb + c.bytes && c.fb < o.fb + o.bytes; }),
        copies.end());
    copies.push_back(std::move(c));
  }
}

uint64_t fixbuf_source(uint64_t fb, uint64_t bytes, CallSite site, const char* api) {
  Launch& l = need_block(site, api);
  const std::string what = "the per-channel table (" + std::to_string(bytes) +
                           " bytes at fixpipe-buffer byte " + std::to_string(fb) + ", SetFixPipeConfig)";
  for (const FixbufCopy& c : l.block->fixpipe.fixbuf) {
    if (!(c.fb <= fb && fb + bytes <= c.fb + c.bytes)) continue;
    const uint64_t at = c.l1 + (fb - c.fb);
    if (!l.timing_only && std::memcmp(local_bytes(isa::Space::L1, at, bytes, site, api),
                                      c.data.data() + (fb - c.fb), bytes) != 0)
      fail(site, api,
           what + " came from L1 bytes that changed after its DataCopy to the fixpipe buffer (line " +
               std::to_string(c.line) +
               "): not modelled (the simulated Fixpipe reads the table from L1, docs/decisions.md)");
    return at;
  }
  fail(site, api,
       what +
           " was not filled by one DataCopy(C2PIPE2GM, L1, DataCopyParams) burst run (nothing, or "
           "bursts with gaps between them)");
}

int64_t block_idx() {
  return in_kernel() ? current_launch()->block->index : 0;
}
int64_t block_num() {
  return current_launch() ? current_launch()->blocks : 1;
}

isa::Space space_of(AscendC::TPosition pos, CallSite site, const char* api) {
  using AscendC::Hardware;
  switch (AscendC::GetPhyType(pos)) {
    case Hardware::L1:
      return isa::Space::L1;
    case Hardware::L0A:
      return isa::Space::L0A;
    case Hardware::L0B:
      return isa::Space::L0B;
    case Hardware::L0C:
      return isa::Space::L0C;
    case Hardware::GM:
      fail(site, api, "the tensor's position is GM (CO2 is GM on arch 2201): use a GlobalTensor");
    case Hardware::UB:
      fail(site, api, "the tensor's position is in UB, which only the Vector cores (AIV) have");
    case Hardware::BIAS:
      return isa::Space::BiasTable;
    case Hardware::FIXBUF:
      fail(site, api, "the fixpipe buffer (position C2PIPE2GM) is not modelled yet");
    default:
      fail(site, api, "the tensor has no position (a default-constructed LocalTensor?)");
  }
}

uint64_t space_bytes(isa::Space s) {
  const Launch* l = current_launch();
  if (!l) return 0;
  const config::Buffers& b = l->cfg->buffers;
  switch (s) {
    case isa::Space::L1:
      return b.l1_bytes;
    case isa::Space::L0A:
      return b.l0a_bytes;
    case isa::Space::L0B:
      return b.l0b_bytes;
    case isa::Space::L0C:
      return b.l0c_bytes;
    case isa::Space::SparseIndex:
      return b.sparse_index_bytes;
    case isa::Space::BiasTable:
      return b.bias_table_bytes;
    default:
      return 0;
  }
}

uint8_t* local_bytes(isa::Space s, uint64_t offset, uint64_t bytes, CallSite site, const char* api) {
  Launch& l = need_block(site, api);
  if (s == isa::Space::BiasTable)  // the scalar unit has no path to it (docs/ascendc.md)
    fail(site, api,
         "the bias table (position C2) is not readable or writable element by element: fill it with "
         "DataCopy from L1 (C1) and read it with Mmad");
  const uint64_t size = space_bytes(s);
  if (offset > size || bytes > size - offset)
    fail(site, api,
         "bytes " + std::to_string(offset) + ".." + std::to_string(offset + bytes) + " run past the end of " +
             isa::to_string(s) + " (" + std::to_string(size) + " bytes)");
  return l.block->view.ptr(s, 0, offset);
}

// Blocks compute their data one after another (docs/ascendc.md): a SyncAll orders them in the
// timing simulation, but a block's GM reads after it see only what lower blocks wrote. Said once
// per launch, when a block other than the last calls SyncAll.
namespace {
void sync_all_note(Launch& l, Block& b, CallSite site) {
  b.after_sync_all = true;
  if (l.sync_all_noted || l.timing_only || b.index + 1 >= l.blocks) return;
  l.sync_all_noted = true;
  std::cerr << site.file << ":" << site.line
            << ": warning: SyncAll: the blocks of a launch compute their data one after another, so block "
            << b.index << "'s GM reads after it see only what lower blocks wrote; the timing simulation runs "
            << "them together (docs/ascendc.md)\n";
}
}  // namespace

// GM operands against their buffers: a write past a buffer's end is an error, a read past it
// (inside the device page it ends in) a warning, once per line (state.hpp, GmRegion::readable).
// The view holds the readable bytes, so it catches what goes past those.
namespace {
void check_gm_ends(Launch& l, const isa::Op& op, CallSite site, const char* api) {
  bool gm = false;
  isa::for_each_operand(
      op, [&](const isa::FieldFacts&, const isa::Addr& a) { gm = gm || a.space == isa::Space::GM; });
  if (!gm) return;
  const isa::Footprint fp = isa::footprint(op);
  GmRegistry& g = gm_registry();
  for (uint8_t i = 0; i < fp.count; ++i) {
    const isa::Extent& e = fp.extents[i];
    if (e.space != isa::Space::GM || e.tensor >= g.regions.size()) continue;
    GmRegion& r = g.regions[e.tensor];
    if (e.end <= r.bytes || e.end > r.readable) continue;
    const std::string range = "GM bytes [" + std::to_string(e.begin) + ", " + std::to_string(e.end) + ")";
    if (e.write) fail(site, api, "writes " + range + " beyond its " + std::to_string(r.bytes) + " bytes");
    r.read_end = std::max(r.read_end, e.end);
    auto& noted = l.past_end_noted;
    if (std::find(noted.begin(), noted.end(), site.line) != noted.end()) continue;
    noted.push_back(site.line);
    std::cerr << site.file << ":" << site.line << ": warning: " << api << ": reads " << range << " of a "
              << r.bytes << "-byte buffer, " << e.end - r.bytes
              << " bytes past its end: silicon reads whatever follows it in the buffer's device memory page; "
                 "here those bytes are zeros (docs/ascendc.md)\n";
  }
}
}  // namespace

void issue(const isa::Op& op, CallSite site, const char* api, isa::Origin origin) {
  Launch& l = need_block(site, api);
  Block& b = *l.block;
  check_gm_ends(l, op, site, api);
  if (const auto* a = std::get_if<isa::SetAtomicAdd>(&op)) b.atomic = a->dtype;
  if (std::holds_alternative<isa::SetAtomicNone>(op)) b.atomic.reset();
  if (std::holds_alternative<isa::SyncAll>(op)) sync_all_note(l, b, site);
  const auto* fix = std::get_if<isa::Fixpipe>(&op);
  try {
    if (fix && b.atomic) sem::check_atomic_type(*fix, *b.atomic);
    if (l.timing_only || isa::is_sync(op))
      isa::check(op, b.view.limits());
    else if (fix && b.atomic)
      sem::fixpipe_atomic_add(*fix, b.view);  // blocks run in order: block 0's adds first
    else
      sem::execute(op, b.view);
  } catch (const Fault& f) {
    fail(site, api, f.what());
  }
  isa::Instruction in;
  in.op = op;
  in.index = b.program.size();
  in.line = site.line;
  in.file = file_id(l, site.file);
  in.origin = origin;
  b.program.push_back(std::move(in));
}

}  // namespace aicore::frontend
