// A study turned into points (make_plan): every input (trace, manifest or generated case) times
// every configuration the study's axes describe, each checked by the config loader before anything
// runs, each with the `aicore-sim run` arguments that run it and the id it is stored under.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "aicore/sweep/study.hpp"

namespace aicore::sweep {

// One thing the points run: a trace or kernel manifest of the study, or a generated case.
struct Input {
  std::string label;  // as the results name it: the study's text, or gen/NAME/NAME.trace
  std::string path;   // what `aicore-sim run` is given (relative to the current directory, or absolute)
  SourceLoc loc;
  int gen = -1;      // index into Study::gen, or -1
  std::string hash;  // input_hash(path); set by assign_ids()
};

// One configuration: a study config plus one value of every axis.
struct Combo {
  size_t config = 0;
  std::vector<size_t> choice;     // value index per axis
  std::vector<std::string> sets;  // every --set, the study's set: first, then the axes' values
  std::string config_hash;        // of the resolved configuration (its values, not its name)
};

struct Point {
  size_t index = 0;  // 0-based, in study order: input, then config, then axes (first slowest)
  size_t input = 0, combo = 0;
  std::string id;  // 16 hex digits of the resume key; set by assign_ids()
};

struct Plan {
  Study study;
  std::vector<std::string> config_args;  // per study config: a preset name or a path
  std::vector<Input> inputs;
  std::vector<Combo> combos;
  std::vector<Point> points;
  std::vector<std::string> columns;   // key columns of the results: trace, config, gen.*, axis keys
  std::vector<std::string> swept;     // those that take more than one value, in the same order
  std::vector<std::string> warnings;  // "STUDY:L:C: warning: ..." (caps, repeated points)

  // The key columns of a point, in `columns` order: column -> value as written.
  std::vector<std::pair<std::string, std::string>> values(const Point& p) const;
  // `aicore-sim run` arguments (without "run") writing into point_dir.
  std::vector<std::string> run_args(const Point& p, const std::string& point_dir) const;
};

// Validates the whole study: inputs exist, configs load, every combination of the axes resolves
// (the loader's own range and cross-field checks; an error names the study's line:column of the
// value, or of the key for an unknown key, with the loader's suggestion); gen: cases are listed
// under out_dir/gen. Collects cap warnings (config::cap_warning) for swept and fixed keys.
// Throws StudyErrors.
Plan make_plan(Study study, const std::string& out_dir);
// Parses the study file and makes its plan, reporting the problems of both steps together.
Plan load_plan(const std::string& study_path, const std::string& out_dir);
// The same from a study's text already in memory (the Python API's dict studies): `path` names it
// in messages and gives the default name; relative paths are relative to `base_dir` ("" = the
// current directory), not to the folder of `path`.
Plan load_plan_text(const std::string& text, const std::string& path, const std::string& base_dir,
                    const std::string& out_dir);

// After generated cases exist: hashes every input and gives each point its id. Points whose runs
// would be identical (same input, same resolved config) share an id; a warning says so.
void assign_ids(Plan& plan);

}  // namespace aicore::sweep
