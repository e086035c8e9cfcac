// The reader on valid traces: the seed example, defaults, every key, operand forms, lexical
// rules, and streaming.
#include <catch2/catch.hpp>

#include <streambuf>

#include "aicore/trace/reader.hpp"
#include "helpers.hpp"

using namespace aicore;
using namespace aicore::trace;
using isa::Space;
using trace_test::read_all;

namespace {

void check_addr(const isa::Addr& a, Space space, uint64_t offset, uint32_t tensor = 0) {
  CHECK(a.space == space);
  CHECK(a.offset == offset);
  if (space == Space::GM) CHECK(a.tensor == tensor);
}

template <class T>
const T& op_of(const Statement& s) {
  REQUIRE(s.kind == Statement::Kind::Instr);
  REQUIRE(std::holds_alternative<T>(s.instr.op));
  return std::get<T>(s.instr.op);
}

// The one instruction of a trace made of `decls` and `line`.
template <class T>
T parse_one(const std::string& line, const std::string& decls = ".gm a size=4096\n.gm c size=4096\n") {
  const auto all = read_all(decls + line + "\n");
  REQUIRE(!all.empty());
  return op_of<T>(all.back());
}

void check_event(const isa::EventPair& e, isa::Pipe src, isa::Pipe dst) {
  CHECK(e.src == src);
  CHECK(e.dst == dst);
}

// An input stream of `prefix`, then `count` copies of `fill`, then `suffix`, generated on the fly
// so a test can feed a 100 MB line without holding it.
class GeneratedBuf : public std::streambuf {
 public:
  GeneratedBuf(std::string prefix, char fill, uint64_t count, std::string suffix)
      : prefix_(std::move(prefix)),
        suffix_(std::move(suffix)),
        fill_(fill),
        count_(count),
        chunk_(1 << 16, fill) {}

 protected:
  int_type underflow() override {
    if (stage_ == 0) {
      stage_ = 1;
      if (!prefix_.empty()) return set(prefix_.data(), prefix_.size());
    }
    if (stage_ == 1) {
      if (count_ > 0) {
        const size_t n = static_cast<size_t>(std::min<uint64_t>(count_, chunk_.size()));
        count_ -= n;
        return set(chunk_.data(), n);
      }
      stage_ = 2;
      if (!suffix_.empty()) return set(suffix_.data(), suffix_.size());
    }
    return traits_type::eof();
  }

 private:
  int_type set(char* p, size_t n) {
    setg(p, p, p + n);
    return traits_type::to_int_type(*p);
  }
  std::string prefix_, suffix_;
  char fill_;
  uint64_t count_;
  std::string chunk_;
  int stage_ = 0;
};

}  // namespace

