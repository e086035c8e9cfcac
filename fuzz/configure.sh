#!/usr/bin/env bash
# Configures a clang build with ASan + UBSan and libFuzzer coverage on every library, and the
# fuzz targets (fuzz/CMakeLists.txt). -O1 -g1 keeps the sanitizer build about as fast to compile
# as a Release one.   usage: fuzz/configure.sh BUILD_DIR [ON|OFF: also the test suite]
set -euo pipefail
cd "$(dirname "$0")/.."
B=${1:?usage: fuzz/configure.sh BUILD_DIR [ON|OFF]}
tests=${2:-OFF}
cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" \
  -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang \
  -DAICORE_FUZZ=ON -DAICORE_TESTS="$tests" -DAICORE_BENCH=OFF >/dev/null
