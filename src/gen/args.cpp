#include "aicore/gen/args.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>

#include "aicore/common/error.hpp"

namespace aicore::gen {

Args::Args(std::string command, const std::vector<std::string>& args,
           const std::vector<std::string>& value_options, const std::vector<std::string>& flag_options,
           size_t max_positional)
    : command_(std::move(command)) {
  const auto known = [](const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
  };
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.size() < 3 || a.compare(0, 2, "--") != 0) {
      if (positional_.size() >= max_positional) fail("unexpected argument '" + a + "'");
      positional_.push_back(a);
      continue;
    }
    const size_t eq = a.find('=');
    const std::string name = a.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
    if (known(flag_options, name)) {
      if (eq != std::string::npos) fail("option --" + name + " takes no value");
      flags_[name] = true;
      continue;
    }
    if (!known(value_options, name)) {
      std::vector<std::string> all = value_options;
      all.insert(all.end(), flag_options.begin(), flag_options.end());
      const std::string near = nearest_word(name, all);
      fail("unknown option --" + name + (near.empty() ? "" : " (did you mean --" + near + "?)"));
    }
    if (values_.count(name)) fail("option --" + name + " given twice");
    if (eq != std::string::npos) {
      values_[name] = a.substr(eq + 1);
    } else {
      if (i + 1 >= args.size()) fail("option --" + name + " needs a value");
      values_[name] = args[++i];
    }
  }
}

void Args::fail(const std::string& message) const {
  throw InputError(SourceLoc{command_}, message);
}

std::string Args::str(const std::string& name, const std::string& def) const {
  const auto it = values_.find(name);
  return it == values_.end() ? def : it->second;
}

uint64_t Args::uint(const std::string& name, uint64_t def, uint64_t lo, uint64_t hi) const {
  const auto it = values_.find(name);
  if (it == values_.end()) return def;
  const std::string& v = it->second;
  const bool hex = v.size() > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X');
  const std::string digits = hex ? v.substr(2) : v;
  const bool ok_chars = !digits.empty() && std::all_of(digits.begin(), digits.end(), [hex](char c) {
    return hex ? std::isxdigit(static_cast<unsigned char>(c)) != 0 : (c >= '0' && c <= '9');
  });
  errno = 0;
  const unsigned long long x = ok_chars ? std::strtoull(digits.c_str(), nullptr, hex ? 16 : 10) : 0;
  if (!ok_chars || errno == ERANGE) fail("--" + name + " expects a non-negative integer, got '" + v + "'");
  if (x < lo || x > hi)
    fail("--" + name + " must be in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], got " + v);
  return x;
}

double Args::real(const std::string& name, double def, double lo, double hi) const {
  const auto it = values_.find(name);
  if (it == values_.end()) return def;
  char* end = nullptr;
  const double x = std::strtod(it->second.c_str(), &end);
  if (it->second.empty() || *end != '\0' || !(x >= lo && x <= hi)) {
    char range[64];
    std::snprintf(range, sizeof range, "[%g, %g]", lo, hi);
    fail("--" + name + " must be a number in " + range + ", got '" + it->second + "'");
  }
  return x;
}

}  // namespace aicore::gen
