// Random kernels for the differential test: every instruction kind with random fields inside
// their buffers, flag pairs on every legal event pair (each flag set once, waited later in
// program order, so no kernel deadlocks or double-sets), pipe and PIPE_ALL barriers; and
// random timing configs as --set strings.
// Mmads write (and accumulate into) the first half of L0C and Fixpipes read the second, on
// different banks: two pipes asking for one bank port in the same cycle are served in the
// order SystemC runs them, which the lock-step reference cannot know (docs/decisions.md).
// Mmads with unitFlag hand the second half to the Fixpipes (some with unitFlag): they only
// overwrite it, so they book L0C's write port and Fixpipe its read port.
// Contention on a bank port is tested on its own, with requests in different cycles.
#pragma once
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace randk {

// What a kernel may contain beyond the v1 instructions: `sync_alls` SyncAlls (at random places; the
// same count on every core of a manifest), and Fixpipes wrapped in SetAtomicAdd ... SetAtomicNone.
struct Extras {
  int sync_alls = 0;
  bool atomics = false;
};
// A trace (v1 text) of about `n` instructions. GM tensors a (read) and c (written), 1 MiB each.
std::string kernel(std::mt19937_64& rng, int n, const Extras& extras = {});
// --set KEY=VALUE strings for a random but legal configuration (cores: chip.cores >= cores).
std::vector<std::string> config_sets(std::mt19937_64& rng, int cores);

}  // namespace randk
