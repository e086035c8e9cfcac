#include "aicore/trace/writer.hpp"

#include <charconv>
#include <stdexcept>

namespace aicore::trace {

namespace {

// "0" or "0x..." (lower case), appended.
void append_hex(std::string& s, uint64_t v) {
  if (v == 0) {
    s += '0';
    return;
  }
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v, 16);
  s += "0x";
  s.append(buf, static_cast<size_t>(r.ptr - buf));
}

void append_uint(std::string& s, uint64_t v) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  s.append(buf, static_cast<size_t>(r.ptr - buf));
}

void append_addr(std::string& s, const isa::Addr& a, const std::vector<std::string>& gm_names);
void append_event(std::string& s, isa::EventPair e) {
  s += isa::to_string(e.src);
  s += '_';
  s += isa::to_string(e.dst);
}

// Appends "Mnemonic key=value ..." to a caller's string (no allocation once it has grown:
// the timeline writes one per instruction); opt() drops a field equal to its default so that
// the emitted line is as short as the Ascend C call it transliterates.
class Line {
 public:
  Line(std::string& s, const char* mnemonic, const std::vector<std::string>& gm) : s_(s), gm_(gm) {
    s_ += mnemonic;
  }
  Line& key(const char* k) {
    s_ += ' ';
    s_ += k;
    s_ += '=';
    return *this;
  }
  Line& kv(const char* k, const char* value) {
    key(k).s_ += value;
    return *this;
  }
  Line& kv(const char* k, uint64_t value) {
    append_uint(key(k).s_, value);
    return *this;
  }
  Line& kv(const char* k, const isa::Addr& a) {
    append_addr(key(k).s_, a, gm_);
    return *this;
  }
  Line& kv(const char* k, isa::EventPair e) {
    append_event(key(k).s_, e);
    return *this;
  }
  Line& opt(const char* k, uint64_t value, uint64_t def) { return value == def ? *this : kv(k, value); }
  Line& opt(const char* k, isa::DType t, isa::DType def) {
    return t == def ? *this : kv(k, isa::to_string(t));
  }
  Line& opt(const char* k, isa::QuantMode q, isa::QuantMode def) {
    return q == def ? *this : kv(k, isa::to_string(q));
  }
  Line& opt_hex(const char* k, uint64_t value, uint64_t def) {  // bit fields read best in hex
    if (value != def) append_hex(key(k).s_, value);
    return *this;
  }

 private:
  std::string& s_;
  const std::vector<std::string>& gm_;
};

struct Formatter {
  std::string& s;
  const std::vector<std::string>& gm;
  Line line(const char* mnemonic) const { return Line(s, mnemonic, gm); }

  void operator()(const isa::DataCopy& o) const {
    line("DataCopy")
        .kv("dst", o.dst)
        .kv("src", o.src)
        .kv("blockLen", o.blockLen)
        .opt("blockCount", o.blockCount, 1)
        .opt("srcGap", o.srcGap, 0)
        .opt("dstGap", o.dstGap, 0);
  }
  void operator()(const isa::DataCopyNd2Nz& o) const {
    line("DataCopyNd2Nz")
        .kv("dst", o.dst)
        .kv("src", o.src)
        .opt("dtype", o.dtype, isa::DType::Int8)
        .opt("ndNum", o.ndNum, 1)
        .kv("nValue", o.nValue)
        .kv("dValue", o.dValue)
        .opt("srcNdMatrixStride", o.srcNdMatrixStride, 0)
        .kv("srcDValue", o.srcDValue)
        .kv("dstNzC0Stride", o.dstNzC0Stride)
        .opt("dstNzNStride", o.dstNzNStride, 1)
        .opt("dstNzMatrixStride", o.dstNzMatrixStride, 0);
  }
  // The fields LoadData and LoadDataWithSparse share after their operands.
  template <class Load>
  static void load_tail(Line& l, const Load& o) {
    l.opt("startIndex", o.startIndex, 0)
        .kv("repeatTimes", o.repeatTimes)
        .opt("srcStride", o.srcStride, 0)
        .opt("dstGap", o.dstGap, 0)
        .opt("ifTranspose", o.ifTranspose, 0)
        .opt("sid", o.sid, 0)
        .opt("addrMode", o.addrMode, 0);
  }
  void operator()(const isa::LoadData& o) const {
    Line l = line("LoadData");
    l.kv("dst", o.dst).kv("src", o.src).opt("dtype", o.dtype, isa::DType::Int8);
    load_tail(l, o);
  }
  void operator()(const isa::LoadDataWithSparse& o) const {
    // The unused struct fields are written only when set, so an illegal op stays visible
    // in the trace (the reader then rejects the line) instead of being silently cleaned.
    Line l = line("LoadDataWithSparse");
    l.kv("dst", o.dst).kv("src", o.src).kv("idx", o.idx);
    load_tail(l, o);
  }
  Line mmad(const char* name, const isa::MmadCommon& o) const {
    Line l = line(name);
    l.kv("dst", o.dst).kv("fm", o.fm).kv("filter", o.filter).kv("m", o.m).kv("n", o.n).kv("k", o.k);
    return l;
  }
  static void mmad_tail(Line& l, const isa::MmadCommon& o) {
    l.opt("cmatrixInitVal", o.cmatrixInitVal, 1)
        .opt("cmatrixSource", o.cmatrixSource, 0)
        .opt("isBias", o.isBias, 0)
        .opt("unitFlag", o.unitFlag, 0);
  }
  void operator()(const isa::Mmad& o) const {
    Line l = mmad("Mmad", o);
    l.opt("dtype", o.dtype, isa::DType::Int8);
    mmad_tail(l, o);
  }
  void operator()(const isa::MmadWithSparse& o) const {
    Line l = mmad("MmadWithSparse", o);
    mmad_tail(l, o);
  }
  void operator()(const isa::Fixpipe& o) const {
    line("Fixpipe")
        .kv("dst", o.dst)
        .kv("src", o.src)
        .opt("dtype", o.dtype, isa::DType::Int32)
        .kv("nSize", o.nSize)
        .kv("mSize", o.mSize)
        .kv("srcStride", o.srcStride)
        .kv("dstStride", o.dstStride)
        .opt("quantPre", o.quantPre, isa::QuantMode::NoQuant)
        .opt_hex("deqScalar", o.deqScalar, 0)
        .opt("ndNum", o.ndNum, 1)
        .opt("srcNdStride", o.srcNdStride, 0)
        .opt("dstNdStride", o.dstNdStride, 0)
        .opt("reluEn", o.reluEn, 0)
        .opt("unitFlag", o.unitFlag, 0);
  }
  void operator()(const isa::SetFlag& o) const { line("SetFlag").kv("event", o.event).kv("id", o.id); }
  void operator()(const isa::WaitFlag& o) const { line("WaitFlag").kv("event", o.event).kv("id", o.id); }
  void operator()(const isa::PipeBarrier& o) const {
    Line l = line("PipeBarrier");
    l.key("pipe");
    s += o.all ? "PIPE_ALL" : "PIPE_";
    if (!o.all) s += isa::to_string(o.pipe);
  }
};

