// The GM -> L1 streaming kernel (stream.hpp): tiles dealt to the cores, copied slot by slot.
#include "aicore/gen/stream.hpp"

#include <algorithm>

#include "aicore/common/error.hpp"
#include "aicore/isa/check.hpp"
#include "aicore/trace/writer.hpp"

namespace aicore::gen {

namespace {

using isa::ceil_div;

[[noreturn]] void bad(const std::string& msg) {
  throw InputError(SourceLoc{"gen"}, msg);
}

uint64_t tile_columns(const StreamShape& s) {
  return ceil_div(s.cols, s.tile_cols);
}
uint64_t tile_rows(const StreamShape& s) {
  return s.rows / s.tile_rows;
}
// An L1 slot: a whole tile in NZ (rows and columns padded to 16).
uint64_t slot_bytes(const StreamShape& s) {
  return ceil_div(s.tile_rows, 16) * 16 * ceil_div(s.tile_cols, 16) * 16 * 2;
}

// The tile columns [first, last) of slice i.
std::pair<uint64_t, uint64_t> slice_columns(const StreamShape& s, uint32_t i) {
  const uint64_t per = ceil_div(tile_columns(s), s.slices);
  return {std::min(tile_columns(s), i * per), std::min(tile_columns(s), (i + 1) * per)};
}

}  // namespace

void check_stream(const StreamShape& s) {
  if (s.rows == 0 || s.cols == 0) bad("--m and --n (the matrix's rows and columns) are required");
  if (s.cols > 65535) bad("--n is limited to 65535 (DataCopyNd2Nz srcDValue is 16 bits)");
  if (s.tile_rows == 0 || s.tile_cols == 0 || s.tile_rows % 16 || s.tile_cols % 16 || s.tile_rows > 4080 ||
      s.tile_cols > 4080)
    bad("--tile RxC must be multiples of 16 in 16..4080 (got " + std::to_string(s.tile_rows) + "x" +
        std::to_string(s.tile_cols) + ")");
  if (s.rows % s.tile_rows)
    bad("--m " + std::to_string(s.rows) + " must be a multiple of the tile's " + std::to_string(s.tile_rows) +
        " rows");
  if (2 * slot_bytes(s) > kL1Bytes)
    bad("a " + std::to_string(s.tile_rows) + "x" + std::to_string(s.tile_cols) + " fp16 tile needs " +
        std::to_string(slot_bytes(s) / 1024) + " KiB of L1, twice (two slots): more than its " +
        std::to_string(kL1Bytes / 1024) + " KiB");
  if (s.rounds < 1) bad("--rounds must be at least 1");
  if (s.slices < 1 || s.slices > tile_columns(s))
    bad("--slices must be in 1.." + std::to_string(tile_columns(s)) + " (whole tile columns per slice)");
  for (uint32_t i = 0; i < s.slices; ++i) {
    const auto [a, b] = slice_columns(s, i);
    if ((b - a) * tile_rows(s) < s.cores)
      bad("slice " + std::to_string(i) + " has " + std::to_string((b - a) * tile_rows(s)) + " tiles for " +
          std::to_string(s.cores) +
          " cores: every core needs at least one; use smaller tiles or fewer slices");
  }
}

std::vector<Emitted> emit_stream(const StreamShape& s, uint32_t core) {
  std::vector<Emitted> out;
  using isa::Pipe;
  const auto flag = [&](bool set, Pipe src, Pipe dst, uint64_t id, std::string note = {}) {
    const isa::EventPair e{src, dst};
    const auto i = static_cast<uint8_t>(id);
    out.push_back({set ? isa::Op{isa::SetFlag{e, i}} : isa::Op{isa::WaitFlag{e, i}}, std::move(note)});
  };
  // Each slot is handed to MTE1 and back (as a TQue's EnQue / DeQue / FreeTensor would), so the
  // next copy into it is ordered after the last: MTE2's own copies are not ordered by themselves.
  for (uint64_t id = 0; id < 2; ++id)
    flag(true, Pipe::MTE1, Pipe::MTE2, id, id ? "" : "both L1 slots start free");
  uint64_t copies = 0;
  for (uint32_t slice = 0; slice < s.slices; ++slice) {
    const auto [c0, c1] = slice_columns(s, slice);
    const uint64_t tiles = (c1 - c0) * tile_rows(s);
    const uint64_t first = core * tiles / s.cores, last = (core + 1) * tiles / s.cores;
    for (uint32_t round = 0; round < s.rounds; ++round)
      for (uint64_t t = first; t < last; ++t) {
        const uint64_t tr = t / (c1 - c0), tc = c0 + t % (c1 - c0);
        const uint64_t col = tc * s.tile_cols, width = std::min<uint64_t>(s.tile_cols, s.cols - col);
        isa::DataCopyNd2Nz c;
        c.dst = isa::Addr{isa::Space::L1, 0, copies % 2 * slot_bytes(s)};
        c.src = isa::Addr{isa::Space::GM, 0, (tr * s.tile_rows * s.cols + col) * 2};
        c.dtype = isa::DType::Half;
        c.nValue = static_cast<uint16_t>(s.tile_rows);
        c.dValue = static_cast<uint16_t>(width);
        c.srcDValue = static_cast<uint16_t>(s.cols);
        c.dstNzC0Stride = static_cast<uint16_t>(s.tile_rows);
        std::string note;
        if (t == first)
          note = "slice " + std::to_string(slice) + " round " + std::to_string(round) + ": tiles " +
                 std::to_string(first) + ".." + std::to_string(last - 1) + " of the slice";
        const uint64_t slot = copies % 2;
        flag(false, Pipe::MTE1, Pipe::MTE2, slot, note);
        out.push_back({c, ""});
        flag(true, Pipe::MTE2, Pipe::MTE1, slot);
        flag(false, Pipe::MTE2, Pipe::MTE1, slot);
        flag(true, Pipe::MTE1, Pipe::MTE2, slot);
        ++copies;
      }
  }
  for (uint64_t id = 0; id < 2; ++id)
    flag(false, Pipe::MTE1, Pipe::MTE2, id, id ? "" : "drain the slot flags");
  return out;
}

uint64_t stream_bytes(const StreamShape& s) {
  return uint64_t{s.rows} * s.cols * 2;
}

std::string describe(const StreamShape& s) {
  return std::to_string(s.rows) + " x " + std::to_string(s.cols) + " fp16 (" +
         std::to_string(stream_bytes(s)) + " bytes) in " + std::to_string(s.tile_rows) + "x" +
         std::to_string(s.tile_cols) + " tiles, " + std::to_string(s.cores) + " core(s), " +
         std::to_string(s.rounds) + " round(s)" +
         (s.slices > 1 ? ", " + std::to_string(s.slices) + " column slices, each read every round in turn"
                       : "");
}

std::string render_stream_trace(const StreamShape& s, uint32_t core, const std::vector<std::string>& header,
                                const std::string& name) {
  std::string t = "# aicore trace v1\n";
  for (const auto& h : header) t += "# " + h + "\n";
  t += trace::format_gm(name, stream_bytes(s), "") + "\n";
  std::string line;
  for (const Emitted& e : emit_stream(s, core)) {
    if (!e.comment.empty()) t += "\n# " + e.comment + "\n";
    line.clear();
    trace::append_instruction(line, e.op, {name});
    t += line + "\n";
  }
  return t;
}

}  // namespace aicore::gen