TEST_CASE("the seed example parses to the exact statements", "[reader][seed]") {
  const std::string dir = trace_test::data_dir();
  const std::string path = dir + "/seed.trace";
  Reader r(path);
  CHECK(r.name() == path);
  std::vector<Statement> all;
  Statement s;
  while (r.next(s)) all.push_back(s);
  REQUIRE(all.size() == 18);

  struct Gm {
    const char* name;
    uint64_t size;
    const char* file;
  };
  const Gm gms[] = {{"a", 1024, "a.bin"}, {"b", 512, "b.bin"}, {"idx", 128, "idx.bin"}, {"c", 1024, ""}};
  for (uint32_t i = 0; i < 4; ++i) {
    INFO("gm " << i);
    REQUIRE(all[i].kind == Statement::Kind::Gm);
    const GmDecl& g = all[i].gm;
    CHECK(g.name == gms[i].name);
    CHECK(g.id == i);
    CHECK(g.size == gms[i].size);
    CHECK(g.file == (*gms[i].file ? dir + "/" + gms[i].file : std::string()));
    CHECK(g.loc.file == path);
    CHECK(g.loc.line == i + 1);
    CHECK(g.loc.column == 1);
  }
  REQUIRE(r.tensors().size() == 4);
  CHECK(r.tensors()[2].name == "idx");
  CHECK(r.tensors()[2].id == 2);

  REQUIRE(all[4].kind == Statement::Kind::Expect);
  CHECK(all[4].expect.tensor == 3);
  CHECK(all[4].expect.file == dir + "/c_golden.bin");
  CHECK(all[4].expect.dtype == isa::DType::Int32);
  CHECK(all[4].expect.loc.line == 5);
  CHECK(all[4].expect.loc.column == 1);

  for (size_t i = 5; i < all.size(); ++i) {
    INFO("instruction " << i - 5);
    REQUIRE(all[i].kind == Statement::Kind::Instr);
    CHECK(all[i].instr.index == i - 5);
    CHECK(all[i].instr.line == i + 2);  // one blank line after the directives
  }

  const auto& dc0 = op_of<isa::DataCopy>(all[5]);
  check_addr(dc0.dst, Space::L1, 0);
  check_addr(dc0.src, Space::GM, 0, 0);
  CHECK(dc0.blockLen == 32);
  CHECK(dc0.blockCount == 1);
  CHECK(dc0.srcGap == 0);
  CHECK(dc0.dstGap == 0);
  const auto& dc1 = op_of<isa::DataCopy>(all[6]);
  check_addr(dc1.dst, Space::L1, 0x8000);
  check_addr(dc1.src, Space::GM, 0, 1);
  CHECK(dc1.blockLen == 16);
  const auto& dc2 = op_of<isa::DataCopy>(all[7]);
  check_addr(dc2.dst, Space::L1, 0x10000);
  check_addr(dc2.src, Space::GM, 0, 2);
  CHECK(dc2.blockLen == 4);

  check_event(op_of<isa::SetFlag>(all[8]).event, isa::Pipe::MTE2, isa::Pipe::MTE1);
  CHECK(op_of<isa::SetFlag>(all[8]).id == 0);
  check_event(op_of<isa::WaitFlag>(all[9]).event, isa::Pipe::MTE2, isa::Pipe::MTE1);

  const auto& ld = op_of<isa::LoadData>(all[10]);
  check_addr(ld.dst, Space::L0A, 0);
  check_addr(ld.src, Space::L1, 0);
  CHECK(ld.repeatTimes == 2);
  CHECK(ld.srcStride == 1);
  CHECK(ld.startIndex == 0);
  CHECK(ld.dstGap == 0);
  CHECK(ld.dtype == isa::DType::Int8);
  CHECK_FALSE(ld.ifTranspose);
  CHECK(ld.sid == 0);
  CHECK(ld.addrMode == 0);

  const auto& lds = op_of<isa::LoadDataWithSparse>(all[11]);
  check_addr(lds.dst, Space::L0B, 0);
  check_addr(lds.src, Space::L1, 0x8000);
  check_addr(lds.idx, Space::L1, 0x10000);
  CHECK(lds.repeatTimes == 1);
  CHECK(lds.startIndex == 0);

  check_event(op_of<isa::SetFlag>(all[12]).event, isa::Pipe::MTE1, isa::Pipe::M);
  check_event(op_of<isa::WaitFlag>(all[13]).event, isa::Pipe::MTE1, isa::Pipe::M);

  const auto& mm = op_of<isa::MmadWithSparse>(all[14]);
  check_addr(mm.dst, Space::L0C, 0);
  check_addr(mm.fm, Space::L0A, 0);
  check_addr(mm.filter, Space::L0B, 0);
  CHECK(mm.m == 16);
  CHECK(mm.n == 16);
  CHECK(mm.k == 64);
  CHECK(mm.cmatrixInitVal);
  CHECK_FALSE(mm.cmatrixSource);
  CHECK_FALSE(mm.isBias);
  CHECK(mm.unitFlag == 0);

  check_event(op_of<isa::SetFlag>(all[15]).event, isa::Pipe::M, isa::Pipe::FIX);
  check_event(op_of<isa::WaitFlag>(all[16]).event, isa::Pipe::M, isa::Pipe::FIX);

  const auto& fp = op_of<isa::Fixpipe>(all[17]);
  check_addr(fp.dst, Space::GM, 0, 3);
  check_addr(fp.src, Space::L0C, 0);
  CHECK(fp.nSize == 16);
  CHECK(fp.mSize == 16);
  CHECK(fp.srcStride == 16);
  CHECK(fp.dstStride == 16);
  CHECK(fp.dtype == isa::DType::Int32);
  CHECK(fp.ndNum == 1);
  CHECK(fp.srcNdStride == 0);
  CHECK(fp.dstNdStride == 0);
  CHECK_FALSE(fp.reluEn);
  CHECK(isa::pipe_of(all[17].instr.op) == isa::Pipe::FIX);
}

