// Where the files a run needs besides its input live: the presets, the plotting tools, and what
// `aicore-sim kernel` compiles against. `cmake --install BUILD --prefix P` lays out
//   P/bin/aicore-sim
//   P/share/aicore-sim/{configs,tools,traces,examples}
//   P/include/aicore-sim        the Ascend C headers and the aicore/ headers they include
//   P/lib/aicore-sim            the front end's archives, which kernel programs link
//   P/share/doc/aicore-sim      README and docs/
// A program finds P from its own location, so an installed tree can be moved: P is the folder
// above the one holding the executable. A library loaded by another program (the Python module in
// python3) is not the executable: it names P itself with set_install_prefix, as does a kernel
// program an installed tree compiled (frontend/installed_prefix.hpp).
#pragma once
#include <string>

namespace aicore {

// P/share/aicore-sim, relative to P.
inline constexpr const char* kInstallDataDir = "share/aicore-sim";

// The executable this process runs (/proc/self/exe), "" when it cannot be read.
std::string executable_path();
// P, as set_install_prefix named it or else the folder above the executable's (whether or not it
// holds an installed tree: callers check the folder they need).
std::string install_prefix();
// Overrides install_prefix() for this process ("" restores the executable's). Call it at start-up,
// before any thread looks anything up (it takes no lock: see install.cpp).
void set_install_prefix(const std::string& prefix);
// P/share/aicore-sim/<what> for this process's P.
std::string installed_data_dir(const std::string& what);
// Whether this process runs from an installed tree: P/share/aicore-sim exists. Such a program
// reads only the installed tree's files, never the source tree it was built from.
bool runs_installed();

}  // namespace aicore
