#include "aicore/report/timeline.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
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
    : path_(path), mhz_(cfg.clock_mhz), tracker_(signals), tensors_(tensors) {
  if (!out_.open(path))
    throw InputError(SourceLoc{path, 0, 0},
                     std::string("cannot create timeline.json: ") + std::strerror(errno));
  open_ = true;
  signals.add_sink(*this);
  counter_name_.resize(tracker_.signals().size());
  counter_arg_.resize(tracker_.signals().size());
  for (Pipe p : kLanes)
    if (const int s = tracker_.queue_signal(p); s >= 0) {
      counter_name_[static_cast<size_t>(s)] = std::string(lane_name(p)) + " queue";
      counter_arg_[static_cast<size_t>(s)] = "depth";
    }
  for (int i = 0; i < kPathCount; ++i) {
    const auto s = static_cast<size_t>(tracker_.path_signal(static_cast<Path>(i)));
    counter_name_[s] = to_string(static_cast<Path>(i));
    counter_arg_[s] = "bytes_per_cycle";
  }
  out_ << "{\"traceEvents\":[\n";
  begin_event();
  out_ << "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"args\":{\"name\":\"aicore-sim "
       << json_escape(trace) << " (" << json_escape(cfg.name) << ", ";
  out_.real(cfg.clock_mhz) << " MHz)\"}}";
  for (Pipe p : kLanes) {
    begin_event();
    out_ << "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":" << tid_of(p)
         << ",\"args\":{\"name\":\"" << lane_name(p) << "\"}}";
    begin_event();
    out_ << "{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":1,\"tid\":" << tid_of(p)
         << ",\"args\":{\"sort_index\":" << tid_of(p) << "}}";
  }
}

TimelineWriter::~TimelineWriter() = default;

void TimelineWriter::begin_event() {
  if (!first_) out_ << ",\n";
  first_ = false;
}

uint64_t TimelineWriter::ns(uint64_t cycle) const {
  return static_cast<uint64_t>(std::floor(static_cast<double>(cycle) * 1000.0 / mhz_));
}

// Microseconds with whole nanoseconds (Perfetto's resolution). A slice's duration is
// ns(end) - ns(start), so after the viewer's own conversion it never reaches into the next
// slice on its track. Start times carry an extra quarter nanosecond ("25" after the ns
// digits): viewers that truncate (older Perfetto) and those that round both land on the whole
// nanosecond instead of one below it.
void TimelineWriter::us(uint64_t ns, bool start) {
  out_ << ns / 1000 << '.';
  out_.padded(ns % 1000, 3);
  if (start) out_ << "25";
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

void TimelineWriter::flow(char phase, uint64_t id, const isa::Instruction& instr, Pipe pipe, uint64_t cycle) {
  const isa::EventPair e =
      phase == 's' ? std::get<isa::SetFlag>(instr.op).event : std::get<isa::WaitFlag>(instr.op).event;
  const uint8_t fid =
      phase == 's' ? std::get<isa::SetFlag>(instr.op).id : std::get<isa::WaitFlag>(instr.op).id;
  char name[32];
  begin_event();
  out_ << "{\"name\":\"" << flag_text(e, fid, name) << "\",\"cat\":\"flag\",\"ph\":\"" << phase
       << "\",\"id\":" << id << ",\"pid\":1,\"tid\":" << tid_of(pipe) << ",\"ts\":";
  us(ns(cycle), true);
  out_ << ",\"bp\":\"e\"}";
}

void TimelineWriter::on_instruction(const model::InstrRecord& r) {
  const isa::Instruction& in = *r.instr;
  // The WaitFlag's arrow end: its release was reported just before (on_flag).
  std::optional<uint64_t> released_by;
  if (std::holds_alternative<isa::WaitFlag>(in.op))
    for (size_t i = 0; i < releases_.size(); ++i)
      if (releases_[i].first == in.index) {
        released_by = releases_[i].second;
        releases_.erase(releases_.begin() + static_cast<std::ptrdiff_t>(i));
        break;
      }
  if (!tracker_.window().shows(r.start_cycle, r.busy_end)) return;
  const uint64_t ns0 = ns(r.start_cycle);
  begin_event();
  out_ << "{\"name\":\"" << isa::mnemonic(in.op) << "\",\"cat\":\"" << lane_name(r.pipe)
       << "\",\"ph\":\"X\",\"pid\":1,\"tid\":" << tid_of(r.pipe) << ",\"ts\":";
  us(ns0, true);
  out_ << ",\"dur\":";
  us(ns(r.busy_end) - ns0, false);
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
  // Flow events right after their slice: at an equal timestamp the viewer then binds them to
  // this slice, not to a neighbour that starts within the same nanosecond.
  if (std::holds_alternative<isa::SetFlag>(in.op)) {
    flow('s', in.index, in, r.pipe, r.start_cycle);
    open_sets_.push_back(in.index);
  } else if (released_by) {
    flow('f', *released_by, in, r.pipe, r.start_cycle);
  }
}

void TimelineWriter::on_flag(const model::FlagEvent& e) {
  if (e.set) return;  // the arrow starts at the SetFlag's slice, written with it
  const auto it = std::find(open_sets_.begin(), open_sets_.end(), e.set_index);
  if (it == open_sets_.end()) return;  // its SetFlag lies outside the window
  open_sets_.erase(it);
  releases_.emplace_back(e.instr_index, e.set_index);
}

void TimelineWriter::on_values(uint64_t cycle, const std::vector<SignalValue>& values, bool /*initial*/) {
  for (const SignalValue& v : values) {
    const std::string& name = counter_name_[v.signal];
    if (name.empty()) continue;
    begin_event();
    out_ << "{\"name\":\"" << name << "\",\"ph\":\"C\",\"pid\":1,\"ts\":";
    us(ns(cycle), true);
    out_ << ",\"args\":{\"" << counter_arg_[v.signal] << "\":";
    if (tracker_.signals()[v.signal].kind == SignalKind::Real)
      out_.fixed3(real_value(v.value));
    else
      out_ << v.value;
    out_ << "}}";
  }
}

void TimelineWriter::finish() {
  if (!open_) return;
  open_ = false;
  out_ << "\n]}\n";
  if (!out_.close()) throw InputError(SourceLoc{path_, 0, 0}, "cannot write timeline.json (disk full?)");
}

}  // namespace aicore::report