TEST_CASE("omitted fields take the Ascend C defaults", "[reader][defaults]") {
  const auto nd = parse_one<isa::DataCopyNd2Nz>(
      "DataCopyNd2Nz dst=L1:0 src=a nValue=16 dValue=64 srcDValue=64 dstNzC0Stride=16");
  CHECK(nd.dtype == isa::DType::Int8);
  CHECK(nd.ndNum == 1);
  CHECK(nd.srcNdMatrixStride == 0);
  CHECK(nd.dstNzNStride == 1);
  CHECK(nd.dstNzMatrixStride == 0);
  CHECK(nd.nValue == 16);
  CHECK(nd.dValue == 64);
  CHECK(nd.srcDValue == 64);
  CHECK(nd.dstNzC0Stride == 16);

  const auto mm = parse_one<isa::Mmad>("Mmad dst=L0C:0 fm=L0A:0 filter=L0B:0 m=1 n=2 k=3");
  CHECK(mm.dtype == isa::DType::Int8);
  CHECK(mm.cmatrixInitVal);
  CHECK_FALSE(mm.cmatrixSource);
  CHECK_FALSE(mm.isBias);
  CHECK(mm.unitFlag == 0);
  CHECK_FALSE(mm.accumulates());

  const auto lds =
      parse_one<isa::LoadDataWithSparse>("LoadDataWithSparse dst=L0B:0 src=L1:0 idx=L1:512 repeatTimes=0");
  CHECK(lds.srcStride == 0);
  CHECK(lds.dstGap == 0);
  CHECK_FALSE(lds.ifTranspose);
  CHECK(lds.sid == 0);
  CHECK(lds.addrMode == 0);

  const auto all = read_all(".gm x size=64\n.out x file=x.npy\n.expect x file=/abs/g.bin\n");
  REQUIRE(all.size() == 3);
  REQUIRE(all[1].kind == Statement::Kind::Out);
  CHECK(all[1].out.dtype == isa::DType::Int8);
  CHECK(all[1].out.file == "x.npy");
  CHECK(all[1].out.tensor == 0);
  CHECK(all[1].out.loc.line == 2);
  REQUIRE(all[2].kind == Statement::Kind::Expect);
  CHECK(all[2].expect.dtype == isa::DType::Int32);
  CHECK(all[2].expect.file == "/abs/g.bin");  // absolute paths are not re-based
  CHECK(all[1].out.shape.empty());            // no shape= given
  CHECK(all[2].expect.shape.empty());
}

TEST_CASE(".out and .expect take shape= in elements of their dtype", "[reader][shape]") {
  const auto all = read_all(
      ".gm x size=1024\n.out x file=x.npy dtype=int32 shape=16,16\n.expect x file=g.bin shape=4,8,8\n"
      ".out x file=y.npy shape=1024\n");
  REQUIRE(all.size() == 4);
  CHECK(all[1].out.shape == std::vector<uint64_t>{16, 16});
  CHECK(all[2].expect.shape == std::vector<uint64_t>{4, 8, 8});  // int32 by default: 256 elements
  CHECK(all[3].out.shape == std::vector<uint64_t>{1024});        // int8 by default
}

