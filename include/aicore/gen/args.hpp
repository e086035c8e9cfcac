// Minimal "--key value" / "--key=value" / "--flag" parser for the generator commands. Own code
// instead of Boost.Program_options so that numbers are checked strictly (Boost's lexical_cast
// turns "-1" into 4294967295) and a misspelt option gets a "did you mean" hint.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace aicore::gen {

class Args {
 public:
  // Throws aicore::InputError (location = `command`) on an unknown option, a value option
  // without value, a repeated option, or a positional argument beyond max_positional.
  Args(std::string command, const std::vector<std::string>& args,
       const std::vector<std::string>& value_options, const std::vector<std::string>& flag_options,
       size_t max_positional = 0);

  bool has(const std::string& name) const { return values_.count(name) != 0; }
  bool flag(const std::string& name) const { return flags_.count(name) != 0; }
  std::string str(const std::string& name, const std::string& def = "") const;
  // Decimal or 0x hex integer in [lo, hi]; `def` when absent.
  uint64_t uint(const std::string& name, uint64_t def, uint64_t lo, uint64_t hi) const;
  double real(const std::string& name, double def, double lo, double hi) const;
  const std::vector<std::string>& positional() const { return positional_; }

  [[noreturn]] void fail(const std::string& message) const;

 private:
  std::string command_;
  std::map<std::string, std::string> values_;
  std::map<std::string, bool> flags_;
  std::vector<std::string> positional_;
};

}  // namespace aicore::gen
