// Rendering check reports: text for stderr (each report starts "FILE:LINE: error: ..." so editors
// jump to it) and JSON for checks.json. In both, only the timing facts ("timing" lines, the JSON
// "timing" member) depend on the configuration; everything else is the same under any config.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "aicore/check/report.hpp"

namespace aicore::check {

// "L1", "index buffer", or a GM tensor by its .gm name (gm_names[tensor]; "GM tensor N" without).
std::string buffer_name(isa::Space s, uint32_t tensor, const std::vector<std::string>& gm_names);

// One report: its headline, then indented detail lines; the last line, starting "  timing
// (this run", is the configuration-dependent one (absent when no cycles are known).
std::string format_report(const Report& r, const std::vector<std::string>& gm_names);

// The first `full` reports in full, the rest counted, and a closing summary line.
std::string format_text(const std::vector<Report>& reports, const Summary& s,
                        const std::vector<std::string>& gm_names, size_t full = 20);

nlohmann::json to_json(const Report& r, const std::vector<std::string>& gm_names);
// {"complete", "errors", "warnings", "unstored", "reports": [one object per report]}
nlohmann::json to_json(const std::vector<Report>& reports, const Summary& s,
                       const std::vector<std::string>& gm_names);

}  // namespace aicore::check
