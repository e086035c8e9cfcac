// Field values with structure: memory operands, event pairs, barrier pipes, dtypes.
#include "values.hpp"

#include <iterator>
#include <limits>

namespace aicore::trace::detail {

namespace {

using isa::Space;

// ---- operands ---------------------------------------------------------------------------------

struct SpaceName {
  const char* name;
  Space space;
};
constexpr SpaceName kSpaceNames[] = {{"L1", Space::L1},        {"L0A", Space::L0A},     {"L0B", Space::L0B},
                                     {"L0C", Space::L0C},      {"A1", Space::L1},       {"B1", Space::L1},
                                     {"A2", Space::L0A},       {"B2", Space::L0B},      {"CO1", Space::L0C},
                                     {"BT", Space::BiasTable}, {"C2", Space::BiasTable}};

const std::vector<std::string>& space_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const auto& s : kSpaceNames) v.emplace_back(s.name);
    return v;
  }();
  return names;
}

constexpr uint64_t kU64Max = std::numeric_limits<uint64_t>::max();

constexpr const auto& kDTypes = isa::kAllDTypes;

}  // namespace

std::string describe_spaces(SpaceMask mask) {
  std::string out;
  for (const Space s : {Space::GM, Space::L1, Space::L0A, Space::L0B, Space::L0C, Space::BiasTable}) {
    if (!(mask & bit(s))) continue;
    if (!out.empty()) out += " or ";
    out += isa::to_string(s);
    if (s == Space::GM) {
      out += " (a .gm tensor)";
      continue;
    }
    std::string names;
    for (const auto& n : kSpaceNames)
      if (n.space == s) names += (names.empty() ? "" : "/") + std::string(n.name);
    out += " (" + names + ")";
  }
  return out;
}

isa::Addr parse_operand(const KeyValue& kv, SpaceMask allowed, const Env& env) {
  const LineContext& ctx = env.ctx;
  const std::string_view v = kv.value;
  const std::string key(kv.key);
  const auto wrong_space = [&](const std::string& got) {
    ctx.fail(kv.key_column,
             key + " of " + env.mnemonic + " must be in " + describe_spaces(allowed) + ", got " + got);
  };
  isa::Addr a;
  const size_t colon = v.find(':');
  if (colon != std::string_view::npos) {
    const std::string_view name = v.substr(0, colon);
    const SpaceName* found = nullptr;
    for (const auto& s : kSpaceNames)
      if (name == s.name) found = &s;
    if (!found) {
      if (name == "GM")
        ctx.fail(kv.value_column,
                 "GM operands are written as a .gm tensor name, optionally +OFFSET (e.g. c+256)");
      ctx.fail(kv.value_column, "unknown memory space " + quote(name) +
                                    "; expected L1, L0A, L0B, L0C, BT, A1, B1, A2, B2, CO1 or C2" +
                                    suggestion(name, space_names()));
    }
    a.space = found->space;
    a.offset = parse_uint(v.substr(colon + 1), kv.value_column + static_cast<uint32_t>(colon) + 1, kU64Max,
                          What("offset of", key, " "), ctx);
    if (!(allowed & bit(a.space))) {
      std::string got(found->name);
      if (got != isa::to_string(a.space)) got += " (= " + std::string(isa::to_string(a.space)) + ")";
      wrong_space(got);
    }
    return a;
  }
  const size_t plus = v.find('+');
  const std::string_view name = v.substr(0, plus);
  if (!(allowed & isa::kGM))
    wrong_space(quote(v) + " (a GM tensor; on-chip operands are written SPACE:OFFSET)");
  a.space = Space::GM;
  const GmDecl* tensor = env.tensors.find(name);
  if (!tensor) {
    std::string msg = "unknown tensor " + quote(name);
    for (const auto& s : kSpaceNames)
      if (name == s.name) msg += " (on-chip operands are written SPACE:OFFSET, e.g. L1:0)";
    if (env.tensors.list().empty()) msg += " (no .gm tensor is declared before this line)";
    ctx.fail(kv.value_column, msg + env.tensors.suggest(name));
  }
  a.tensor = tensor->id;
  if (plus != std::string_view::npos)
    a.offset = parse_uint(v.substr(plus + 1), kv.value_column + static_cast<uint32_t>(plus) + 1, kU64Max,
                          What("offset of", key, " "), ctx);
  return a;
}

// ---- enumerations -----------------------------------------------------------------------------

namespace {
const std::vector<std::string>& pipe_names() {
  static const std::vector<std::string> names = {"S", "MTE1", "MTE2", "MTE3", "M", "FIX"};
  return names;
}
}  // namespace

