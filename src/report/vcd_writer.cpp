#include "aicore/report/vcd_writer.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "aicore/common/error.hpp"

namespace aicore::report {

namespace {

// VCD identifiers: short strings of printable ASCII '!'..'~'.
std::string vcd_id(size_t n) {
  std::string s;
  do {
    s += static_cast<char>('!' + n % 94);
    n /= 94;
  } while (n);
  return s;
}

// "core1/MTE2" -> {"core1", "MTE2"}: one VCD scope per level (one per core on a chip of several).
std::vector<std::string> split_scope(const std::string& scope) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t slash; (slash = scope.find('/', start)) != std::string::npos; start = slash + 1)
    out.push_back(scope.substr(start, slash - start));
  out.push_back(scope.substr(start));
  return out;
}

}  // namespace

VcdWriter::VcdWriter(const std::string& path, const config::Config& cfg, const std::string& trace,
                     SignalTracker& signals)
    : path_(path), tracker_(signals) {
  const CycleWindow& window = signals.window();
  if (!out_.open(path))
    throw InputError(SourceLoc{path, 0, 0}, std::string("cannot create waves.vcd: ") + std::strerror(errno));
  open_ = true;
  signals.add_sink(*this);
  // No $date: the same run gives the same file.
  out_ << "$version aicore-sim $end\n$comment trace " << trace << ", config " << cfg.name
       << "; 1 time unit = 1 cycle at ";
  out_.real(cfg.clock_mhz) << " MHz";
  if (!window.whole()) out_ << "; window from cycle " << window.begin;
  out_ << " $end\n$timescale 1ns $end\n$scope module aicore $end\n";
  const auto& sig = tracker_.signals();
  std::vector<std::string> open;  // the nested scopes the previous signal was in
  for (size_t i = 0; i < sig.size(); ++i) {
    ids_.push_back(vcd_id(i));
    const std::vector<std::string> path = split_scope(sig[i].scope);
    size_t same = 0;
    while (same < open.size() && same < path.size() && open[same] == path[same]) ++same;
    for (size_t k = open.size(); k > same; --k) out_ << "$upscope $end\n";
    for (size_t k = same; k < path.size(); ++k) out_ << "$scope module " << path[k] << " $end\n";
    open = path;
    out_ << "$var " << (sig[i].kind == SignalKind::Real ? "real " : "wire ") << sig[i].width << ' ' << ids_[i]
         << ' ' << sig[i].name << " $end\n";
  }
  for (size_t k = open.size(); k > 0; --k) out_ << "$upscope $end\n";
  out_ << "$upscope $end\n$enddefinitions $end\n";
}

VcdWriter::~VcdWriter() = default;

void VcdWriter::write_value(const SignalValue& v) {
  const SignalInfo& s = tracker_.signals()[v.signal];
  if (s.kind == SignalKind::Real) {
    out_ << 'r';
    out_.fixed3(real_value(v.value)) << ' ';
  } else if (s.kind == SignalKind::Bit) {
    out_ << (v.value == kUnknown ? 'x' : v.value ? '1' : '0');
  } else if (v.value == kUnknown) {
    out_ << "bx ";
  } else {
    char bits[66];
    int n = 65;
    bits[n] = ' ';
    uint64_t x = v.value;
    do {
      bits[--n] = static_cast<char>('0' + (x & 1));
      x >>= 1;
    } while (x);
    bits[--n] = 'b';
    out_ << std::string_view(bits + n, static_cast<size_t>(66 - n));
  }
  out_ << ids_[v.signal] << '\n';
}

void VcdWriter::on_values(uint64_t cycle, const std::vector<SignalValue>& values, bool initial) {
  out_ << '#' << cycle << '\n';
  any_time_ = true;
  last_time_ = cycle;
  if (initial) out_ << "$dumpvars\n";
  for (const SignalValue& v : values) write_value(v);
  if (initial) out_ << "$end\n";
}

void VcdWriter::finish(uint64_t end_cycle) {
  if (!open_) return;
  open_ = false;
  const uint64_t last = std::min(end_cycle, tracker_.window().end);
  if (any_time_ && last > last_time_) out_ << '#' << last << '\n';
  if (!out_.close()) throw InputError(SourceLoc{path_, 0, 0}, "cannot write waves.vcd (disk full?)");
}

}  // namespace aicore::report