const char* space_name(isa::Space s) {
  switch (s) {
    case isa::Space::L1:
      return "L1";
    case isa::Space::L0A:
      return "L0A";
    case isa::Space::L0B:
      return "L0B";
    case isa::Space::L0C:
      return "L0C";
    default:
      return nullptr;
  }
}

std::string directive(const char* word, const std::string& name) {
  if (name.empty() || name.find_first_of(" \t#=+") != std::string::npos)
    throw std::invalid_argument(std::string(word) + ": invalid GM tensor name '" + name + "'");
  return std::string(word) + " " + name;
}

// ".out NAME file=PATH [dtype=D] [shape=D0,D1]" and ".expect ..." (same fields).
std::string file_directive(const char* word, const std::string& name, const std::string& file,
                           const std::string& dtype, const std::vector<uint64_t>& shape) {
  std::string s = directive(word, name) + " file=" + file;
  if (!dtype.empty()) s += " dtype=" + dtype;
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? "," : " shape=") + std::to_string(shape[i]);
  return s;
}

}  // namespace

namespace {
void append_addr(std::string& s, const isa::Addr& a, const std::vector<std::string>& gm_names) {
  if (a.space == isa::Space::GM) {
    if (a.tensor >= gm_names.size())
      throw std::invalid_argument("GM tensor #" + std::to_string(a.tensor) + " has no name (" +
                                  std::to_string(gm_names.size()) + " declared)");
    s += gm_names[a.tensor];
    if (a.offset != 0) {
      s += '+';
      append_hex(s, a.offset);
    }
    return;
  }
  const char* name = space_name(a.space);
  if (!name) throw std::invalid_argument("the sparse index buffer is not addressable by a trace operand");
  s += name;
  s += ':';
  append_hex(s, a.offset);
}
}  // namespace

std::string format_addr(const isa::Addr& a, const std::vector<std::string>& gm_names) {
  std::string s;
  append_addr(s, a, gm_names);
  return s;
}

std::string format_event(isa::EventPair e) {
  std::string s;
  append_event(s, e);
  return s;
}

void append_instruction(std::string& out, const isa::Op& op, const std::vector<std::string>& gm_names) {
  std::visit(Formatter{out, gm_names}, op);
}

std::string format_instruction(const isa::Op& op, const std::vector<std::string>& gm_names) {
  std::string s;
  append_instruction(s, op, gm_names);
  return s;
}

std::string format_gm(const std::string& name, uint64_t size, const std::string& file) {
  std::string s = directive(".gm", name) + " size=" + std::to_string(size);
  if (!file.empty()) s += " file=" + file;
  return s;
}

std::string format_out(const std::string& name, const std::string& file, const std::string& dtype,
                       const std::vector<uint64_t>& shape) {
  return file_directive(".out", name, file, dtype, shape);
}

std::string format_expect(const std::string& name, const std::string& file, const std::string& dtype,
                          const std::vector<uint64_t>& shape) {
  return file_directive(".expect", name, file, dtype, shape);
}

}  // namespace aicore::trace
