#!/usr/bin/env bash
# Regenerates the generated blocks of docs/trace-format.md and fuzz/trace.dict (from the
# instruction descriptor table, include/aicore/isa/descriptors.hpp), docs/semantics.md (the legal
# event pairs) and docs/configuration.md (from the config parameter table and configs/*.yaml). Run
# it after changing any of those; CTest's docs.generated_fresh fails until you do.
# AICORE_BUILD_DIR picks the build directory (default build/release).
set -euo pipefail
cd "$(dirname "$0")/.."
B=${AICORE_BUILD_DIR:-build/release}
[ -f "$B/CMakeCache.txt" ] || cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$B" --target aicore-docs >/dev/null
"$B/aicore-docs" --write .
