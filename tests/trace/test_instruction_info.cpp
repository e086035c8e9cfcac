// trace::instruction_info() against the parser it describes: every described key is accepted,
// every described default is the value an omitted key takes, every described range is exactly
// what the parser accepts, and every operand accepts exactly the memories it lists. The docs'
// field tables are generated from this description, so this is what keeps them true.
#include <catch2/catch.hpp>

#include <algorithm>

#include "aicore/trace/instruction_info.hpp"
#include "aicore/trace/writer.hpp"
#include "helpers.hpp"

using namespace aicore;
using Catch::Contains;
using Catch::EndsWith;
using Catch::StartsWith;
using trace::FieldInfo;
using trace::InstructionInfo;
using trace_test::parse_error;

namespace {

const std::string kDecl = ".gm a size=65536\n";  // the line under test is line 2

// A value the field accepts, for fields the line must give.
std::string sample_value(const FieldInfo& f) {
  if (f.type == "operand") {
    const isa::Space s = f.spaces.front();
    return s == isa::Space::GM ? "a" : trace::space_aliases(s).front() + ":0";
  }
  if (f.type == "event") return "MTE2_MTE1";
  if (f.type == "pipe") return "PIPE_M";
  if (f.type == "dtype") return f.default_value.empty() ? "float" : f.default_value;  // SetAtomicAdd
  return "1";
}

// The instruction with its required fields, plus `extra` ("key=value ...").
std::string line_of(const InstructionInfo& in, const std::string& extra = "", const std::string& skip = "") {
  std::string l = in.mnemonic;
  for (const FieldInfo& f : in.fields)
    if (f.required && f.key != skip) l += " " + f.key + "=" + sample_value(f);
  return extra.empty() ? l : l + " " + extra;
}

isa::Op parse_op(const std::string& line) {
  const auto all = trace_test::read_all(kDecl + line + "\n");
  REQUIRE(all.size() == 2);
  return all[1].instr.op;
}

std::string text_of(const isa::Op& op) {
  return trace::format_instruction(op, {"a"});
}

std::string at2(uint32_t column) {
  return trace_test::at(2, column);
}

}  // namespace

TEST_CASE("instruction_info lists every mnemonic once", "[info]") {
  const auto& all = trace::instruction_info();
  std::vector<std::string> names;
  for (const auto& in : all) {
    INFO(in.mnemonic);
    names.push_back(in.mnemonic);
    CHECK_FALSE(in.pipe.empty());
    CHECK_FALSE(in.summary.empty());
    for (const FieldInfo& f : in.fields) {
      INFO(f.key);
      CHECK_FALSE(f.meaning.empty());
      CHECK_FALSE(f.accepts.empty());
      CHECK(f.required == f.default_value.empty());
      CHECK((f.type == "operand") == !f.spaces.empty());
    }
  }
  const std::vector<std::string> expected = {
      "DataCopy",       "DataCopyNd2Nz", "LoadData",      "LoadDataWithSparse", "Mmad",
      "MmadWithSparse", "Fixpipe",       "SetFlag",       "WaitFlag",           "PipeBarrier",
      "SyncAll",        "SetAtomicAdd",  "SetAtomicNone", "LoadData3DV2",       "LoadDataWithTranspose",
      "DataCopyL1ToBT"};
  CHECK(names == expected);
}

TEST_CASE("described required keys are required and described defaults are the real ones", "[info]") {
  for (const auto& in : trace::instruction_info()) {
    INFO(in.mnemonic);
    const std::string minimal = text_of(parse_op(line_of(in)));
    std::string defaults;
    for (const FieldInfo& f : in.fields)
      if (!f.required) defaults += (defaults.empty() ? "" : " ") + f.key + "=" + f.default_value;
    if (!defaults.empty()) {
      INFO(defaults);
      CHECK(text_of(parse_op(line_of(in, defaults))) == minimal);
    }
    for (const FieldInfo& f : in.fields) {
      if (!f.required) continue;
      INFO(f.key);
      CHECK_THAT(parse_error(kDecl + line_of(in, "", f.key) + "\n"),
                 StartsWith(at2(1)) && Contains("is missing required key") && Contains("'" + f.key + "'"));
    }
  }
}

