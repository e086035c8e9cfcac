#include "aicore/report/timeline.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string_view>

#include "aicore/common/error.hpp"
#include "aicore/report/instr_csv.hpp"
#include "aicore/trace/writer.hpp"

namespace aicore::report {

using isa::Pipe;

namespace {

const Pipe kLanes[] = {Pipe::S, Pipe::MTE2, Pipe::MTE1, Pipe::M, Pipe::FIX, Pipe::MTE3};

int tid_of(Pipe p) {
  for (int i = 0; i < 6; ++i)
    if (kLanes[i] == p) return i + 1;
  return 0;
}

bool needs_escape(char c) {
  return c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20;
}

std::string json_escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (!needs_escape(c)) {
      out += c;
    } else if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
      out += buf;
    }
  }
  return out;
}

}  // namespace

TimelineWriter::TimelineWriter(const std::string& path, const config::Config& cfg, const std::string& trace,
                               SignalTracker& signals, const std::vector<model::TensorInfo>& tensors)
    : path_(path), tracker_(signals), tensors_(tensors) {
  if (!out_.open(path))
    throw InputError(SourceLoc{path, 0, 0},
                     std::string("cannot create timeline.json: ") + std::strerror(errno));
  open_ = true;
  signals.add_sink(*this);
  const size_t n = tracker_.signals().size();
  counter_name_.resize(n);
  counter_arg_.resize(n);
  counter_started_.assign(n, 0);
  initial_.assign(n, SignalValue{0, 0});
  lane_declared_.assign(tracker_.cores() * isa::kPipeCount, 0);
  process_declared_.assign(tracker_.cores(), 0);
  for (uint16_t c = 0; c < tracker_.cores(); ++c) {
    for (Pipe p : kLanes)
      if (const int s = tracker_.queue_signal(p, isa::CoreId{c}); s >= 0) {
        counter_name_[static_cast<size_t>(s)] = std::string(lane_name(p)) + " queue";
        counter_arg_[static_cast<size_t>(s)] = "depth";
      }
    for (int i = 0; i < kPathCount; ++i) {
      const auto s = static_cast<size_t>(tracker_.path_signal(static_cast<Path>(i), isa::CoreId{c}));
      counter_name_[s] = to_string(static_cast<Path>(i));
      counter_arg_[s] = "bytes_per_cycle";
    }
    for (Path p : kGmPaths) {
      const auto hit = static_cast<size_t>(tracker_.l2_signal(p, false, isa::CoreId{c}));
      const auto hbm = static_cast<size_t>(tracker_.l2_signal(p, true, isa::CoreId{c}));
      counter_name_[hit] = std::string(to_string(p)) + " L2 hits";
      counter_arg_[hit] = "hit_rate";
      counter_name_[hbm] = std::string(to_string(p)) + " HBM";
      counter_arg_[hbm] = "bytes_per_cycle";
    }
  }
  out_ << "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"trace\":\"" << json_escape(trace)
       << "\",\"config\":\"" << json_escape(cfg.name) << "\",\"clock_mhz\":";
  out_.real(cfg.clock_mhz) << ",\"time_axis\":\"1 ns = 1 cycle\"},\"traceEvents\":[\n";
  // One process per core: "aicore-sim TRACE (...)" on a chip of one core, "core1 ..." on more.
  trace_ = json_escape(trace);
  char mhz[32];
  std::snprintf(mhz, sizeof mhz, "%.10g", cfg.clock_mhz);  // as TextOut::real writes it
  process_suffix_ = " (" + json_escape(cfg.name) + ", " + mhz + " MHz; time axis in cycles: 1 ns = 1 cycle)";
  declare_process(isa::CoreId{0});
}

