// A strict reader of the VCD subset waves.vcd uses (what GTKWave needs): declarations with
// scopes, then timestamps that must strictly increase, $dumpvars, and scalar, vector and real
// value changes of declared identifiers. Anything else is an error naming the token.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace vcd {

struct Var {
  std::string type, id, path;  // path: "aicore.MTE2.busy"
  int width = 0;
};

struct File {
  std::string timescale;
  std::vector<Var> vars;
  std::vector<uint64_t> times;                                                   // every timestamp, in order
  std::map<std::string, std::vector<std::pair<uint64_t, std::string>>> changes;  // by id, in time order

  const Var& var(const std::string& path) const;  // throws if there is none
  // The value at cycle t (last change at or before t); "" before the first.
  std::string at(const std::string& path, uint64_t t) const;
  const std::vector<std::pair<uint64_t, std::string>>& of(const std::string& path) const;
};

File parse(const std::string& file_path);  // throws std::runtime_error on anything malformed

// "b101" -> 5, "1" -> 1; "x" (any x bit) -> UINT64_MAX.
uint64_t as_u64(const std::string& value);

}  // namespace vcd
