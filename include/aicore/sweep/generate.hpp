// Making the gen: block's cases: `aicore-sim gen` into OUT/gen/NAME/, once (a case whose folder
// holds the trace made by the same arguments is left as it is, so a re-run finds the same
// inputs and skips its finished points).
#pragma once
#include <string>

#include "aicore/sweep/plan.hpp"

namespace aicore::sweep {

// Returns the number of cases generated now (not reused). Throws InputError (at the gen: block,
// with the generator's message) when the generator fails.
size_t generate_cases(const Plan& plan);

}  // namespace aicore::sweep
