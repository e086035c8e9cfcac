#include "aicore/trace/writer.hpp"

#include <cstdio>
#include <stdexcept>

namespace aicore::trace {

namespace {

std::string hex(uint64_t v) {
  if (v == 0) return "0";
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

// Builds "Mnemonic key=value ..."; opt() drops a field equal to its default so that the
// emitted line is as short as the Ascend C call it transliterates.
class Line {
 public:
  explicit Line(const char* mnemonic) : s_(mnemonic) {}
  Line& kv(const char* key, const std::string& value) {
    s_ += ' ';
    s_ += key;
    s_ += '=';
    s_ += value;
    return *this;
  }
  Line& kv(const char* key, uint64_t value) { return kv(key, std::to_string(value)); }
  Line& opt(const char* key, uint64_t value, uint64_t def) { return value == def ? *this : kv(key, value); }
  Line& opt(const char* key, isa::DType t, isa::DType def) { return t == def ? *this : kv(key, isa::to_string(t)); }
  std::string str() const { return s_; }

 private:
  std::string s_;
};

struct Formatter {
  const std::vector<std::string>& gm;
  std::string addr(const isa::Addr& a) const { return format_addr(a, gm); }

  std::string operator()(const isa::DataCopy& o) const {
    return Line("DataCopy").kv("dst", addr(o.dst)).kv("src", addr(o.src)).kv("blockLen", o.blockLen)
        .opt("blockCount", o.blockCount, 1).opt("srcGap", o.srcGap, 0).opt("dstGap", o.dstGap, 0).str();
  }
  std::string operator()(const isa::DataCopyNd2Nz& o) const {
    return Line("DataCopyNd2Nz").kv("dst", addr(o.dst)).kv("src", addr(o.src)).opt("dtype", o.dtype, isa::DType::Int8)
        .opt("ndNum", o.ndNum, 1).kv("nValue", o.nValue).kv("dValue", o.dValue)
        .opt("srcNdMatrixStride", o.srcNdMatrixStride, 0).kv("srcDValue", o.srcDValue)
        .kv("dstNzC0Stride", o.dstNzC0Stride).opt("dstNzNStride", o.dstNzNStride, 1)
        .opt("dstNzMatrixStride", o.dstNzMatrixStride, 0).str();
  }
  std::string operator()(const isa::LoadData& o) const {
    return Line("LoadData").kv("dst", addr(o.dst)).kv("src", addr(o.src)).opt("dtype", o.dtype, isa::DType::Int8)
        .opt("startIndex", o.startIndex, 0).kv("repeatTimes", o.repeatTimes).opt("srcStride", o.srcStride, 0)
        .opt("dstGap", o.dstGap, 0).opt("ifTranspose", o.ifTranspose, 0).opt("sid", o.sid, 0)
        .opt("addrMode", o.addrMode, 0).str();
  }
  std::string operator()(const isa::LoadDataWithSparse& o) const {
    // The unused struct fields are written only when set, so an illegal op stays visible
    // in the trace (the simulator then reports it) instead of being silently cleaned.
    return Line("LoadDataWithSparse").kv("dst", addr(o.dst)).kv("src", addr(o.src)).kv("idx", addr(o.idx))
        .opt("startIndex", o.startIndex, 0).kv("repeatTimes", o.repeatTimes).opt("srcStride", o.srcStride, 0)
        .opt("dstGap", o.dstGap, 0).opt("ifTranspose", o.ifTranspose, 0).opt("sid", o.sid, 0)
        .opt("addrMode", o.addrMode, 0).str();
  }
  Line mmad(const char* name, const isa::MmadCommon& o) const {
    Line l(name);
    l.kv("dst", addr(o.dst)).kv("fm", addr(o.fm)).kv("filter", addr(o.filter)).kv("m", o.m).kv("n", o.n).kv("k", o.k);
    return l;
  }
  static void mmad_tail(Line& l, const isa::MmadCommon& o) {
    l.opt("cmatrixInitVal", o.cmatrixInitVal, 1).opt("cmatrixSource", o.cmatrixSource, 0)
        .opt("isBias", o.isBias, 0).opt("unitFlag", o.unitFlag, 0);
  }
  std::string operator()(const isa::Mmad& o) const {
    Line l = mmad("Mmad", o);
    l.opt("dtype", o.dtype, isa::DType::Int8);
    mmad_tail(l, o);
    return l.str();
  }
  std::string operator()(const isa::MmadWithSparse& o) const {
    Line l = mmad("MmadWithSparse", o);
    mmad_tail(l, o);
    return l.str();
  }
  std::string operator()(const isa::Fixpipe& o) const {
    return Line("Fixpipe").kv("dst", addr(o.dst)).kv("src", addr(o.src)).opt("dtype", o.dtype, isa::DType::Int32)
        .kv("nSize", o.nSize).kv("mSize", o.mSize).kv("srcStride", o.srcStride).kv("dstStride", o.dstStride)
        .opt("ndNum", o.ndNum, 1).opt("srcNdStride", o.srcNdStride, 0).opt("dstNdStride", o.dstNdStride, 0)
        .opt("reluEn", o.reluEn, 0).str();
  }
  std::string operator()(const isa::SetFlag& o) const {
    return Line("SetFlag").kv("event", format_event(o.event)).kv("id", o.id).str();
  }
  std::string operator()(const isa::WaitFlag& o) const {
    return Line("WaitFlag").kv("event", format_event(o.event)).kv("id", o.id).str();
  }
  std::string operator()(const isa::PipeBarrier& o) const {
    return Line("PipeBarrier").kv("pipe", o.all ? std::string("PIPE_ALL") : std::string("PIPE_") + isa::to_string(o.pipe))
        .str();
  }
};

const char* space_name(isa::Space s) {
  switch (s) {
    case isa::Space::L1: return "L1";
    case isa::Space::L0A: return "L0A";
    case isa::Space::L0B: return "L0B";
    case isa::Space::L0C: return "L0C";
    default: return nullptr;
  }
}

std::string directive(const char* word, const std::string& name) {
  if (name.empty() || name.find_first_of(" \t#=+") != std::string::npos)
    throw std::invalid_argument(std::string(word) + ": invalid GM tensor name '" + name + "'");
  return std::string(word) + " " + name;
}

}  // namespace

std::string format_addr(const isa::Addr& a, const std::vector<std::string>& gm_names) {
  if (a.space == isa::Space::GM) {
    if (a.tensor >= gm_names.size())
      throw std::invalid_argument("GM tensor #" + std::to_string(a.tensor) + " has no name (" +
                                  std::to_string(gm_names.size()) + " declared)");
    const std::string& name = gm_names[a.tensor];
    return a.offset == 0 ? name : name + "+" + hex(a.offset);
  }
  const char* s = space_name(a.space);
  if (!s) throw std::invalid_argument("the sparse index buffer is not addressable by a trace operand");
  return std::string(s) + ":" + hex(a.offset);
}

std::string format_event(isa::EventPair e) {
  return std::string(isa::to_string(e.src)) + "_" + isa::to_string(e.dst);
}

std::string format_instruction(const isa::Op& op, const std::vector<std::string>& gm_names) {
  return std::visit(Formatter{gm_names}, op);
}

std::string format_gm(const std::string& name, uint64_t size, const std::string& file) {
  std::string s = directive(".gm", name) + " size=" + std::to_string(size);
  if (!file.empty()) s += " file=" + file;
  return s;
}

std::string format_out(const std::string& name, const std::string& file, const std::string& dtype) {
  std::string s = directive(".out", name) + " file=" + file;
  if (!dtype.empty()) s += " dtype=" + dtype;
  return s;
}

std::string format_expect(const std::string& name, const std::string& file, const std::string& dtype) {
  std::string s = directive(".expect", name) + " file=" + file;
  if (!dtype.empty()) s += " dtype=" + dtype;
  return s;
}

}  // namespace aicore::trace
