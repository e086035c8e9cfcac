// Every parse error: message shape "t.trace:LINE:COLUMN: error: ..." with the column of the
// offending token, the key words, and the "did you mean" suggestion where one applies.
#include <catch2/catch.hpp>

#include <random>

#include "aicore/trace/reader.hpp"
#include "helpers.hpp"

using namespace aicore;
using namespace aicore::trace;
using Catch::Contains;
using Catch::EndsWith;
using Catch::StartsWith;
using trace_test::at;
using trace_test::col;
using trace_test::parse_error;

namespace {
const std::string kDecls = ".gm a size=4096\n.gm c size=4096\n";  // the line under test is line 3

// The error of `line` as line 3 after kDecls.
std::string error_of(const std::string& line) {
  return parse_error(kDecls + line + "\n");
}
}  // namespace

TEST_CASE("unknown mnemonic, key and directive suggest the nearest name", "[errors][suggest]") {
  CHECK_THAT(error_of("DataCpy dst=L1:0 src=a blockLen=1"),
             StartsWith(at(3, 1)) && EndsWith("unknown instruction 'DataCpy'; did you mean 'DataCopy'?"));
  CHECK_THAT(error_of("datacopy dst=L1:0 src=a blockLen=1"), EndsWith("did you mean 'DataCopy'?"));
  CHECK_THAT(error_of("  MmadWithSparce dst=L0C:0"),
             StartsWith(at(3, 3)) && EndsWith("did you mean 'MmadWithSparse'?"));
  CHECK_THAT(error_of("Frobnicate x=1"),
             StartsWith(at(3, 1)) && EndsWith("unknown instruction 'Frobnicate'"));

  const std::string l = "DataCopy dst=L1:0 src=a blocklen=32";
  CHECK_THAT(error_of(l), StartsWith(at(3, col(l, "blocklen"))) &&
                              EndsWith("unknown key 'blocklen' for DataCopy; did you mean 'blockLen'?"));
  const std::string l2 = "Mmad dst=L0C:0 fm=L0A:0 filter=L0B:0 m=16 n=16 k=32 cmatrixInitValue=0";
  CHECK_THAT(error_of(l2),
             StartsWith(at(3, col(l2, "cmatrixInitValue"))) && EndsWith("did you mean 'cmatrixInitVal'?"));
  // A key that belongs to another instruction is unknown here.
  const std::string l3 = "MmadWithSparse dst=L0C:0 fm=L0A:0 filter=L0B:0 m=16 n=16 k=64 dtype=int8";
  CHECK_THAT(error_of(l3),
             StartsWith(at(3, col(l3, "dtype"))) && Contains("unknown key 'dtype' for MmadWithSparse"));

  CHECK_THAT(parse_error(".gn a size=4\n"),
             StartsWith(at(1, 1)) &&
                 EndsWith("unknown directive '.gn'; expected .gm, .out or .expect; did you mean '.gm'?"));
  CHECK_THAT(parse_error(".gm a size=4\n  .expct a file=x.bin\n"),
             StartsWith(at(2, 3)) && EndsWith("did you mean '.expect'?"));
  CHECK_THAT(parse_error(".gm a size=4 fiel=a.bin\n"),
             StartsWith(at(1, 14)) && EndsWith("unknown key 'fiel' for .gm; did you mean 'file'?"));
}