TEST_CASE("every key of every instruction can be given", "[reader][keys]") {
  const auto dc = parse_one<isa::DataCopy>(
      "DataCopy dst=B1:64 src=c+0x40 blockLen=0xFFFF blockCount=65535 srcGap=7 dstGap=0x10");
  check_addr(dc.dst, Space::L1, 64);
  check_addr(dc.src, Space::GM, 0x40, 1);
  CHECK(dc.blockLen == 65535);
  CHECK(dc.blockCount == 65535);
  CHECK(dc.srcGap == 7);
  CHECK(dc.dstGap == 16);

  const auto nd = parse_one<isa::DataCopyNd2Nz>(
      "DataCopyNd2Nz dst=A1:32 src=a+256 dtype=half ndNum=2 nValue=3 dValue=4 srcNdMatrixStride=5 "
      "srcDValue=6 "
      "dstNzC0Stride=7 dstNzNStride=8 dstNzMatrixStride=9");
  check_addr(nd.dst, Space::L1, 32);
  check_addr(nd.src, Space::GM, 256, 0);
  CHECK(nd.dtype == isa::DType::Half);
  CHECK(nd.ndNum == 2);
  CHECK(nd.nValue == 3);
  CHECK(nd.dValue == 4);
  CHECK(nd.srcNdMatrixStride == 5);
  CHECK(nd.srcDValue == 6);
  CHECK(nd.dstNzC0Stride == 7);
  CHECK(nd.dstNzNStride == 8);
  CHECK(nd.dstNzMatrixStride == 9);

  const auto ld = parse_one<isa::LoadData>(
      "LoadData dst=B2:512 src=L1:1024 dtype=bf16 startIndex=3 repeatTimes=255 srcStride=4 dstGap=5 "
      "ifTranspose=true "
      "sid=0xFF addrMode=1");
  check_addr(ld.dst, Space::L0B, 512);
  check_addr(ld.src, Space::L1, 1024);
  CHECK(ld.dtype == isa::DType::BF16);
  CHECK(ld.startIndex == 3);
  CHECK(ld.repeatTimes == 255);
  CHECK(ld.srcStride == 4);
  CHECK(ld.dstGap == 5);
  CHECK(ld.ifTranspose);
  CHECK(ld.sid == 255);
  CHECK(ld.addrMode == 1);

  // The struct members LoadDataWithSparse does not use are accepted as 0 (non-zero: see the
  // error tests).
  const auto lds = parse_one<isa::LoadDataWithSparse>(
      "LoadDataWithSparse dst=L0B:0 src=A1:0 idx=B1:0x100 startIndex=2 repeatTimes=3 srcStride=0 dstGap=0x0 "
      "ifTranspose=false sid=0 addrMode=0");
  CHECK(lds.startIndex == 2);
  CHECK(lds.repeatTimes == 3);
  CHECK(lds.srcStride == 0);
  CHECK(lds.dstGap == 0);
  CHECK_FALSE(lds.ifTranspose);
  CHECK(lds.sid == 0);
  CHECK(lds.addrMode == 0);

  const auto mm = parse_one<isa::Mmad>(
      "Mmad dst=CO1:1024 fm=A2:512 filter=B2:512 m=4095 n=0x10 k=32 dtype=half cmatrixInitVal=false "
      "cmatrixSource=true isBias=1 unitFlag=3");
  check_addr(mm.dst, Space::L0C, 1024);
  check_addr(mm.fm, Space::L0A, 512);
  check_addr(mm.filter, Space::L0B, 512);
  CHECK(mm.m == 4095);
  CHECK(mm.n == 16);
  CHECK(mm.k == 32);
  CHECK(mm.dtype == isa::DType::Half);
  CHECK_FALSE(mm.cmatrixInitVal);
  CHECK(mm.cmatrixSource);
  CHECK(mm.isBias);
  CHECK(mm.unitFlag == 3);

  const auto ms = parse_one<isa::MmadWithSparse>(
      "MmadWithSparse dst=L0C:0 fm=L0A:0 filter=L0B:0 m=16 n=16 k=128 cmatrixInitVal=0 cmatrixSource=0 "
      "isBias=0 "
      "unitFlag=2");
  CHECK(ms.k == 128);
  CHECK_FALSE(ms.cmatrixInitVal);
  CHECK(ms.accumulates());
  CHECK(ms.unitFlag == 2);

  const auto fp = parse_one<isa::Fixpipe>(
      "Fixpipe dst=c+0x100 src=L0C:64 dtype=float nSize=32 mSize=17 srcStride=32 dstStride=4294967295 "
      "ndNum=2 "
      "srcNdStride=3 dstNdStride=4 reluEn=true");
  check_addr(fp.dst, Space::GM, 256, 1);
  check_addr(fp.src, Space::L0C, 64);
  CHECK(fp.dtype == isa::DType::Float);
  CHECK(fp.nSize == 32);
  CHECK(fp.mSize == 17);
  CHECK(fp.srcStride == 32);
  CHECK(fp.dstStride == 4294967295u);
  CHECK(fp.ndNum == 2);
  CHECK(fp.srcNdStride == 3);
  CHECK(fp.dstNdStride == 4);
  CHECK(fp.reluEn);
}

