#!/usr/bin/env bash
# Installs dependencies, builds (Release, with tests and benchmarks) and runs the whole test suite with CTest.
# AICORE_ASAN=1: also build with clang + AddressSanitizer + UBSan (build/asan-fuzz, which also
#   holds the libFuzzer targets) and run the whole suite there.
# AICORE_FUZZ_SECONDS=N: then fuzz each fuzz target for N seconds in that build (fuzz/run.sh).
# docs/hardening.md says what each part covers and how to run the long versions.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh test
jobs=$(nproc 2>/dev/null || echo 2)
start=$SECONDS
step() { echo "== $1 ($((SECONDS - start)) s so far)"; }

step "release build (tests and benchmarks on)"
cmake --preset test >/dev/null
cmake --build --preset test -j"$jobs"
step "release tests"
ctest --preset test -j"$jobs"

if [ "${AICORE_ASAN:-0}" = 1 ] || [ "${AICORE_FUZZ_SECONDS:-0}" != 0 ]; then
  B=build/asan-fuzz
  step "ASan + UBSan build (clang, $B)"
  bash fuzz/configure.sh "$B" ON
  cmake --build "$B" -j"$jobs"
  step "ASan + UBSan tests"
  # Sanitizer reports fail the test that triggers them (-fno-sanitize-recover, exit code 1).
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:strict_string_checks=1:check_initialization_order=1} \
    UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} ctest --test-dir "$B" -j"$jobs" --output-on-failure
fi
if [ "${AICORE_FUZZ_SECONDS:-0}" != 0 ]; then
  step "fuzz smoke run, ${AICORE_FUZZ_SECONDS} s per target"
  AICORE_FUZZ_BUILD=build/asan-fuzz bash fuzz/run.sh "$AICORE_FUZZ_SECONDS"
fi
step "done"
