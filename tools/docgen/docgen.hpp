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
#include "aicore/config/preset_text.hpp"

namespace aicore::docgen {

// The preset scanner lives in the config layer (aicore-sim config list reads it too).
using config::PresetEntry;
using config::PresetText;
using config::scan_preset;

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
  std::string name;       // "ascend910b1", or "base" for configs/arch2201.yaml
  PresetText text;        // the file as written: sources
  config::Config config;  // the file as loaded: values
};
// Key tables for every parameter, grouped as in the presets; values and sources from `base`
// (configs/arch2201.yaml, complete), keys an SoC preset sets marked as such. Throws
// std::runtime_error if the base's text lacks a key or disagrees with its loaded value.
std::string config_keys(const Preset& base, const std::vector<Preset>& socs);
// The SoC presets: what each sets on top of the base, with its source. Throws std::runtime_error
// if one sets a key that is not a parameter or disagrees with its loaded value.
std::string soc_presets(const std::vector<Preset>& socs);
// The keys whose effect another key caps (config::caps()).
std::string config_caps();

}  // namespace aicore::docgen
