#include "ref_l2.hpp"

#include <algorithm>
#include <set>
#include <variant>

namespace ref {

namespace isa = aicore::isa;

std::vector<uint64_t> tensor_bases(const std::vector<uint64_t>& tensor_bytes) {
  const uint64_t align = 2 * 1024 * 1024;
  std::vector<uint64_t> out;
  uint64_t next = 0;
  for (uint64_t b : tensor_bytes) {
    while (next % align) ++next;  // plainly, not fast
    out.push_back(next);
    next += b;
  }
  return out;
}

Ranges gm_ranges(const isa::Op& op, const std::vector<uint64_t>& bases) {
  Ranges out;
  if (const auto* d = std::get_if<isa::DataCopy>(&op)) {
    for (uint64_t i = 0; i < d->blockCount; ++i) {
      const uint64_t at = bases[d->src.tensor] + d->src.offset + i * (d->blockLen + d->srcGap) * 32;
      out.emplace_back(at, at + uint64_t{d->blockLen} * 32);
    }
  } else if (const auto* n = std::get_if<isa::DataCopyNd2Nz>(&op)) {
    const uint64_t es = n->dtype == isa::DType::Int8                                   ? 1
                        : n->dtype == isa::DType::Half || n->dtype == isa::DType::BF16 ? 2
                                                                                       : 4;
    for (uint64_t m = 0; m < n->ndNum; ++m)
      for (uint64_t r = 0; r < n->nValue; ++r) {
        const uint64_t at =
            bases[n->src.tensor] + n->src.offset + (m * n->srcNdMatrixStride + r * n->srcDValue) * es;
        out.emplace_back(at, at + uint64_t{n->dValue} * es);
      }
  } else if (const auto* f = std::get_if<isa::Fixpipe>(&op)) {
    // Elements of the output type: 4 bytes as the cells are, 2 for the half/bf16 conversions, 1 for
    // the int8 ones.
    uint64_t es = 4;
    if (f->quantPre == isa::QuantMode::F322F16 || f->quantPre == isa::QuantMode::F322BF16 ||
        f->quantPre == isa::QuantMode::DEQF16)
      es = 2;
    if (f->quantPre == isa::QuantMode::REQ8 || f->quantPre == isa::QuantMode::QF322B8_PRE) es = 1;
    for (uint64_t m = 0; m < f->ndNum; ++m)
      for (uint64_t j = 0; j < f->mSize; ++j) {
        const uint64_t at =
            bases[f->dst.tensor] + f->dst.offset + (m * f->dstNdStride + j * f->dstStride) * es;
        out.emplace_back(at, at + uint64_t{f->nSize} * es);
      }
  }
  // A transfer looks up each line of each contiguous run once: rows that touch are one run.
  std::sort(out.begin(), out.end());
  Ranges runs;
  for (const auto& r : out) {
    if (r.first >= r.second) continue;
    if (!runs.empty() && r.first <= runs.back().second)
      runs.back().second = std::max(runs.back().second, r.second);
    else
      runs.push_back(r);
  }
  return runs;
}

PlainL2::PlainL2(const aicore::config::L2& cfg) : cfg_(cfg) {
  if (cfg.bytes) sets_.resize(cfg.bytes / cfg.line_bytes / cfg.ways);
}

PlainL2::Found PlainL2::access(const Ranges& ranges, bool write, int core, uint64_t now, uint64_t until) {
  Found f;
  for (const auto& [begin, end] : ranges) {
    if (begin >= end) continue;
    for (uint64_t line = begin / cfg_.line_bytes; line * cfg_.line_bytes < end; ++line) {
      if (cfg_.bytes == 0) {  // no L2: every line a miss, the bytes themselves from/to HBM
        ++f.lines;
        ++f.misses;
        continue;
      }
      std::set<uint64_t> sectors;  // the sectors of the line that [begin, end) overlaps
      for (uint64_t k = 0; k < cfg_.line_bytes / cfg_.sector_bytes; ++k) {
        const uint64_t s0 = line * cfg_.line_bytes + k * cfg_.sector_bytes, s1 = s0 + cfg_.sector_bytes;
        if (s0 < end && s1 > begin) sectors.insert(k);
      }
      touch(line, sectors, write, core, now, until, f);
    }
    if (cfg_.bytes == 0) f.hbm_bytes += end - begin;
  }
  return f;
}

void PlainL2::touch(uint64_t line, const std::set<uint64_t>& sectors, bool write, int core, uint64_t now,
                    uint64_t until, Found& f) {
  // The set: splitmix64's finalizer of the line number, its high 32 bits scaled to the sets.
  uint64_t z = line;
  z ^= z >> 30;
  z *= 0xBF58476D1CE4E5B9ull;
  z ^= z >> 27;
  z *= 0x94D049BB133111EBull;
  z ^= z >> 31;
  const auto index = static_cast<size_t>((static_cast<unsigned __int128>(z >> 32) * sets_.size()) >> 32);
  std::list<Line>& set = sets_[index];
  ++f.lines;
  auto it = std::find_if(set.begin(), set.end(), [&](const Line& l) { return l.line == line; });
  Line l;
  const bool present = it != set.end();
  if (present) {
    l = *it;
    set.erase(it);
  } else {
    if (set.size() == cfg_.ways) {  // the least recently used goes, its dirty sectors to HBM
      f.hbm_bytes += set.back().dirty.size() * cfg_.sector_bytes;
      set.pop_back();
    }
    l.line = line;
  }
  if (write) {  // allocates without a fill: the written sectors become valid and dirty
    ++(present ? f.hits : f.misses);
    for (uint64_t k : sectors) {
      l.valid.insert(k);
      l.dirty.insert(k);
    }
  } else {
    uint64_t missing = 0;
    for (uint64_t k : sectors)
      if (l.valid.insert(k).second) ++missing;  // filled from HBM
    ++(missing ? f.misses : f.hits);
    f.hbm_bytes += missing * cfg_.sector_bytes;
    if (l.reader >= 0 && l.reader != core && l.until > now) ++f.shared;
    l.reader = core;
    l.until = std::max(l.until, until);
  }
  set.push_front(l);
}

}  // namespace ref