void TimelineWriter::declare_process(isa::CoreId c) {
  if (c.value >= process_declared_.size() || process_declared_[c.value]) return;
  process_declared_[c.value] = 1;
  begin_event();
  out_ << "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":" << pid_of(c) << ",\"args\":{\"name\":\"";
  if (tracker_.cores() > 1)
    out_ << "core" << c.value << " of aicore-sim " << trace_;
  else
    out_ << "aicore-sim " << trace_;
  out_ << process_suffix_ << "\"}}";
  if (tracker_.cores() > 1) {
    begin_event();
    out_ << "{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":" << pid_of(c)
         << ",\"args\":{\"sort_index\":" << pid_of(c) << "}}";
  }
}

TimelineWriter::~TimelineWriter() = default;

void TimelineWriter::begin_event() {
  if (!first_) out_ << ",\n";
  first_ = false;
}

// Exact decimals (c / 1000): a viewer's rounding to whole nanoseconds gets c back.
void TimelineWriter::ts(uint64_t cycle) {
  out_ << cycle / 1000;
  if (cycle % 1000) {
    out_ << '.';
    out_.padded(cycle % 1000, 3);
  }
}

void TimelineWriter::declare_lane(isa::CoreId c, Pipe p) {
  uint8_t& declared = lane_declared_[c.value * isa::kPipeCount + static_cast<size_t>(p)];
  if (declared) return;
  declared = 1;
  declare_process(c);
  begin_event();
  out_ << "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":" << pid_of(c) << ",\"tid\":" << tid_of(p)
       << ",\"args\":{\"name\":\"" << lane_name(p) << "\"}}";
  begin_event();
  out_ << "{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":" << pid_of(c) << ",\"tid\":" << tid_of(p)
       << ",\"args\":{\"sort_index\":" << tid_of(p) << "}}";
}

void TimelineWriter::operands(const isa::Op& op) {
  while (gm_names_.size() < tensors_.size()) gm_names_.push_back(tensors_[gm_names_.size()].name);
  text_.clear();
  try {
    trace::append_instruction(text_, op, gm_names_);
  } catch (const std::exception&) {
    return;  // an operand with no name (cannot come from a parsed trace): leave it empty
  }
  // Drop "Mnemonic "; GM tensor names are the only free text, so escaping is rarely needed.
  const std::string_view ops =
      std::string_view(text_).substr(std::min(text_.size(), std::strlen(isa::mnemonic(op)) + 1));
  if (std::none_of(ops.begin(), ops.end(), needs_escape))
    out_ << ops;
  else
    out_ << json_escape(ops);
}

void TimelineWriter::slice(const model::InstrRecord& r, Flow flow, uint64_t flow_id) {
  const isa::Instruction& in = *r.instr;
  declare_lane(r.core, r.pipe);
  begin_event();
  out_ << "{\"name\":\"" << isa::mnemonic(in.op) << "\",\"cat\":\"" << lane_name(r.pipe)
       << "\",\"ph\":\"X\",\"pid\":" << pid_of(r.core) << ",\"tid\":" << tid_of(r.pipe) << ",\"ts\":";
  ts(r.start_cycle);
  out_ << ",\"dur\":";
  ts(r.busy_end - r.start_cycle);
  if (flow != Flow::None)
    out_ << ",\"bind_id\":" << flow_id << (flow == Flow::Out ? ",\"flow_out\":true" : ",\"flow_in\":true");
  out_ << ",\"args\":{\"index\":" << in.index << ",\"line\":" << in.line << ",\"operands\":\"";
  operands(in.op);
  out_ << "\",\"bytes\":" << r.bytes << ",\"cycles\":" << r.busy_end - r.start_cycle
       << ",\"issue_cycle\":" << r.issue_cycle << ",\"start_cycle\":" << r.start_cycle
       << ",\"busy_end_cycle\":" << r.busy_end << ",\"end_cycle\":" << r.end_cycle;
  // Zero fields are left out: most instructions neither compute nor wait, and size matters.
  if (r.macs) out_ << ",\"macs\":" << r.macs << ",\"dense_macs\":" << r.dense_macs;
  if (r.wait_cycles) {
    char cause[32];
    out_ << ",\"wait_cycles\":" << r.wait_cycles << ",\"wait_cause\":\"" << wait_cause_text(r, cause) << '"';
  }
  if (r.queue_wait_cycles) out_ << ",\"queue_wait_cycles\":" << r.queue_wait_cycles;
  out_ << "}}";
}