TEST_CASE("memory space names and GM operand forms", "[reader][operands]") {
  const char* const l1[] = {"L1", "A1", "B1"};
  for (const char* s : l1)
    check_addr(parse_one<isa::DataCopy>(std::string("DataCopy dst=") + s + ":96 src=a blockLen=1").dst,
               Space::L1, 96);
  check_addr(parse_one<isa::LoadData>("LoadData dst=L0A:0 src=L1:0 repeatTimes=1").dst, Space::L0A, 0);
  check_addr(parse_one<isa::LoadData>("LoadData dst=A2:0 src=L1:0 repeatTimes=1").dst, Space::L0A, 0);
  check_addr(parse_one<isa::LoadData>("LoadData dst=L0B:0 src=L1:0 repeatTimes=1").dst, Space::L0B, 0);
  check_addr(parse_one<isa::LoadData>("LoadData dst=B2:0x200 src=L1:0 repeatTimes=1").dst, Space::L0B, 512);
  check_addr(
      parse_one<isa::Fixpipe>("Fixpipe dst=c src=L0C:0 nSize=16 mSize=16 srcStride=16 dstStride=16").src,
      Space::L0C, 0);
  check_addr(
      parse_one<isa::Fixpipe>("Fixpipe dst=c src=CO1:0x40 nSize=16 mSize=16 srcStride=16 dstStride=16").src,
      Space::L0C, 64);
  // GM: name, name+decimal, name+hex; the tensor id is the declaration's index.
  check_addr(parse_one<isa::DataCopy>("DataCopy dst=L1:0 src=c blockLen=1").src, Space::GM, 0, 1);
  check_addr(parse_one<isa::DataCopy>("DataCopy dst=L1:0 src=c+256 blockLen=1").src, Space::GM, 256, 1);
  check_addr(parse_one<isa::DataCopy>("DataCopy dst=L1:0 src=c+0x100 blockLen=1").src, Space::GM, 256, 1);
  check_addr(parse_one<isa::DataCopy>("DataCopy dst=L1:0 src=a+0X1f blockLen=1").src, Space::GM, 31, 0);
  // Offsets are not range-checked at parse time (isa::check does that at run time).
  check_addr(parse_one<isa::DataCopy>("DataCopy dst=L1:18446744073709551615 src=c blockLen=1").dst, Space::L1,
             UINT64_MAX);
}

TEST_CASE("sync instructions: every pipe name, ids 0..7, pairs left to run-time checks", "[reader][sync]") {
  using P = isa::Pipe;
  struct Case {
    const char* text;
    P src, dst;
  };
  const Case cases[] = {{"MTE2_MTE1", P::MTE2, P::MTE1},
                        {"MTE1_M", P::MTE1, P::M},
                        {"M_FIX", P::M, P::FIX},
                        {"FIX_M", P::FIX, P::M},
                        {"M_MTE1", P::M, P::MTE1},
                        {"S_MTE2", P::S, P::MTE2},
                        {"MTE3_S", P::MTE3, P::S},
                        {"M_MTE3", P::M, P::MTE3},  // illegal pair: parses
                        {"M_M", P::M, P::M}};
  for (const auto& c : cases) {
    INFO(c.text);
    const auto sf = parse_one<isa::SetFlag>(std::string("SetFlag event=") + c.text + " id=7");
    check_event(sf.event, c.src, c.dst);
    CHECK(sf.id == 7);
    const auto wf = parse_one<isa::WaitFlag>(std::string("WaitFlag id=0x3 event=") + c.text);
    check_event(wf.event, c.src, c.dst);
    CHECK(wf.id == 3);
  }
  CHECK(parse_one<isa::SetFlag>("SetFlag event=M_FIX id=0").id == 0);
  CHECK(parse_one<isa::WaitFlag>("WaitFlag event=M_FIX id=0x7").id == 7);

  struct Barrier {
    const char* text;
    P pipe;
    bool all;
  };
  const Barrier barriers[] = {{"PIPE_MTE2", P::MTE2, false}, {"PIPE_MTE1", P::MTE1, false},
                              {"PIPE_M", P::M, false},       {"PIPE_FIX", P::FIX, false},
                              {"PIPE_S", P::S, false},       {"PIPE_MTE3", P::MTE3, false},
                              {"PIPE_ALL", P::S, true}};
  for (const auto& b : barriers) {
    INFO(b.text);
    const auto pb = parse_one<isa::PipeBarrier>(std::string("PipeBarrier pipe=") + b.text);
    CHECK(pb.pipe == b.pipe);
    CHECK(pb.all == b.all);
  }
}