TEST_CASE("described integer and boolean ranges are exactly what the parser accepts", "[info]") {
  for (const auto& in : trace::instruction_info()) {
    for (const FieldInfo& f : in.fields) {
      const bool integer = f.type == "u8" || f.type == "u16" || f.type == "u32";
      if (!integer && f.type != "boolean") continue;
      INFO(in.mnemonic << " " << f.key);
      const std::string base = line_of(in, "", f.key) + " " + f.key + "=";
      const uint32_t value_col = static_cast<uint32_t>(base.size() + 1);
      CHECK(parse_error(kDecl + base + std::to_string(f.max) + "\n") == "<no error>");
      if (f.unused) {
        CHECK(f.max == 0);
        CHECK(f.accepts == "0 only");
        CHECK_THAT(parse_error(kDecl + base + "1\n"),
                   StartsWith(at2(value_col)) &&
                       EndsWith(f.key + " is unused by " + in.mnemonic + " and must be 0, got '1'"));
      } else if (integer && f.accepts.find(" or ") != std::string::npos) {
        // A field of a few values (unitFlag: "0, 2 or 3"): each parses, 1 (not listed) does not.
        CHECK(f.accepts == "0, 2 or 3");
        for (const char* v : {"0", "2", "3"}) CHECK(parse_error(kDecl + base + v + "\n") == "<no error>");
        CHECK_THAT(parse_error(kDecl + base + "1\n"),
                   StartsWith(at2(value_col)) && EndsWith(f.key + " must be 0, 2 or 3, got '1'"));
      } else if (integer) {
        CHECK(f.accepts == "0.." + std::to_string(f.max));
        CHECK_THAT(parse_error(kDecl + base + std::to_string(f.max + 1) + "\n"),
                   StartsWith(at2(value_col)) && Contains("out of range for " + f.type + " field " + f.key +
                                                          " (0.." + std::to_string(f.max) + ")"));
      } else {
        CHECK(f.max == 1);
        CHECK(parse_error(kDecl + base + "true\n") == "<no error>");
      }
    }
  }
}

TEST_CASE("described operand memories are exactly the ones the parser accepts", "[info]") {
  const isa::Space all[] = {isa::Space::GM, isa::Space::L1, isa::Space::L0A, isa::Space::L0B,
                            isa::Space::L0C};
  for (const auto& in : trace::instruction_info()) {
    for (const FieldInfo& f : in.fields) {
      if (f.type != "operand") continue;
      const std::string base = line_of(in, "", f.key) + " " + f.key + "=";
      for (const isa::Space s : all) {
        const bool allowed = std::find(f.spaces.begin(), f.spaces.end(), s) != f.spaces.end();
        std::vector<std::string> names = trace::space_aliases(s);
        if (s == isa::Space::GM) names = {"a", "a+0x20"};
        CHECK(names.size() >= (s == isa::Space::GM ? 2u : 1u));
        for (const std::string& n : names) {
          const std::string value = s == isa::Space::GM ? n : n + ":0";
          INFO(in.mnemonic << " " << f.key << "=" << value);
          const std::string err = parse_error(kDecl + base + value + "\n");
          if (allowed)
            CHECK(err == "<no error>");
          else
            CHECK_THAT(err, Contains(f.key + " of " + in.mnemonic + " must be in"));
        }
      }
    }
  }
}

TEST_CASE("space aliases are the Ascend C position names", "[info]") {
  using V = std::vector<std::string>;
  CHECK(trace::space_aliases(isa::Space::L1) == V{"L1", "A1", "B1"});
  CHECK(trace::space_aliases(isa::Space::L0A) == V{"L0A", "A2"});
  CHECK(trace::space_aliases(isa::Space::L0B) == V{"L0B", "B2"});
  CHECK(trace::space_aliases(isa::Space::L0C) == V{"L0C", "CO1"});
  CHECK(trace::space_aliases(isa::Space::GM).empty());
}