void TimelineWriter::write_held(size_t i, Flow flow, uint64_t flow_id) {
  HeldSet& h = held_[i];
  h.record.instr = &h.instr;
  slice(h.record, flow, flow_id);
  held_.erase(held_.begin() + static_cast<std::ptrdiff_t>(i));
}

void TimelineWriter::on_instruction(const model::InstrRecord& r) {
  const isa::Instruction& in = *r.instr;
  const bool shown = tracker_.window().shows(r.start_cycle, r.busy_end);
  if (std::holds_alternative<isa::SetFlag>(in.op)) {
    if (shown) held_.push_back(HeldSet{in, r});  // written with its WaitFlag, or at the end
    return;
  }
  // A WaitFlag's release was reported just before (on_flag): the SetFlag it consumed goes out
  // first, then the WaitFlag, both bound to one flow when both are shown.
  if (std::holds_alternative<isa::WaitFlag>(in.op)) {
    for (size_t i = 0; i < releases_.size(); ++i) {
      if (releases_[i].wait_index != in.index || releases_[i].core != r.core) continue;
      const uint64_t set = releases_[i].set_index;
      releases_.erase(releases_.begin() + static_cast<std::ptrdiff_t>(i));
      for (size_t h = 0; h < held_.size(); ++h) {
        if (held_[h].instr.index != set || held_[h].record.core != r.core) continue;
        if (!shown) {
          write_held(h, Flow::None, 0);
          break;
        }
        const uint64_t id = next_flow_id_++;
        write_held(h, Flow::Out, id);
        slice(r, Flow::In, id);
        return;
      }
      break;
    }
  }
  if (shown) slice(r, Flow::None, 0);
}

void TimelineWriter::on_flag(const model::FlagEvent& e) {
  if (e.set) return;  // the arrow starts at the SetFlag's slice
  releases_.push_back(Release{e.core, e.instr_index, e.set_index});
}

void TimelineWriter::counter_sample(uint64_t cycle, const SignalValue& v) {
  begin_event();
  const isa::CoreId core = tracker_.core_of(v.signal);
  declare_process(core);
  out_ << "{\"name\":\"" << counter_name_[v.signal] << "\",\"ph\":\"C\",\"pid\":" << pid_of(core)
       << ",\"ts\":";
  ts(cycle);
  out_ << ",\"args\":{\"" << counter_arg_[v.signal] << "\":";
  if (tracker_.signals()[v.signal].kind == SignalKind::Real)
    out_.fixed3(real_value(v.value));
  else
    out_ << v.value;
  out_ << "}}";
}

// The tracker sends each changed value once per cycle, so each counter gets at most one sample
// per timestamp. The initial batch (every signal at the window's start) is kept, not written:
// a counter that never changes would be a flat, empty track.
void TimelineWriter::on_values(uint64_t cycle, const std::vector<SignalValue>& values, bool initial) {
  if (initial) {
    initial_cycle_ = cycle;
    for (const SignalValue& v : values) initial_[v.signal] = v;
    return;
  }
  for (const SignalValue& v : values) {
    if (counter_name_[v.signal].empty()) continue;
    if (!counter_started_[v.signal]) {
      counter_started_[v.signal] = 1;
      counter_sample(initial_cycle_, initial_[v.signal]);
    }
    counter_sample(cycle, v);
  }
}

void TimelineWriter::finish() {
  if (!open_) return;
  open_ = false;
  while (!held_.empty()) write_held(0, Flow::None, 0);  // set, never consumed
  out_ << "\n]}\n";
  if (!out_.close()) throw InputError(SourceLoc{path_, 0, 0}, "cannot write timeline.json (disk full?)");
}

}  // namespace aicore::report
