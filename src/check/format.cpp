#include "aicore/check/format.hpp"

#include <algorithm>
#include <sstream>
#include <unordered_map>

namespace aicore::check {

namespace {

std::string hex(uint64_t v) {
  std::ostringstream s;
  s << "0x" << std::hex << v;
  return s.str();
}

std::string location(const InstrRef& i) {
  const std::string& file = source_file_name(i.file);
  if (file.empty()) return "instruction #" + std::to_string(i.index);
  return file + ":" + std::to_string(i.line);
}

std::string where_line(const InstrRef& i, const InstrRef& at) {
  if (i.file == at.file && i.line) return "line " + std::to_string(i.line);
  return location(i);
}

bool ranged(const Report& r) {
  return r.has_range && (r.kind == ReportKind::DataRace || r.kind == ReportKind::CrossCoreRace ||
                         r.kind == ReportKind::UninitRead || r.kind == ReportKind::InterlockBoundary ||
                         r.kind == ReportKind::TypeConfusion || r.kind == ReportKind::UnitFlagMisuse ||
                         r.kind == ReportKind::DuplicateWrite);
}

// "core 3", "cores 0-23", "cores 0, 2, 5-7" (cores in increasing order).
std::string cores_text(std::vector<uint16_t> cores) {
  std::sort(cores.begin(), cores.end());
  cores.erase(std::unique(cores.begin(), cores.end()), cores.end());
  if (cores.size() == 1) return "core " + std::to_string(cores[0]);
  std::string s = "cores ";
  for (size_t i = 0; i < cores.size();) {
    size_t j = i;
    while (j + 1 < cores.size() && cores[j + 1] == cores[j] + 1) ++j;
    if (i) s += ", ";
    s += std::to_string(cores[i]);
    if (j > i) s += (j == i + 1 ? ", " : "-") + std::to_string(cores[j]);
    i = j + 1;
  }
  return s;
}

// `where` is "" (core 0 is not named, another core is: " in core 3") or the text of the cores a
// merged report stands for.
std::string headline(const Report& r, const std::vector<std::string>& gm_names,
                     const std::string& where = "") {
  std::string s = location(r.at) + ": " + to_string(r.severity) + ": " + to_string(r.kind);
  if (!r.hazard.empty()) s += " (" + r.hazard + ")";
  if (ranged(r))
    s += std::string(r.kind == ReportKind::UninitRead ? " of " : " on ") +
         buffer_name(r.space, r.tensor, gm_names) + " [" + hex(r.lo) + ", " + hex(r.hi) + ")";
  if (!where.empty())
    s += " in " + where;
  else if (r.kind != ReportKind::CrossCoreRace && r.at.core != 0)
    s += " in core " + std::to_string(r.at.core);
  return s + ": " + r.summary;
}

std::string instr_line(const InstrRef& i) {
  std::string s = location(i) + ": " + i.mnemonic + " (" + isa::to_string(i.pipe) + ")";
  if (!i.access.empty()) s += " " + i.access;
  return s;
}

std::string timing_line(const Report& r, bool name_core = false) {
  const Timing& t = r.timing;
  if (!t.second_known) return "";
  const std::string second = where_line(r.at, r.at);
  std::string s = std::string("  timing (this run") +
                  (name_core ? ", core " + std::to_string(r.at.core) : "") + "; other configs differ): ";
  if (!r.other)
    return s + second + " ran cycles " + std::to_string(t.second_start) + "-" + std::to_string(t.second_end);
  const std::string first = where_line(*r.other, r.at);
  if (!t.first_known)
    return s + second + " ran cycles " + std::to_string(t.second_start) + "-" + std::to_string(t.second_end) +
           " (" + first + ": cycles not kept)";
  s += first + " ran cycles " + std::to_string(t.first_start) + "-" + std::to_string(t.first_end) + ", " +
       second + " cycles " + std::to_string(t.second_start) + "-" + std::to_string(t.second_end) + ": ";
  if (t.observed()) return s + "it showed (" + second + " started before " + first + " finished)";
  return s + "it did not show in this run (" + second + " started after " + first +
         " finished), but other timings can make it show";
}

nlohmann::json instr_json(const InstrRef& i) {
  return {{"core", i.core},
          {"index", i.index},
          {"file", source_file_name(i.file)},
          {"line", i.line},
          {"pipe", isa::to_string(i.pipe)},
          {"mnemonic", i.mnemonic},
          {"access", i.access}};
}

}  // namespace

std::string buffer_name(isa::Space s, uint32_t tensor, const std::vector<std::string>& gm_names) {
  if (s != isa::Space::GM) return isa::to_string(s);
  if (tensor < gm_names.size() && !gm_names[tensor].empty()) return "GM " + gm_names[tensor];
  return "GM tensor " + std::to_string(tensor);
}

namespace {

// A report as format_report renders it; a merged one (the same report in several cores) names
// its cores in the headline, counts the repeats of all and shows the first core's timing.
std::string render(const Report& r, const std::vector<std::string>& gm_names, const std::string& where = "",
                   bool with_timing = true) {
  std::string s = headline(r, gm_names, where) + "\n";
  if (r.other) {
    s += "  first:  " + instr_line(*r.other) + "\n";
    s += "  second: " + instr_line(r.at) + "\n";
  }
  if (ranged(r) && (r.ranges > 1 || r.bytes != r.hi - r.lo))
    s += "  bytes: " + std::to_string(r.bytes) + " in " + std::to_string(r.ranges) +
         " ranges (the first shown above)\n";
  if (r.instances > 1) s += "  repeats: " + std::to_string(r.instances) + " times on these lines\n";
  for (const Detail& d : r.details)
    if (d.label == "known") s += "  known: " + d.text + "\n";
  if (r.fix.kind != Fix::Kind::None) s += "  fix: " + r.fix.text + "\n";
  for (const Detail& d : r.details)
    if (d.label != "known") s += "  " + d.label + ": " + d.text + "\n";
  if (!with_timing) return s;
  const std::string t = timing_line(r, !where.empty());
  if (!t.empty()) s += t + "\n";
  return s;
}

// Reports that say the same thing in different cores (the same lines, buffer, bytes and text; a
// kernel's blocks run one program) are shown once, naming the cores: a 24-block launch would
// otherwise print each of its lints 24 times. Groups keep the order of their first report.
struct Group {
  size_t first;
  std::vector<uint16_t> cores;
  uint64_t instances = 0;
};

std::vector<Group> group_by_core(const std::vector<Report>& reports,
                                 const std::vector<std::string>& gm_names) {
  std::vector<Group> groups;
  std::unordered_map<std::string, size_t> by_text;
  for (size_t i = 0; i < reports.size(); ++i) {
    const Report& r = reports[i];
    std::string key;
    if (r.kind == ReportKind::CrossCoreRace) {
      key = "#" + std::to_string(i);  // names its two cores itself
    } else {
      Report plain = r;
      plain.at.core = 0;
      if (plain.other) plain.other->core = 0;
      plain.instances = 1;
      key = render(plain, gm_names, "", false);
    }
    const auto [it, fresh] = by_text.emplace(std::move(key), groups.size());
    if (fresh) groups.push_back(Group{i, {}, 0});
    Group& g = groups[it->second];
    g.cores.push_back(r.at.core);
    g.instances += r.instances;
  }
  return groups;
}

}  // namespace

std::string format_report(const Report& r, const std::vector<std::string>& gm_names) {
  return render(r, gm_names);
}

std::string format_text(const std::vector<Report>& reports, const Summary& s,
                        const std::vector<std::string>& gm_names, size_t full) {
  std::string out;
  const std::vector<Group> groups = group_by_core(reports, gm_names);
  uint64_t rest = 0;
  for (size_t i = 0; i < groups.size(); ++i) {
    const Group& g = groups[i];
    if (i >= full) {
      rest += g.cores.size();
      continue;
    }
    if (g.cores.size() == 1) {
      out += render(reports[g.first], gm_names);
      continue;
    }
    Report merged = reports[g.first];
    merged.instances = g.instances;
    out += render(merged, gm_names, cores_text(g.cores));
  }
  out += "check: " + std::to_string(s.errors) + " error(s), " + std::to_string(s.warnings) + " warning(s)";
  if (rest) out += "; " + std::to_string(rest) + " more not shown here";
  if (s.unstored) out += "; " + std::to_string(s.unstored) + " more counted but not kept";
  if (!s.complete) out += "; the run stopped early, so only the instructions issued before it were checked";
  return out + "\n";
}

nlohmann::json to_json(const Report& r, const std::vector<std::string>& gm_names) {
  nlohmann::json j = {{"kind", code_of(r.kind)},
                      {"severity", to_string(r.severity)},
                      {"file", source_file_name(r.at.file)},
                      {"line", r.at.line},
                      {"summary", r.summary}};
  if (!r.hazard.empty()) j["hazard"] = r.hazard;
  if (ranged(r)) {
    j["buffer"] = buffer_name(r.space, r.tensor, gm_names);
    j["range"] = {r.lo, r.hi};
    j["bytes"] = r.bytes;
    j["ranges"] = r.ranges;
  }
  j["instances"] = r.instances;
  if (r.other) {
    j["first"] = instr_json(*r.other);
    j["second"] = instr_json(r.at);
  } else {
    j["at"] = instr_json(r.at);
  }
  nlohmann::json details = nlohmann::json::array();
  for (const Detail& d : r.details) details.push_back({{"label", d.label}, {"text", d.text}});
  j["details"] = details;
  if (r.fix.kind != Fix::Kind::None) {
    nlohmann::json f = {{"kind", to_string(r.fix.kind)}, {"text", r.fix.text}};
    if (r.fix.kind == Fix::Kind::Flag || r.fix.kind == Fix::Kind::ViaScalar)
      f["event"] = std::string(isa::to_string(r.fix.event.src)) + "_" + isa::to_string(r.fix.event.dst);
    if (r.fix.kind == Fix::Kind::Barrier) f["pipe"] = std::string("PIPE_") + isa::to_string(r.fix.pipe);
    if (r.fix.kind != Fix::Kind::Separate && r.fix.kind != Fix::Kind::Atomic) {
      f["after_line"] = r.fix.after_line;
      f["before_line"] = r.fix.before_line;
    }
    j["fix"] = f;
  }
  // The only configuration-dependent member.
  const Timing& t = r.timing;
  nlohmann::json timing = nlohmann::json::object();
  if (t.first_known) timing["first"] = {{"start", t.first_start}, {"end", t.first_end}};
  if (t.second_known) timing["second"] = {{"start", t.second_start}, {"end", t.second_end}};
  if (r.other && t.observed_known()) timing["observed"] = t.observed();
  j["timing"] = timing;
  return j;
}

nlohmann::json to_json(const std::vector<Report>& reports, const Summary& s,
                       const std::vector<std::string>& gm_names) {
  nlohmann::json list = nlohmann::json::array();
  for (const Report& r : reports) list.push_back(to_json(r, gm_names));
  return {{"complete", s.complete},
          {"errors", s.errors},
          {"warnings", s.warnings},
          {"unstored", s.unstored},
          {"reports", list}};
}

}  // namespace aicore::check
