#include "emit_trace.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "aicore/common/source_files.hpp"
#include "aicore/trace/writer.hpp"

namespace aicore::frontend {

namespace fs = std::filesystem;

namespace {

void write_file(const std::string& path, const char* data, size_t bytes) {
  std::ofstream f(path, std::ios::binary);
  if (f) f.write(data, static_cast<std::streamsize>(bytes));
  if (!f || !f.flush()) {
    std::fflush(stdout);
    std::cerr << "aicore-sim: error: cannot write " << path << std::endl;
    std::exit(2);
  }
}

std::string trace_name(const RecordedLaunch& rec, uint32_t block) {
  return rec.programs.size() == 1 ? "kernel.trace" : "block" + std::to_string(block) + ".trace";
}

}  // namespace

std::string trace_text(const RecordedLaunch& rec, uint32_t block, bool with_data) {
  std::string s = "# aicore trace v1\n";
  s += "# recorded by aicore-sim's Ascend C front end: kernel " + rec.kernel + ", block " +
       std::to_string(block) + " of " + std::to_string(rec.programs.size()) + ", launched at " +
       rec.site.file + ":" + std::to_string(rec.site.line) + "\n";
  for (const RecordedTensor& t : rec.tensors)
    s += trace::format_gm(t.name, t.bytes, with_data && t.initial ? t.name + ".bin" : "") + "\n";
  if (block == 0 && with_data)
    for (const RecordedTensor& t : rec.tensors)
      if (t.written_as && t.bytes % 4 == 0)
        s += trace::format_expect(t.name, t.name + ".expected.bin", isa::to_string(*t.written_as)) + "\n";
  const std::vector<std::string> names = rec.tensor_names();
  std::string line;
  for (const isa::Instruction& in : rec.programs[block]) {
    line.clear();
    trace::append_instruction(line, in.op, names);
    s += line + "  # " + source_file_name(in.file) + ":" + std::to_string(in.line) + "\n";
  }
  return s;
}

void emit_traces(const RecordedLaunch& rec, const std::string& dir, const LaunchOptions& opt,
                 std::ostream& out) {
  const bool with_data = !opt.run.timing_only;
  const fs::path d(dir);
  if (with_data)
    for (const RecordedTensor& t : rec.tensors) {
      if (t.initial) {
        // A tensor read past its buffer's end (recording.cpp) has those zero bytes in its file too.
        std::vector<uint8_t> bytes(*t.initial);
        bytes.resize(t.bytes);
        write_file((d / (t.name + ".bin")).string(), reinterpret_cast<const char*>(bytes.data()), t.bytes);
      }
      if (t.written_as && t.bytes % 4 == 0)
        write_file((d / (t.name + ".expected.bin")).string(), reinterpret_cast<const char*>(t.data), t.bytes);
    }
  std::vector<std::string> written;
  for (uint32_t b = 0; b < rec.programs.size(); ++b) {
    const std::string text = trace_text(rec, b, with_data);
    written.push_back((d / trace_name(rec, b)).string());
    write_file(written.back(), text.data(), text.size());
  }
  if (rec.programs.size() > 1) {
    std::string yaml =
        "# kernel " + rec.kernel + ": one recorded trace per block (block index = position)\ncores:\n";
    for (uint32_t b = 0; b < rec.programs.size(); ++b) yaml += "  - " + trace_name(rec, b) + "\n";
    written.push_back((d / "kernel.yaml").string());
    write_file(written.back(), yaml.data(), yaml.size());
  }
  if (!opt.run.quiet)
    for (const std::string& p : written) out << "wrote " << p << "\n";
}

}  // namespace aicore::frontend