TEST_CASE("missing required keys are reported at the mnemonic", "[errors][required]") {
  CHECK_THAT(error_of("  DataCopy dst=L1:0 src=a"),
             StartsWith(at(3, 3)) && EndsWith("DataCopy is missing required key 'blockLen'"));
  CHECK_THAT(
      error_of("DataCopyNd2Nz dst=L1:0 src=a nValue=1"),
      StartsWith(at(3, 1)) && EndsWith("missing required keys 'dValue', 'srcDValue', 'dstNzC0Stride'"));
  CHECK_THAT(error_of("Fixpipe src=L0C:0 nSize=16 mSize=16 srcStride=16"),
             EndsWith("Fixpipe is missing required keys 'dst', 'dstStride'"));
  CHECK_THAT(error_of("SetFlag id=0"), EndsWith("SetFlag is missing required key 'event'"));
  CHECK_THAT(error_of("WaitFlag event=M_FIX"), EndsWith("WaitFlag is missing required key 'id'"));
  CHECK_THAT(error_of("PipeBarrier"), EndsWith("PipeBarrier is missing required key 'pipe'"));
  CHECK_THAT(error_of("LoadDataWithSparse dst=L0B:0 src=L1:0 repeatTimes=1"),
             EndsWith("missing required key 'idx'"));
  CHECK_THAT(parse_error(".gm a\n"), StartsWith(at(1, 1)) && EndsWith(".gm is missing required key 'size'"));
  CHECK_THAT(parse_error(".gm a size=4\n.out a\n"),
             StartsWith(at(2, 1)) && EndsWith(".out is missing required key 'file'"));
  CHECK_THAT(parse_error(".gm a size=4\n.expect a dtype=int32\n"),
             StartsWith(at(2, 1)) && EndsWith(".expect is missing required key 'file'"));
}

TEST_CASE("duplicate keys and tensors are reported at the second occurrence", "[errors][duplicate]") {
  const std::string l = "DataCopy dst=L1:0 src=a blockLen=1 blockLen=2";
  CHECK_THAT(error_of(l), StartsWith(at(3, col(l, "blockLen", col(l, "blockLen")))) &&
                              EndsWith("duplicate key 'blockLen' (first given at column 25)"));
  CHECK_THAT(parse_error(".gm a size=4 size=8\n"), StartsWith(at(1, 14)) && Contains("duplicate key 'size'"));
  CHECK_THAT(parse_error(".gm a size=4\n.gm  a size=8\n"),
             StartsWith(at(2, 6)) && EndsWith("tensor 'a' is already declared at line 1"));
}

TEST_CASE("numbers: width, sign, syntax", "[errors][numbers]") {
  struct Case {
    std::string line, value, message;
  };
  const Case cases[] = {
      {"LoadData dst=L0A:0 src=L1:0 repeatTimes=256", "256",
       "value '256' out of range for u8 field repeatTimes (0..255)"},
      {"LoadData dst=L0A:0 src=L1:0 repeatTimes=0x100", "0x100",
       "out of range for u8 field repeatTimes (0..255)"},
      {"DataCopy dst=L1:0 src=a blockLen=65536", "65536",
       "value '65536' out of range for u16 field blockLen (0..65535)"},
      {"Fixpipe dst=c src=L0C:0 nSize=16 mSize=16 srcStride=16 dstStride=4294967296", "4294967296",
       "out of range for u32 field dstStride (0..4294967295)"},
      {"DataCopy dst=L1:0 src=a blockLen=99999999999999999999999", "999",
       "out of range for u16 field blockLen"},
      {"DataCopy dst=L1:0 src=a blockLen=-1", "-1",
       "negative value '-1' not allowed for u16 field blockLen (0..65535)"},
      {"DataCopy dst=L1:0 src=a blockLen=12a", "12a",
       "malformed number '12a' for u16 field blockLen: expected a decimal or 0x hex integer"},
      {"DataCopy dst=L1:0 src=a blockLen=0x", "0x", "malformed number '0x'"},
      {"DataCopy dst=L1:0 src=a blockLen=0xfg", "0xfg", "malformed number '0xfg'"},
      {"DataCopy dst=L1:0 src=a blockLen=+3", "+3", "malformed number '+3'"},
      {"DataCopy dst=L1:0 src=a blockLen=1.5", "1.5", "malformed number '1.5'"},
      {"SetFlag event=M_FIX id=256", "256", "value '256' out of range for u8 field id (0..7)"},
      {"LoadData dst=L0A:0 src=L1:0 repeatTimes=1 ifTranspose=2", "2",
       "invalid boolean '2' for boolean field ifTranspose: expected 0, 1, true or false"},
      {"Fixpipe dst=c src=L0C:0 nSize=16 mSize=16 srcStride=16 dstStride=16 reluEn=True", "True",
       "invalid boolean 'True'"},
  };
  for (const auto& c : cases) {
    INFO(c.line);
    CHECK_THAT(error_of(c.line), StartsWith(at(3, col(c.line, "=" + c.value) + 1)) && Contains(c.message));
  }
  CHECK_THAT(parse_error(".gm a size=0\n"), StartsWith(at(1, 12)) && EndsWith("size must be greater than 0"));
  CHECK_THAT(parse_error(".gm a size=0x1000000001\n"),
             StartsWith(at(1, 12)) && Contains("out of range for size"));
}

