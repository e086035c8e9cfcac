#include "refs.hpp"

#include "aicore/isa/descriptors.hpp"

namespace aicore::check {

AccessRef ref_of(const isa::Instruction& in) {
  AccessRef r;
  r.index = in.index;
  r.line = in.line;
  r.file = in.file;
  r.op = static_cast<uint8_t>(in.op.index());
  if (const auto* m = std::get_if<isa::Mmad>(&in.op)) r.unit_flag = m->unitFlag & 3u;
  if (const auto* m = std::get_if<isa::MmadWithSparse>(&in.op)) r.unit_flag = m->unitFlag & 3u;
  if (const auto* f = std::get_if<isa::Fixpipe>(&in.op)) r.unit_flag = f->unitFlag & 3u;
  r.pipe = isa::pipe_of(in.op);
  return r;
}

const char* op_name(uint8_t op) {
  return op < isa::kInstructionCount ? isa::kDescriptors[op].facts.mnemonic : "?";
}

bool is_fixpipe(uint8_t op) {
  return op == isa::Op(isa::Fixpipe{}).index();
}

bool is_mmad(uint8_t op) {
  return op == isa::Op(isa::Mmad{}).index() || op == isa::Op(isa::MmadWithSparse{}).index();
}

std::string event_text(isa::EventPair e) {
  return std::string(isa::to_string(e.src)) + "_" + isa::to_string(e.dst);
}

std::string sync_text(const isa::Op& op) {
  if (const auto* s = std::get_if<isa::SetFlag>(&op))
    return "SetFlag<" + event_text(s->event) + ">(" + std::to_string(s->id) + ")";
  if (const auto* w = std::get_if<isa::WaitFlag>(&op))
    return "WaitFlag<" + event_text(w->event) + ">(" + std::to_string(w->id) + ")";
  if (const auto* b = std::get_if<isa::PipeBarrier>(&op))
    return b->all ? "PipeBarrier<PIPE_ALL>"
                  : std::string("PipeBarrier<PIPE_") + isa::to_string(b->pipe) + ">";
  return isa::mnemonic(op);
}

InstrRef instr_ref(uint16_t core, const AccessRef& r, const std::string& mnemonic, const char* access) {
  InstrRef i;
  i.core = core;
  i.index = r.index;
  i.line = r.line;
  i.file = r.file;
  i.pipe = r.pipe;
  i.mnemonic = mnemonic;
  i.access = access;
  return i;
}

InstrRef instr_ref(uint16_t core, const AccessRef& r, const char* access) {
  return instr_ref(core, r, op_name(r.op), access);
}

std::string line_of(const AccessRef& r, FileId report_file) {
  if (r.file == report_file || r.file == 0) return "line " + std::to_string(r.line);
  return source_file_name(r.file) + ":" + std::to_string(r.line);
}

}  // namespace aicore::check