TEST_CASE("lexical rules: comments, blank lines, tabs, CRLF, BOM, UTF-8 comments", "[reader][lexical]") {
  const std::string text =
      "\xEF\xBB\xBF# a comment line with UTF-8: \xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\n"
      "\n"
      "   \t  \n"
      ".gm\ta\tsize=0x400   # trailing comment\r\n"
      "\tSetFlag   event=MTE2_MTE1\tid=1#glued comment\r\n"
      "    # indented comment\n"
      "WaitFlag event=MTE2_MTE1 id=1";  // no final newline
  const auto all = read_all(text);
  REQUIRE(all.size() == 3);
  CHECK(all[0].kind == Statement::Kind::Gm);
  CHECK(all[0].gm.size == 1024);
  CHECK(all[0].gm.loc.line == 4);
  CHECK(all[1].instr.index == 0);
  CHECK(all[1].instr.line == 5);
  CHECK(std::get<isa::SetFlag>(all[1].instr.op).id == 1);
  CHECK(all[2].instr.index == 1);
  CHECK(all[2].instr.line == 7);

  CHECK(read_all("").empty());
  CHECK(read_all("\n\n# only comments\n").empty());
}

TEST_CASE("data-file paths resolve against the trace's directory", "[reader][paths]") {
  const auto all =
      read_all(".gm a size=4 file=sub/a.bin\n.expect a file=g.npy\n.out a file=o/a.bin\n", "/data/run");
  CHECK(all[0].gm.file == "/data/run/sub/a.bin");
  CHECK(all[1].expect.file == "/data/run/g.npy");
  CHECK(all[2].out.file == "o/a.bin");  // relative to the output directory: left as written
  CHECK(read_all(".gm a size=4 file=a.bin\n")[0].gm.file == "a.bin");  // empty base: current directory
}

TEST_CASE("directives may appear between instructions and the index counts instructions only",
          "[reader][index]") {
  const auto all = read_all(
      ".gm a size=64\n"
      "PipeBarrier pipe=PIPE_ALL\n"
      ".gm b size=64\n"
      "DataCopy dst=L1:0 src=b blockLen=2\n"
      ".out b file=b.bin dtype=int32\n");
  REQUIRE(all.size() == 5);
  CHECK(all[1].instr.index == 0);
  CHECK(all[3].instr.index == 1);
  CHECK(all[3].instr.line == 4);
  CHECK(std::get<isa::DataCopy>(all[3].instr.op).src.tensor == 1);
  CHECK(all[4].out.tensor == 1);
  CHECK(all[4].out.dtype == isa::DType::Int32);
}

TEST_CASE("streaming: a 200k-line trace is read statement by statement", "[reader][stream]") {
  std::string text = ".gm a size=65536\n";
  const uint64_t n = 200000;
  text.reserve(n * 48);
  for (uint64_t i = 0; i < n; ++i) {
    if (i % 4 == 3) {
      text += "# comment " + std::to_string(i) + "\n";
    } else {
      text += "DataCopy dst=L1:" + std::to_string((i % 1024) * 32) + " src=a+" + std::to_string(i % 2048) +
              " blockLen=1\n";
    }
  }
  std::istringstream in(text);
  Reader r(in, "big.trace", "");
  Statement s;
  REQUIRE(r.next(s));
  CHECK(s.kind == Statement::Kind::Gm);
  uint64_t count = 0, last_line = 0, offsets = 0;
  while (r.next(s)) {
    REQUIRE(s.instr.index == count);
    ++count;
    last_line = s.instr.line;
    offsets += std::get<isa::DataCopy>(s.instr.op).src.offset;
  }
  CHECK(count == n - n / 4);
  CHECK(last_line == n);  // the last instruction is on line 1 + (n - 1)
  uint64_t want = 0;
  for (uint64_t i = 0; i < n; ++i)
    if (i % 4 != 3) want += i % 2048;
  CHECK(offsets == want);
  CHECK(r.tensors().size() == 1);
}

