#!/usr/bin/env bash
# Installs dependencies, builds aicore-sim (Release) and runs the main example: the seed's
# 16 x 64 x 16 4:2-sparse int8 multiply on the default atlas-a2 config, checked bit-exact
# against its golden result. Outputs go to out/seed/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
cmake --preset release >/dev/null
cmake --build --preset release --target aicore-sim -j"$(nproc 2>/dev/null || echo 2)"
./build/release/aicore-sim run traces/seed_sparse_16x64x16/seed_sparse_16x64x16.trace \
  --config atlas-a2 --out out/seed --instr-log
