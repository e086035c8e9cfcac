// A kernel program compiled by an installed aicore-sim (`aicore-sim kernel`, `aicore-sim asc-cc`)
// gets -DAICORE_SIM_PREFIX="P", the tree it was compiled against. The program runs from the user's
// own folder, not from P/bin, so it could not find P from its location (common/install.hpp): without
// this it would read the presets of the source tree the library was built from, which may be gone
// or newer than the library. With it, the program reads P/share/aicore-sim like aicore-sim does.
#pragma once

#ifdef AICORE_SIM_PREFIX
#include "aicore/common/install.hpp"

namespace aicore::frontend::detail {
// One object program-wide (an inline variable), set during static initialisation, before main.
inline const bool kInstalledPrefixSet = (aicore::set_install_prefix(AICORE_SIM_PREFIX), true);
}  // namespace aicore::frontend::detail
#endif