TEST_CASE("malformed fields", "[errors][syntax]") {
  const std::string l = "DataCopy dst=L1:0 src a blockLen=1";
  CHECK_THAT(error_of(l), StartsWith(at(3, col(l, "src"))) &&
                              EndsWith("expected KEY=VALUE, got 'src' (no spaces around '=')"));
  const std::string l2 = "DataCopy dst=L1:0 src= a blockLen=1";
  CHECK_THAT(error_of(l2), StartsWith(at(3, col(l2, "src=") + 4)) && EndsWith("missing value for 'src'"));
  const std::string l3 = "DataCopy =L1:0";
  CHECK_THAT(error_of(l3), StartsWith(at(3, 10)) && Contains("missing key before '='"));
  CHECK_THAT(error_of("dst=L1:0 DataCopy"),
             StartsWith(at(3, 1)) && Contains("starts with an instruction mnemonic or a directive"));
}

TEST_CASE("operands in the wrong memory are reported at the key", "[errors][space]") {
  struct Case {
    std::string line, key, message;
  };
  const Case cases[] = {
      {"DataCopy dst=L0A:0 src=a blockLen=1", "dst", "dst of DataCopy must be in L1 (L1/A1/B1), got L0A"},
      {"DataCopy dst=A2:0 src=a blockLen=1", "dst", "must be in L1 (L1/A1/B1), got A2 (= L0A)"},
      {"DataCopy dst=L1:0 src=L1:0 blockLen=1", "src",
       "src of DataCopy must be in GM (a .gm tensor), got L1"},
      {"DataCopy dst=a src=a blockLen=1", "dst",
       "must be in L1 (L1/A1/B1), got 'a' (a GM tensor; on-chip operands are written SPACE:OFFSET)"},
      {"LoadData dst=L0C:0 src=L1:0 repeatTimes=1", "dst",
       "dst of LoadData must be in L0A (L0A/A2) or L0B (L0B/B2), got L0C"},
      {"LoadData dst=L0A:0 src=a repeatTimes=1", "src",
       "src of LoadData must be in L1 (L1/A1/B1), got 'a' (a GM tensor; on-chip operands are written "
       "SPACE:OFFSET)"},
      {"LoadDataWithSparse dst=L0A:0 src=L1:0 idx=L1:0 repeatTimes=1", "dst",
       "must be in L0B (L0B/B2), got L0A"},
      {"LoadDataWithSparse dst=L0B:0 src=L1:0 idx=L0B:0 repeatTimes=1", "idx",
       "idx of LoadDataWithSparse must be in L1 (L1/A1/B1), got L0B"},
      {"Mmad dst=L0C:0 fm=L0B:0 filter=L0B:0 m=1 n=1 k=1", "fm",
       "fm of Mmad must be in L0A (L0A/A2), got L0B"},
      {"MmadWithSparse dst=L0C:0 fm=L0A:0 filter=CO1:0 m=1 n=1 k=4", "filter",
       "must be in L0B (L0B/B2), got CO1 (= L0C)"},
      {"Mmad dst=L1:0 fm=L0A:0 filter=L0B:0 m=1 n=1 k=1", "dst",
       "dst of Mmad must be in L0C (L0C/CO1), got L1"},
      {"Fixpipe dst=L1:0 src=L0C:0 nSize=16 mSize=16 srcStride=16 dstStride=16", "dst",
       "dst of Fixpipe must be in GM (a .gm tensor), got L1"},
      {"Fixpipe dst=c src=c nSize=16 mSize=16 srcStride=16 dstStride=16", "src",
       "src of Fixpipe must be in L0C (L0C/CO1), got 'c' (a GM tensor; on-chip operands are written "
       "SPACE:OFFSET)"},
  };
  for (const auto& c : cases) {
    INFO(c.line);
    CHECK_THAT(error_of(c.line),
               StartsWith(at(3, col(c.line, " " + c.key + "=") + 1)) && EndsWith(c.message));
  }
}

