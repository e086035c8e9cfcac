// A what-if study (`aicore-sim sweep STUDY.yaml`, docs/sweeps.md): which traces to run, on which
// configuration, with which config keys swept. This header is the parsed file with every value
// still as written and where it was written; plan.hpp turns it into points and validates them
// against the config loader.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "aicore/common/error.hpp"

namespace aicore::sweep {

// A scalar of the study file exactly as written, and where (the study file's line:column).
struct Scalar {
  std::string text;
  SourceLoc loc;
};

// One dimension of the sweep. A grid key is an axis of its own (every combination of the grid's
// keys is run); a zip group is one axis of several keys whose i-th values go together.
struct Axis {
  std::vector<Scalar> keys;                 // config keys (loc = the key)
  std::vector<std::vector<Scalar>> values;  // values[k][i]: the i-th value of keys[k]
  bool zip = false;
  size_t size() const { return values.empty() ? 0 : values.front().size(); }
};

// One GEMM case of the `gen:` block, made with the generator (`aicore-sim gen`) before the run.
struct GenCase {
  uint32_t m = 0, k = 0, n = 0;
  bool sparse = true;
  uint32_t tile_m = 0, tile_k = 0, tile_n = 0;  // 0 = the generator's choice
  uint64_t seed = 1;
  SourceLoc loc;     // the gen: block
  std::string name;  // folder and trace name, e.g. sparse_512x1024x512
  std::vector<std::pair<std::string, std::string>> columns;  // gen.shape, gen.kind, gen.tile, gen.seed
};

struct Study {
  std::string path;  // the study file as given
  std::string dir;   // its folder: relative paths in the study are relative to it
  std::string name;  // `name:`, else the file's stem
  std::vector<Scalar> traces;
  std::vector<GenCase> gen;
  std::vector<std::string> gen_swept;  // gen.* columns that take more than one value
  std::vector<Scalar> configs;         // one (the usual case) or several (an axis of their own)
  bool timing_only = false;
  double timeout_s = 0;                         // per point; 0 = no limit
  std::vector<std::pair<Scalar, Scalar>> sets;  // fixed overrides: key, value
  std::vector<Scalar> run_args;                 // passed to every `aicore-sim run` as they are
  std::vector<Axis> axes;                       // grid keys in file order, then zip groups
};

// Every problem found in a study, each a full "file:line:column: error: ..." line.
class StudyErrors : public std::runtime_error {
 public:
  explicit StudyErrors(std::vector<std::string> messages);
  const std::vector<std::string>& messages() const { return messages_; }

 private:
  std::vector<std::string> messages_;
};

// Collects errors so that one pass reports them all (up to a limit), not just the first.
class ErrorSink {
 public:
  void add(const SourceLoc& loc, const std::string& message);
  void add(const std::string& full_message);  // already "file:line:column: error: ..."
  bool empty() const { return messages_.empty(); }
  void throw_if_any() const;  // StudyErrors

 private:
  std::vector<std::string> messages_;
};

// The study's top-level keys, for suggestions and the fuzz dictionary.
const std::vector<std::string>& study_keys();

// Reads and parses a study file, checking its structure: unknown keys (with the nearest valid
// one), types, empty lists, duplicate values and keys, zip lists of unequal length, a key both
// fixed and swept. Config keys and values are checked by make_plan (through the config loader).
// Throws StudyErrors.
Study parse_study(const std::string& path);
// Same, from text already in memory (the fuzz target); `path` names it in messages.
Study parse_study_text(const std::string& text, const std::string& path);

}  // namespace aicore::sweep
