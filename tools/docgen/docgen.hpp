// The generated parts of the user documentation: the instruction field tables of
// docs/trace-format.md (from trace::instruction_info(), the descriptor table in a trace's words),
// the key tables of docs/configuration.md (from config::params(), config::caps() and the preset
// files, whose comment after each value names its source), and the instruction words of
// fuzz/trace.dict (in a comment line there). Hand-written text stays around the blocks; only the
// text between a block's markers is rewritten:
//   <!-- generated: NAME ... -->
//   ...
//   <!-- end generated: NAME -->
#pragma once
#include <map>
#include <string>
#include <vector>

#include "aicore/config/config.hpp"

namespace aicore::docgen {

// One key of a preset file as written: its value text and the comment after it (continuation
// comment lines aligned under it are joined with a space).
struct PresetEntry {
  std::string value;
  std::string comment;
  unsigned line = 0;
};
struct PresetText {
  std::map<std::string, PresetEntry> keys;    // dotted leaf key -> entry
  std::map<std::string, std::string> groups;  // dotted group key -> its comment
};
// Reads the YAML subset the presets use (nested mappings of scalars, '#' comments). Throws
// std::runtime_error naming file:line for anything else.
PresetText scan_preset(const std::string& text, const std::string& file);

// Replaces the body of block `name` in `doc`; throws std::runtime_error if its markers are
// missing or unbalanced.
std::string splice(const std::string& doc, const std::string& name, const std::string& body);
// The names of the generated blocks in `doc`, in order.
std::vector<std::string> block_names(const std::string& doc);

// Block bodies (markdown, ending in a newline).
std::string instruction_summary();
std::string instruction_fields();
std::string operand_spaces();  // the memory names an operand may use
std::string event_pairs();     // the legal SetFlag/WaitFlag pairs (isa::is_legal_event)
std::string fuzz_words();      // fuzz/trace.dict: every mnemonic and every key= of the descriptor table
struct Preset {
  std::string name;       // "atlas-a2"
  PresetText text;        // the file as written: sources
  config::Config config;  // the file as loaded: values
};
// Key tables for every parameter, grouped as in the presets; values and sources from the
// presets (the first is the default; the others are shown where they differ). Throws
// std::runtime_error if a preset's text lacks a key or disagrees with its loaded value.
std::string config_keys(const std::vector<Preset>& presets);
// The keys whose effect another key caps (config::caps()).
std::string config_caps();

}  // namespace aicore::docgen
