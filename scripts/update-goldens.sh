#!/usr/bin/env bash
# Rewrites the timing goldens (tests/golden/<case>/{stats.json,instr.csv}) from the current
# build, one per shipped trace and kernel manifest. Run after a deliberate timing change, then
# review `git diff tests/golden` and explain it in the commit.
# AICORE_BUILD_DIR picks the build directory (default build/test, the test preset's: tests on).
set -euo pipefail
cd "$(dirname "$0")/.."
B=${AICORE_BUILD_DIR:-build/test}
[ -f "$B/CMakeCache.txt" ] || cmake --preset test >/dev/null
cmake --build "$B" --target aicore-sim golden_check >/dev/null
for t in traces/*/*.trace traces/*/kernel.yaml; do
  [ -f "$t" ] || continue
  dir=$(dirname "$t")
  if [ -f "$dir/kernel.yaml" ] && [ "$(basename "$t")" != kernel.yaml ]; then continue; fi
  "$B/tests/golden/golden_check" "$B/aicore-sim" "$t" "tests/golden/$(basename "$dir")" --update
done