isa::EventPair parse_event(const KeyValue& kv, const Env& env) {
  const std::string_view v = kv.value;
  const size_t us = v.find('_');
  if (us == std::string_view::npos)
    env.ctx.fail(kv.value_column,
                 "malformed event " + quote(v) +
                     ": expected SRC_DST with pipes S, MTE1, MTE2, MTE3, M or FIX (e.g. MTE2_MTE1)");
  const auto pipe = [&](std::string_view part, uint32_t column, const char* role) {
    const auto p = isa::pipe_from_string(part);
    if (!p)
      env.ctx.fail(column, std::string("unknown ") + role + " pipe " + quote(part) + " in event " + quote(v) +
                               "; expected S, MTE1, MTE2, MTE3, M or FIX" + suggestion(part, pipe_names()));
    return *p;
  };
  isa::EventPair e;
  e.src = pipe(v.substr(0, us), kv.value_column, "source");
  e.dst = pipe(v.substr(us + 1), kv.value_column + static_cast<uint32_t>(us) + 1, "destination");
  return e;
}

const std::vector<std::string>& barrier_pipe_names() {
  static const std::vector<std::string> names = {"PIPE_S", "PIPE_MTE1", "PIPE_MTE2", "PIPE_MTE3",
                                                 "PIPE_M", "PIPE_FIX",  "PIPE_ALL"};
  return names;
}

isa::PipeBarrier parse_barrier_pipe(const KeyValue& kv, const Env& env) {
  const std::vector<std::string>& names = barrier_pipe_names();
  const std::string v(kv.value);
  if (v == "PIPE_ALL") return isa::PipeBarrier{isa::Pipe::S, true};
  if (v.rfind("PIPE_", 0) == 0)
    if (const auto p = isa::pipe_from_string(v.substr(5))) return isa::PipeBarrier{*p, false};
  std::string hint = suggestion(v, names);
  if (hint.empty() && isa::pipe_from_string(v)) hint = "; did you mean 'PIPE_" + v + "'?";
  env.ctx.fail(kv.value_column,
               "unknown pipe " + quote(v) +
                   "; expected PIPE_MTE2, PIPE_MTE1, PIPE_M, PIPE_FIX, PIPE_MTE3, PIPE_S or PIPE_ALL" + hint);
}

isa::DType parse_dtype(const KeyValue& kv, DTypeMask allowed, const Env& env) {
  std::vector<std::string> names;
  for (const isa::DType t : kDTypes)
    if (allowed & bit(t)) names.emplace_back(isa::to_string(t));
  const auto t = isa::dtype_from_string(std::string(kv.value));
  if (!t)
    env.ctx.fail(kv.value_column, "unknown dtype " + quote(kv.value) + " for " + std::string(kv.key) +
                                      "; expected " + isa::describe_dtypes(allowed) +
                                      suggestion(kv.value, names));
  if (!(allowed & bit(*t)))
    env.ctx.fail(kv.value_column, std::string(env.mnemonic) + " " + std::string(kv.key) + " must be " +
                                      isa::describe_dtypes(allowed) + ", not " + quote(kv.value));
  return *t;
}

namespace {
constexpr isa::QuantMode kQuantModes[] = {
    isa::QuantMode::NoQuant, isa::QuantMode::F322F16,      isa::QuantMode::F322BF16,
    isa::QuantMode::DEQF16,  isa::QuantMode::QF322B8_PRE,  isa::QuantMode::REQ8,
    isa::QuantMode::VDEQF16, isa::QuantMode::VQF322B8_PRE, isa::QuantMode::VREQ8};
}  // namespace

std::string describe_quant_modes() {
  std::string out;
  for (size_t i = 0; i < std::size(kQuantModes); ++i)
    out += std::string(i == 0                            ? ""
                       : i + 1 == std::size(kQuantModes) ? " or "
                                                         : ", ") +
           isa::to_string(kQuantModes[i]);
  return out;
}

isa::QuantMode parse_quant_mode(const KeyValue& kv, const Env& env) {
  // QuantMode_t::X as an Ascend C call spells it is accepted too.
  std::string_view v = kv.value;
  if (v.substr(0, 13) == "QuantMode_t::") v.remove_prefix(13);
  if (const auto q = isa::quant_mode_from_string(v)) return *q;
  std::vector<std::string> names;
  for (const isa::QuantMode q : kQuantModes) names.emplace_back(isa::to_string(q));
  env.ctx.fail(kv.value_column, "unknown " + std::string(kv.key) + " " + quote(v) + "; expected " +
                                    describe_quant_modes() + suggestion(v, names));
}

std::vector<std::string> aliases_of(isa::Space s) {
  std::vector<std::string> out;
  for (const auto& n : kSpaceNames)
    if (n.space == s) out.emplace_back(n.name);
  return out;
}

}  // namespace aicore::trace::detail
