#include "recording.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include "aicore/isa/descriptors.hpp"

namespace aicore::frontend {

namespace {

std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\n");
  return b == std::string::npos ? "" : s.substr(b, s.find_last_not_of(" \t\n") - b + 1);
}

// Names the trace syntax reads as on-chip memories, which a GM tensor must not take.
bool reserved(const std::string& name) {
  static const std::set<std::string> kSpaces = {"L1", "L0A", "L0B", "L0C", "A1",
                                                "B1", "A2",  "B2",  "CO1", "GM"};
  return kSpaces.count(name) > 0;
}

}  // namespace

std::vector<std::string> split_arguments(const std::string& text) {
  std::vector<std::string> out;
  int depth = 0;
  std::string cur;
  for (const char c : text) {
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(trim(cur));
      cur.clear();
      continue;
    }
    cur += c;
  }
  if (!trim(cur).empty() || !out.empty()) out.push_back(trim(cur));
  return out;
}

std::string argument_name(const std::string& spelling) {
  if (spelling.empty() || std::isdigit(static_cast<unsigned char>(spelling[0]))) return "";
  for (const char c : spelling)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return "";
  return reserved(spelling) ? spelling + "_gm" : spelling;
}

LaunchTensors snapshot_tensors(const std::vector<const void*>& args, const std::string& arg_text,
                               bool copy_data) {
  const GmRegistry& g = gm_registry();
  LaunchTensors t;
  t.name_of_region.assign(g.regions.size(), "");
  const std::vector<std::string> spellings = split_arguments(arg_text);
  std::set<std::string> used;
  for (size_t i = 0; i < args.size(); ++i) {
    const int64_t r = g.find(args[i]);
    if (r < 0 || !t.name_of_region[r].empty()) continue;
    std::string name = i < spellings.size() ? argument_name(spellings[i]) : "";
    if (name.empty() || used.count(name)) name = "arg" + std::to_string(i);
    used.insert(name);
    t.name_of_region[r] = name;
  }
  for (size_t r = 0; r < g.regions.size(); ++r)
    if (t.name_of_region[r].empty()) {
      std::string name = "gm" + std::to_string(r);
      while (used.count(name)) name += "_";
      used.insert(name);
      t.name_of_region[r] = name;
    }
  if (copy_data) {
    t.initial.resize(g.regions.size());
    for (size_t r = 0; r < g.regions.size(); ++r)
      if (g.regions[r].live) t.initial[r].assign(g.regions[r].data, g.regions[r].data + g.regions[r].bytes);
  }
  return t;
}

size_t RecordedLaunch::instructions() const {
  size_t n = 0;
  for (const auto& p : programs) n += p.size();
  return n;
}

std::vector<std::string> RecordedLaunch::tensor_names() const {
  std::vector<std::string> names;
  for (const RecordedTensor& t : tensors) names.push_back(t.name);
  return names;
}

RecordedLaunch finish_recording(Launch& l, const LaunchTensors& t, CallSite site) {
  const GmRegistry& g = gm_registry();
  RecordedLaunch rec;
  rec.kernel = l.kernel;
  rec.site = site;
  std::vector<int64_t> dense(g.regions.size(), -1);
  std::vector<uint32_t> order;  // referenced regions
  for (const auto& program : l.programs)
    for (const isa::Instruction& in : program)
      isa::for_each_operand(in.op, [&](const isa::FieldFacts&, const isa::Addr& a) {
        if (a.space == isa::Space::GM && dense[a.tensor] < 0) {
          dense[a.tensor] = 0;
          order.push_back(a.tensor);
        }
      });
  std::sort(order.begin(), order.end());  // allocation order: a, b, c as the host made them
  for (uint32_t r : order) {
    dense[r] = static_cast<int64_t>(rec.tensors.size());
    RecordedTensor rt;
    rt.name = r < t.name_of_region.size() ? t.name_of_region[r] : "gm" + std::to_string(r);
    rt.bytes = std::max(g.regions[r].bytes, g.regions[r].read_end);  // a read past the end: with its page
    rt.data = g.regions[r].data;
    if (r < t.initial.size()) rt.initial = &t.initial[r];
    rec.tensors.push_back(rt);
  }
  for (auto& program : l.programs) {
    for (isa::Instruction& in : program) {
      isa::for_each_operand(in.op, [&](const isa::FieldFacts&, isa::Addr& a) {
        if (a.space == isa::Space::GM) a.tensor = static_cast<uint32_t>(dense[a.tensor]);
      });
      if (const auto* f = std::get_if<isa::Fixpipe>(&in.op)) rec.tensors[f->dst.tensor].written_as = f->dtype;
    }
    rec.programs.push_back(std::move(program));
  }
  return rec;
}

}  // namespace aicore::frontend