TEST_CASE("operand syntax: spaces, tensors and offsets", "[errors][operands]") {
  const std::string l = "DataCopy dst=X1:0 src=a blockLen=1";
  CHECK_THAT(
      error_of(l),
      StartsWith(at(3, col(l, "X1"))) &&
          Contains("unknown memory space 'X1'; expected L1, L0A, L0B, L0C, BT, A1, B1, A2, B2, CO1 or C2"));
  CHECK_THAT(error_of("DataCopy dst=l1:0 src=a blockLen=1"), EndsWith("did you mean 'L1'?"));
  CHECK_THAT(error_of("DataCopy dst=CO:0 src=a blockLen=1"), EndsWith("did you mean 'CO1'?"));
  CHECK_THAT(error_of("DataCopy dst=L1:0 src=GM:0 blockLen=1"),
             Contains("GM operands are written as a .gm tensor name"));

  const std::string l2 = "DataCopy dst=L1: src=a blockLen=1";
  CHECK_THAT(error_of(l2),
             StartsWith(at(3, col(l2, ": ") + 1)) && Contains("missing number for offset of dst"));
  const std::string l3 = "DataCopy dst=L1:0x2z src=a blockLen=1";
  CHECK_THAT(error_of(l3),
             StartsWith(at(3, col(l3, "0x2z"))) && Contains("malformed number '0x2z' for offset of dst"));

  const std::string l4 = "DataCopy dst=L1:0 src=aa blockLen=1";
  CHECK_THAT(error_of(l4),
             StartsWith(at(3, col(l4, "aa"))) && EndsWith("unknown tensor 'aa'; did you mean 'a'?"));
  const std::string l5 = "Fixpipe dst=cc+16 src=L0C:0 nSize=16 mSize=16 srcStride=16 dstStride=16";
  CHECK_THAT(error_of(l5), StartsWith(at(3, col(l5, "cc"))) && EndsWith("did you mean 'c'?"));
  const std::string l6 = "DataCopy dst=L1:0 src=a+ blockLen=1";
  CHECK_THAT(error_of(l6),
             StartsWith(at(3, col(l6, "+") + 1)) && Contains("missing number for offset of src"));
  const std::string l7 = "DataCopy dst=L1:0 src=a+-32 blockLen=1";
  CHECK_THAT(error_of(l7), StartsWith(at(3, col(l7, "-32"))) && Contains("negative value '-32'"));
  // A tensor must be declared before its first use.
  CHECK_THAT(
      parse_error("DataCopy dst=L1:0 src=a blockLen=1\n.gm a size=64\n"),
      StartsWith(at(1, 23)) && EndsWith("unknown tensor 'a' (no .gm tensor is declared before this line)"));
  CHECK_THAT(error_of("DataCopy dst=L1:0 src=L1 blockLen=1"),
             Contains("unknown tensor 'L1' (on-chip operands are written SPACE:OFFSET, e.g. L1:0)"));
}

