// Raw text -> typed values: the only place values are interpreted, so a YAML value and a --set
// value of the same key are held to exactly the same rules.
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

#include "aicore/config/params.hpp"
#include "raw.hpp"

namespace aicore::config::detail {
namespace {

// Decimal or 0x hex, no sign, no spaces, no overflow.
bool parse_unsigned(const std::string& s, uint64_t& out) {
  const bool hex = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  const size_t begin = hex ? 2 : 0;
  if (s.size() == begin) return false;
  const uint64_t base = hex ? 16 : 10;
  uint64_t v = 0;
  for (size_t i = begin; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    uint64_t d;
    if (std::isdigit(c))
      d = c - '0';
    else if (hex && std::isxdigit(c))
      d = std::tolower(c) - 'a' + 10;
    else
      return false;
    if (v > (std::numeric_limits<uint64_t>::max() - d) / base) return false;
    v = v * base + d;
  }
  out = v;
  return true;
}

// Plain decimal floating point ("150", "-2", "0.5", "1e3"); rejects what strtod would also take
// but a config should not: leading spaces, hex floats, inf, nan.
bool parse_decimal(const std::string& s, double& out) {
  if (s.empty()) return false;
  const unsigned char c0 = static_cast<unsigned char>(s[0]);
  if (!(std::isdigit(c0) || c0 == '-' || c0 == '+' || c0 == '.')) return false;
  if (s.find_first_of("xXnN") != std::string::npos) return false;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || !std::isfinite(v)) return false;
  out = v;
  return true;
}

// The value as a number, or throws a type error. Negative integers parse here so that the range
// check can say "must be >= 0" instead of "not a number".
long double parse_value(const Param& p, const RawValue& raw, bool integer) {
  const std::string& s = raw.text;
  uint64_t u = 0;
  if (parse_unsigned(s, u)) return static_cast<long double>(u);
  if (!s.empty() && s[0] == '-' && parse_unsigned(s.substr(1), u)) return -static_cast<long double>(u);
  // All digits but too long for 64 bits: a range problem, not a type problem.
  if (!s.empty() && s.find_first_not_of("0123456789") == std::string::npos)
    return std::numeric_limits<long double>::max();
  double d = 0;
  if (!integer && parse_decimal(s, d)) return d;
  const std::string want = integer ? "an integer (decimal or 0x hex)" : "a number";
  throw InputError(raw.loc, "key '" + p.key + "' expects " + want + " in " + p.unit + ", got '" + s + "'");
}

std::string number_text(long double v) {
  return format_number(static_cast<double>(v));
}

void check_range(const Param& p, const RawValue& raw, long double v) {
  const std::string head = "value " + raw.text + " of '" + p.key + "' is out of range: must be ";
  if (v < p.min) {
    const bool positive = p.min > 0 && v <= 0;
    throw InputError(raw.loc, head + (positive ? "> 0" : ">= " + number_text(p.min)) + " " + p.unit);
  }
  if (v > p.max) throw InputError(raw.loc, head + "<= " + number_text(p.max) + " " + p.unit);
  if (p.multiple_of > 1 && std::fmod(v, static_cast<long double>(p.multiple_of)) != 0)
    throw InputError(raw.loc, head + "a multiple of " + std::to_string(p.multiple_of) + " " + p.unit);
}

void store(const Param& p, Config& c, long double v) {
  std::visit([v](auto* field) { *field = static_cast<std::remove_pointer_t<decltype(field)>>(v); },
             p.field(c));
}

// Where to blame a rule between two keys: the one a --set changed last, since that is the
// change the user just made; else the one the loaded file itself gives (not the preset it is an
// overlay of); otherwise the first.
const RawValue& blame(const RawConfig& raw, const std::string& a, const std::string& b) {
  const RawValue& va = raw.values.at(a);
  const RawValue& vb = raw.values.at(b);
  const bool sa = va.loc.file == "--set", sb = vb.loc.file == "--set";
  if (sb && (!sa || vb.loc.line > va.loc.line)) return vb;
  if (!sa && vb.loc.file == raw.file && va.loc.file != raw.file) return vb;
  return va;
}

void check_l2(const RawConfig& raw, const L2& l2) {
  const uint32_t line = l2.line_bytes;
  if ((line & (line - 1)) != 0)
    throw InputError(raw.values.at("chip.l2.line_bytes").loc,
                     "chip.l2.line_bytes (" + std::to_string(line) + ") must be a power of two");
  const uint32_t sector = l2.sector_bytes;
  if ((sector & (sector - 1)) != 0 || sector > line || line / sector > 64)
    throw InputError(blame(raw, "chip.l2.sector_bytes", "chip.l2.line_bytes").loc,
                     "chip.l2.sector_bytes (" + std::to_string(sector) +
                         ") must be a power of two, at most chip.l2.line_bytes (" + std::to_string(line) +
                         ") and at least a 64th of it");
  if (l2.bytes == 0) return;
  const uint64_t set_bytes = uint64_t{line} * l2.ways;
  if (l2.bytes % set_bytes != 0)
    throw InputError(blame(raw, "chip.l2.bytes", "chip.l2.ways").loc,
                     "chip.l2.bytes (" + std::to_string(l2.bytes) +
                         ") must be a multiple of chip.l2.line_bytes x " + "chip.l2.ways (" +
                         std::to_string(set_bytes) + "): every set holds `ways` whole lines");
  // Tags are kept for every line (48 bytes each), allocated for every run.
  constexpr uint64_t kMaxLines = uint64_t{1} << 22;
  if (l2.bytes / line > kMaxLines)
    throw InputError(blame(raw, "chip.l2.bytes", "chip.l2.line_bytes").loc,
                     "chip.l2.bytes / chip.l2.line_bytes = " + std::to_string(l2.bytes / line) +
                         " lines is more than the " + std::to_string(kMaxLines) +
                         " the tag store allows; use longer lines");
}

void check_cross_fields(const RawConfig& raw, const Config& c) {
  check_l2(raw, c.chip.l2);
  const Buffers& b = c.buffers;
  if (b.l1_bytes % b.l1_banks != 0)
    throw InputError(blame(raw, "buffers.l1_bytes", "buffers.l1_banks").loc,
                     "buffers.l1_bytes (" + std::to_string(b.l1_bytes) +
                         ") must be a multiple of buffers.l1_banks (" + std::to_string(b.l1_banks) + ")");
  if (b.l0c_bytes % (uint64_t{b.l0c_banks} * 1024) != 0)
    throw InputError(blame(raw, "buffers.l0c_bytes", "buffers.l0c_banks").loc,
                     "buffers.l0c_bytes (" + std::to_string(b.l0c_bytes) + ") must be a multiple of " +
                         "buffers.l0c_banks (" + std::to_string(b.l0c_banks) +
                         ") x 1024: a bank holds whole 16 x 16 result fractals");
  // LoadDataWithSparse puts the index of the L0B fractal at address a at a / 4 (docs/semantics.md §4).
  if (b.sparse_index_bytes * 4 < b.l0b_bytes)
    throw InputError(blame(raw, "buffers.sparse_index_bytes", "buffers.l0b_bytes").loc,
                     "buffers.sparse_index_bytes (" + std::to_string(b.sparse_index_bytes) +
                         ") must be at least buffers.l0b_bytes / 4 (" + std::to_string(b.l0b_bytes / 4) +
                         "): the index of L0B address a lives at a / 4");
}

// The innermost group of `key` that the file opened, for "missing key" errors; and the outermost
// group that is missing altogether, which is what the user has to add.
void report_missing(const RawConfig& raw, const Param& p) {
  std::string missing = p.key;
  SourceLoc where = raw.groups.at("");
  size_t dot = p.key.find('.');
  while (dot != std::string::npos) {
    const std::string g = p.key.substr(0, dot);
    const auto it = raw.groups.find(g);
    if (it == raw.groups.end()) {
      missing = g;
      break;
    }
    where = it->second;
    dot = p.key.find('.', dot + 1);
  }
  throw InputError(where, "missing key '" + missing + "'" +
                              (missing == p.key ? " (" + p.unit + ", " + p.description + ")"
                                                : " (a mapping that holds " + p.key + ")") +
                              "; a file without 'base:' gives every key (see configs/arch2201.yaml), one "
                              "with 'base: atlas-a2' only those it changes");
}

}  // namespace

Config resolve(const RawConfig& raw, const std::string& name) {
  Config c;
  c.name = name;
  for (const Param& p : params()) {
    const auto it = raw.values.find(p.key);
    if (it == raw.values.end()) report_missing(raw, p);
    const bool integer = !std::holds_alternative<double*>(p.field(c));
    const long double v = parse_value(p, it->second, integer);
    check_range(p, it->second, v);
    store(p, c, v);
  }
  check_cross_fields(raw, c);
  return c;
}

}  // namespace aicore::config::detail
