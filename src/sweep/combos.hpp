// Internal: the configurations of a plan, each resolved by the config loader.
#pragma once
#include "aicore/sweep/plan.hpp"

namespace aicore::sweep::detail {

// Fills plan.combos (every study config times every combination of the axes, first axis
// slowest) and plan.warnings (caps), reporting every configuration the loader refuses to `errors`
// at the study's line:column.
void check_combos(Plan& plan, ErrorSink& errors);

}  // namespace aicore::sweep::detail
