#!/usr/bin/env bash
# Installs dependencies, builds (Release) and runs the whole test suite with CTest.
# Set AICORE_ASAN=1 to also build and run the suite under AddressSanitizer + UBSan.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
jobs=$(nproc 2>/dev/null || echo 2)
cmake --preset release >/dev/null
cmake --build --preset release -j"$jobs"
ctest --preset release -j"$jobs"
if [ "${AICORE_ASAN:-0}" = 1 ]; then
  cmake --preset asan >/dev/null
  cmake --build --preset asan -j"$jobs"
  ctest --preset asan -j"$jobs"
fi