TEST_CASE("events, pipes and dtypes", "[errors][enums]") {
  const std::string l = "SetFlag event=MTE2MTE1 id=0";
  CHECK_THAT(error_of(l), StartsWith(at(3, col(l, "MTE2MTE1"))) &&
                              Contains("malformed event 'MTE2MTE1': expected SRC_DST"));
  const std::string l2 = "SetFlag event=MTE2_MTE4 id=0";
  CHECK_THAT(error_of(l2), StartsWith(at(3, col(l2, "MTE4"))) &&
                               Contains("unknown destination pipe 'MTE4' in event 'MTE2_MTE4'") &&
                               EndsWith("did you mean 'MTE1'?"));
  const std::string l3 = "WaitFlag event=VEC_M id=0";
  CHECK_THAT(error_of(l3), StartsWith(at(3, col(l3, "VEC"))) && Contains("unknown source pipe 'VEC'"));
  CHECK_THAT(error_of("WaitFlag event=M_ id=0"), Contains("unknown destination pipe ''"));

  const std::string l4 = "PipeBarrier pipe=PIPE_VEC";
  CHECK_THAT(error_of(l4),
             StartsWith(at(3, col(l4, "PIPE_VEC"))) &&
                 Contains("unknown pipe 'PIPE_VEC'; expected PIPE_MTE2, PIPE_MTE1, PIPE_M, PIPE_FIX"));
  CHECK_THAT(error_of("PipeBarrier pipe=MTE2"), EndsWith("did you mean 'PIPE_MTE2'?"));
  CHECK_THAT(error_of("PipeBarrier pipe=PIPE_AL"), EndsWith("did you mean 'PIPE_ALL'?"));

  const std::string l5 = "Mmad dst=L0C:0 fm=L0A:0 filter=L0B:0 m=1 n=1 k=1 dtype=fp8";
  CHECK_THAT(error_of(l5),
             StartsWith(at(3, col(l5, "fp8"))) &&
                 EndsWith("unknown dtype 'fp8' for dtype; expected int4, int8, half, bf16 or float"));
  CHECK_THAT(error_of("LoadData dst=L0A:0 src=L1:0 repeatTimes=1 dtype=bf61"),
             EndsWith("did you mean 'bf16'?"));
  CHECK_THAT(error_of("DataCopyNd2Nz dst=L1:0 src=a nValue=1 dValue=1 srcDValue=1 dstNzC0Stride=1 dtype=i8"),
             EndsWith("expected int4, int8, half, bf16, int32 or float; did you mean 'int8'?"));
}

TEST_CASE("a dtype the instruction does not take is a parse error at the value", "[errors][enums]") {
  struct Case {
    std::string line, value, message;
  };
  const Case cases[] = {
      {"Mmad dst=L0C:0 fm=L0A:0 filter=L0B:0 m=16 n=16 k=32 dtype=int32", "int32",
       "Mmad dtype must be int4, int8, half, bf16 or float, not 'int32'"},
      {"SetAtomicAdd dtype=int8", "int8", "SetAtomicAdd dtype must be half, int32 or float, not 'int8'"},
      {"Fixpipe dst=c src=L0C:0 dtype=half nSize=16 mSize=16 srcStride=16 dstStride=16", "half",
       "Fixpipe dtype must be int32 or float, not 'half'"},
      // Aliases name the same types, so they are judged by the type they name.
      {"Fixpipe dst=c src=L0C:0 dtype=fp16 nSize=16 mSize=16 srcStride=16 dstStride=16", "fp16",
       "Fixpipe dtype must be int32 or float, not 'fp16'"},
  };
  for (const auto& c : cases) {
    INFO(c.line);
    CHECK_THAT(error_of(c.line), StartsWith(at(3, col(c.line, "=" + c.value) + 1)) && EndsWith(c.message));
  }
}

TEST_CASE("SetFlag/WaitFlag ids outside 0..7 are parse errors at the value", "[errors][sync]") {
  const char* lines[] = {"SetFlag event=MTE2_MTE1 id=8", "WaitFlag event=MTE2_MTE1 id=8",
                         "SetFlag id=0x8 event=M_FIX", "WaitFlag event=FIX_M id=255"};
  for (const std::string l : lines) {
    INFO(l);
    const std::string value = l.substr(l.find("id=") + 3, l.find(' ', l.find("id=")) - l.find("id=") - 3);
    CHECK_THAT(error_of(l), StartsWith(at(3, col(l, "id=") + 3)) &&
                                EndsWith("value '" + value + "' out of range for u8 field id (0..7)"));
  }
}

TEST_CASE("LoadDataWithSparse's unused struct fields are accepted only as 0", "[errors][sparse]") {
  const std::string head = "LoadDataWithSparse dst=L0B:0 src=L1:0 idx=L1:0x400 repeatTimes=1 ";
  struct Case {
    std::string field, value;
  };
  const Case cases[] = {{"srcStride", "1"},      {"dstGap", "0x10"}, {"ifTranspose", "1"},
                        {"ifTranspose", "true"}, {"sid", "1"},       {"addrMode", "255"}};
  for (const auto& c : cases) {
    const std::string l = head + c.field + "=" + c.value;
    INFO(l);
    CHECK_THAT(
        error_of(l),
        StartsWith(at(3, col(l, c.field + "=") + static_cast<uint32_t>(c.field.size()) + 1)) &&
            EndsWith(c.field + " is unused by LoadDataWithSparse and must be 0, got '" + c.value + "'"));
  }
  // The value is still checked against its type first.
  const std::string l = head + "srcStride=65536";
  CHECK_THAT(error_of(l), Contains("out of range for u16 field srcStride (0..65535)"));
  CHECK_THAT(error_of(head + "ifTranspose=2"), Contains("invalid boolean '2' for boolean field ifTranspose"));
  // LoadData uses the same keys: there they are fields like any other.
  CHECK(error_of("LoadData dst=L0A:0 src=L1:0 repeatTimes=1 srcStride=1 dstGap=1") == "<no error>");
}

