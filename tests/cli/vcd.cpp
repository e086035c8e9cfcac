#include "vcd.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace vcd {

namespace {
[[noreturn]] void fail(const std::string& what) {
  throw std::runtime_error("VCD: " + what);
}

// Reads tokens up to "$end".
std::vector<std::string> until_end(std::istream& in) {
  std::vector<std::string> out;
  std::string t;
  while (in >> t && t != "$end") out.push_back(t);
  if (t != "$end") fail("missing $end");
  return out;
}
}  // namespace

const Var& File::var(const std::string& path) const {
  for (const Var& v : vars)
    if (v.path == path) return v;
  fail("no variable " + path);
}

const std::vector<std::pair<uint64_t, std::string>>& File::of(const std::string& path) const {
  static const std::vector<std::pair<uint64_t, std::string>> none;
  const auto it = changes.find(var(path).id);
  return it == changes.end() ? none : it->second;
}

std::string File::at(const std::string& path, uint64_t t) const {
  std::string v;
  for (const auto& [time, value] : of(path)) {
    if (time > t) break;
    v = value;
  }
  return v;
}

uint64_t as_u64(const std::string& value) {
  uint64_t v = 0;
  for (char c : value) {
    if (c == 'b') continue;
    if (c == 'x' || c == 'X') return UINT64_MAX;
    if (c != '0' && c != '1') fail("bad bit in " + value);
    v = v * 2 + static_cast<uint64_t>(c - '0');
  }
  return v;
}

File parse(const std::string& file_path) {
  std::ifstream in(file_path);
  if (!in) fail("cannot open " + file_path);
  File f;
  std::vector<std::string> scope;
  std::map<std::string, size_t> by_id;
  std::string t;
  bool defs_done = false;
  while (!defs_done && in >> t) {
    if (t == "$scope") {
      const auto w = until_end(in);
      if (w.size() != 2) fail("bad $scope");
      scope.push_back(w[1]);
    } else if (t == "$upscope") {
      until_end(in);
      if (scope.empty()) fail("$upscope without $scope");
      scope.pop_back();
    } else if (t == "$var") {
      const auto w = until_end(in);
      if (w.size() != 4) fail("bad $var");
      std::string path;
      for (const auto& s : scope) path += s + ".";
      Var v{w[0], w[2], path + w[3], std::stoi(w[1])};
      if (by_id.count(v.id)) fail("duplicate id " + v.id);
      by_id[v.id] = f.vars.size();
      f.vars.push_back(v);
    } else if (t == "$timescale") {
      for (const auto& s : until_end(in)) f.timescale += s;
    } else if (t == "$enddefinitions") {
      until_end(in);
      defs_done = true;
    } else if (t == "$version" || t == "$comment" || t == "$date") {
      until_end(in);
    } else {
      fail("unexpected token in the header: " + t);
    }
  }
  if (!defs_done) fail("no $enddefinitions");
  if (!scope.empty()) fail("unclosed $scope");
  bool have_time = false;
  const auto change = [&](const std::string& id, const std::string& value) {
    if (!have_time) fail("value before the first timestamp");
    const auto it = by_id.find(id);
    if (it == by_id.end()) fail("undeclared id " + id);
    const Var& v = f.vars[it->second];
    if (value[0] == 'b' && static_cast<int>(value.size()) - 1 > v.width) fail("value wider than " + v.path);
    if ((value[0] == 'r') != (v.type == "real")) fail("value type does not match " + v.path);
    auto& list = f.changes[id];
    if (!list.empty() && list.back().first == f.times.back()) fail("two values at one time for " + v.path);
    list.emplace_back(f.times.back(), value[0] == 'r' ? value.substr(1) : value);
  };
  while (in >> t) {
    if (t[0] == '#') {
      const uint64_t time = std::stoull(t.substr(1));
      if (have_time && time <= f.times.back()) fail("time goes backwards or repeats at " + t);
      f.times.push_back(time);
      have_time = true;
    } else if (t == "$dumpvars" || t == "$end") {
      continue;
    } else if (t[0] == 'b' || t[0] == 'r') {
      std::string id;
      if (!(in >> id)) fail("value without id");
      change(id, t);
    } else if (t[0] == '0' || t[0] == '1' || t[0] == 'x' || t[0] == 'z') {
      change(t.substr(1), t.substr(0, 1));
    } else {
      fail("unexpected token " + t);
    }
  }
  return f;
}

}  // namespace vcd