TEST_CASE("a 100 MB comment is skipped without being held", "[reader][stream]") {
  GeneratedBuf buf("#", 'x', uint64_t{100} << 20, "\nSetFlag event=M_FIX id=0\n");
  std::istream in(&buf);
  Reader r(in, "long.trace", "");
  Statement s;
  REQUIRE(r.next(s));
  CHECK(s.instr.line == 2);
  CHECK_FALSE(r.next(s));
}

TEST_CASE("a 100 MB statement line is a clean error", "[reader][stream]") {
  GeneratedBuf buf("DataCopy dst=L1:0 src=", 'a', uint64_t{100} << 20, "\n");
  std::istream in(&buf);
  Reader r(in, "long.trace", "");
  Statement s;
  CHECK_THROWS_WITH(r.next(s), Catch::StartsWith("long.trace:1:1048577: error: line is too long"));
}

TEST_CASE("a Reader can be moved", "[reader]") {
  std::istringstream in("SetFlag event=M_FIX id=0\nWaitFlag event=M_FIX id=0\n");
  Reader a(in, "m.trace", "");
  Statement s;
  REQUIRE(a.next(s));
  Reader b(std::move(a));
  REQUIRE(b.next(s));
  CHECK(s.instr.index == 1);
  CHECK(b.name() == "m.trace");
}

TEST_CASE("lines and tokens are scanned eight bytes at a time: every byte offset gives the same parse",
          "[reader][lexer]") {
  // Each separator (space, tab, CR), the comment and the end of the token at every position in
  // the 8-byte words the scans step by.
  for (size_t pad = 0; pad < 16; ++pad) {
    INFO("pad " << pad);
    const std::string spaces(pad, ' '), tabs(pad % 3 + 1, '\t');
    const auto s = parse_one<isa::SetFlag>("SetFlag" + spaces + " event=M_FIX" + tabs + "id=3\r" + spaces +
                                           "# the rest is a comment: id=9 \x01");
    CHECK(s.event.src == isa::Pipe::M);
    CHECK(s.id == 3);
    // A long token, cut by a tab, a CR or the end of the line at every offset.
    const std::string name = "a" + std::string(pad, 'b');
    for (const char* end : {"\t", "\r", "", " #"}) {
      const auto st = read_all(".gm " + name + " size=" + std::to_string(64 + pad) + end + "\n");
      REQUIRE(st.size() == 1);
      CHECK(st[0].gm.name == name);
      CHECK(st[0].gm.size == 64 + pad);
    }
  }
}

TEST_CASE("numbers: the widest that fit and the narrowest that do not", "[reader][numbers]") {
  const auto dst = [](const std::string& offset) {
    return parse_one<isa::DataCopy>("DataCopy dst=L1:" + offset + " src=c blockLen=1").dst.offset;
  };
  CHECK(dst("9999999999999999999") == 9999999999999999999ull);  // 19 digits: no overflow possible
  CHECK(dst("18446744073709551615") == UINT64_MAX);             // 20 digits: checked per digit
  CHECK(dst("0xFFFFFFFFFFFFFFFF") == UINT64_MAX);               // 16 hex digits
  CHECK(dst("0x0000000000000000001") == 1);                     // 19 hex digits, leading zeros
  CHECK_THAT(trace_test::parse_error(".gm c size=4\nDataCopy dst=L1:18446744073709551616 src=c blockLen=1\n"),
             Catch::Contains("value '18446744073709551616' out of range"));
  CHECK_THAT(trace_test::parse_error(".gm c size=4\nDataCopy dst=L1:0x10000000000000000 src=c blockLen=1\n"),
             Catch::Contains("value '0x10000000000000000' out of range"));
}