TEST_CASE("what check_fields refuses is an error at the field it names, as the trace is read",
          "[errors][fields]") {
  const std::string gm = ".gm c size=1048576\n";
  const std::string fix = "Fixpipe dst=c src=L0C:0 nSize=4096 mSize=16 srcStride=16 dstStride=16";
  CHECK(parse_error(gm + fix + "\n", true) ==
        at(2, col(fix, "nSize")) + "Fixpipe: invalid field: nSize must be in [1, 4095] (got 4096)");
  const std::string set = "SetFlag id=0 event=M_MTE3";  // the field named first in the message wins
  CHECK(parse_error(set + "\n", true) ==
        at(1, col(set, "event")) +
            "SetFlag: illegal event pair: event M_MTE3 is not a legal pair on the Cube core");
  const std::string mmad = "Mmad dst=L0C:0 fm=L0A:0 filter=L0B:0 m=4096 n=16 k=16";
  CHECK(parse_error(mmad + "\n", true) ==
        at(1, col(mmad, " m=") + 1) +
            "Mmad: invalid field: m, n and k must be in [0, 4095] (got m=4096 n=16 k=16)");
  const std::string load = "LoadData dst=L0A:0 src=L1:0 repeatTimes=1 ifTranspose=1";
  CHECK(parse_error(load + "\n", true) ==
        at(1, col(load, "ifTranspose")) +
            "LoadData: invalid field: ifTranspose is only legal for b16 data "
            "(half/bf16), not int8");
  // Without the check, only the field table applies (what tests of the table and the checker read).
  CHECK(parse_error(gm + fix + "\n", false) == "<no error>");
  // Each statement up to the refused one still reads.
  std::istringstream in(gm + "Fixpipe dst=c src=L0C:0 nSize=16 mSize=16 srcStride=16 dstStride=16\n" + fix +
                        "\n");
  Reader r(in, "t.trace", "");
  Statement st;
  CHECK(r.next(st));
  CHECK(r.next(st));
  CHECK_THROWS_WITH(r.next(st), StartsWith(at(3, col(fix, "nSize"))));
}

TEST_CASE("directive errors", "[errors][directives]") {
  CHECK_THAT(parse_error(".gm\n"), StartsWith(at(1, 5)) && EndsWith("expected a tensor name after .gm"));
  CHECK_THAT(parse_error(".gm size=4\n"),
             StartsWith(at(1, 5)) && EndsWith("expected a tensor name after .gm"));
  CHECK_THAT(parse_error(".gm 1a size=4\n"), StartsWith(at(1, 5)) && Contains("invalid tensor name '1a'"));
  CHECK_THAT(parse_error(".gm a+b size=4\n"), StartsWith(at(1, 5)) && Contains("invalid tensor name 'a+b'"));
  CHECK_THAT(parse_error(".gm a size=-4\n"), StartsWith(at(1, 12)) && Contains("negative value"));
  CHECK_THAT(parse_error(".gm out size=4\n.out outt file=o.bin\n"),
             StartsWith(at(2, 6)) &&
                 EndsWith("unknown tensor 'outt' (declare it with .gm first); did you mean 'out'?"));
  CHECK_THAT(parse_error(".expect c file=c.bin\n"), StartsWith(at(1, 9)) && Contains("unknown tensor 'c'"));
  CHECK_THAT(parse_error(".gm c size=8\n.expect c file=c.bin dtype=int33\n"),
             StartsWith(at(2, 28)) && EndsWith("did you mean 'int32'?"));
  CHECK_THAT(parse_error(".gm c size=6\n.expect c file=c.bin\n"),
             StartsWith(at(2, 1)) && EndsWith("tensor 'c' has 6 bytes, not a whole number of int32 elements "
                                              "(the default dtype; set dtype=)"));
  CHECK_THAT(parse_error(".gm c size=6\n.out c file=c.npy dtype=float\n"),
             StartsWith(at(2, col(".out c file=c.npy dtype=float", "float"))) &&
                 EndsWith("tensor 'c' has 6 bytes, not a whole number of float elements"));
  CHECK_THAT(parse_error(".gm c size=8\n.out c file=c.npy bogus=1\n"),
             Contains("unknown key 'bogus' for .out"));
}

TEST_CASE("binary garbage is a clean error", "[errors][binary]") {
  CHECK_THAT(parse_error(std::string("SetFlag event=M_FIX id=0\nSet\0Flag\n", 34)),
             StartsWith(at(2, 4)) && EndsWith("NUL byte in the trace (is this a binary file?)"));
  CHECK_THAT(parse_error(std::string("# comment \0 with NUL\n", 21)),
             StartsWith(at(1, 11)) && Contains("NUL byte"));
  CHECK_THAT(parse_error("SetFlag event=M_FIX\xFF id=0\n"),
             StartsWith(at(1, 20)) && EndsWith("invalid UTF-8 byte 0xFF"));
  CHECK_THAT(parse_error("# caf\xC3\n"),
             StartsWith(at(1, 6)) && Contains("invalid UTF-8"));  // truncated sequence
  CHECK_THAT(parse_error("# overlong \xC0\xAF\n"),
             StartsWith(at(1, 12)) && EndsWith("invalid UTF-8 byte 0xC0"));
  CHECK_THAT(parse_error("# surrogate \xED\xA0\x80\n"),
             StartsWith(at(1, 14)) && EndsWith("invalid UTF-8 byte 0xA0"));
  CHECK_THAT(parse_error("SetFlag\x01 event=M_FIX id=0\n"),
             StartsWith(at(1, 8)) && EndsWith("unexpected control character 0x01"));
  // Valid non-ASCII text outside a comment is just an unknown word.
  CHECK_THAT(parse_error("S\xC3\xA9tFlag event=M_FIX id=0\n"), Contains("unknown instruction"));

  // Random bytes and random mixes of trace words: only InputError, never another exception.
  std::mt19937 rng(12345);
  const char* words[] = {"DataCopy",
                         "dst=",
                         "L1:",
                         "A2:",
                         "src=",
                         "a",
                         "+",
                         "0x",
                         "99",
                         "=",
                         ":",
                         "#",
                         "\n",
                         " ",
                         "\t",
                         ".gm",
                         ".out",
                         "size=",
                         "file=",
                         "SetFlag",
                         "event=",
                         "M_FIX",
                         "id=",
                         "\xFF",
                         "\0",
                         "PipeBarrier",
                         "pipe=PIPE_ALL",
                         "repeatTimes=",
                         "-",
                         "\xE2\x82",
                         "LoadData",
                         ".expect"};
  for (int trial = 0; trial < 2000; ++trial) {
    std::string text;
    const int n = static_cast<int>(rng() % 40);
    for (int i = 0; i < n; ++i) {
      if (rng() % 5 == 0) {
        text += static_cast<char>(rng() & 0xFF);
      } else {
        const char* w = words[rng() % (sizeof words / sizeof *words)];
        text += *w ? std::string(w) : std::string(1, '\0');
      }
    }
    INFO("trial " << trial);
    try {
      trace_test::read_all(text);
    } catch (const InputError& e) {
      CHECK_THAT(std::string(e.what()), StartsWith("t.trace:") && Contains(": error: "));
    }
  }
}

TEST_CASE("an unreadable trace file is an InputError", "[errors][file]") {
  CHECK_THROWS_AS(Reader("/nonexistent/dir/x.trace"), InputError);
  CHECK_THROWS_WITH(Reader("/nonexistent/dir/x.trace"),
                    StartsWith("/nonexistent/dir/x.trace: error: cannot open trace"));
  CHECK_THROWS_WITH(Reader(trace_test::data_dir()), EndsWith("cannot read trace: is a directory"));
}
