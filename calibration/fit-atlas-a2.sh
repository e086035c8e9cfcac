#!/usr/bin/env bash
# Reproduces the calibration of the atlas-a2 preset (docs/validation.md):
#  1. the held-out check: fit to the training rows only (calibration/fitted-train-atlas-a2.yaml), predict
#     the check rows and the held-out kernel; docs/validation.png is drawn from this fit;
#  2. the preset values: the same fit to every row, written to calibration/fitted-atlas-a2.yaml;
#  3. the chip key fitted at chip scale (chip.l2.unaligned_read_cost, 24-core streaming rows), written to
#     calibration/fitted-chip-atlas-a2.yaml;
#  4. the scalar set-up keys (scalar.data_copy_nd2nz, scalar.load_data_3dv2) fitted to the kernel rows of
#     one and of 24 cores (NORM and MDL: the two templates split a K step's scalar time between the kinds),
#     written to calibration/fitted-scalar-atlas-a2.yaml (about 20 minutes on two cores: whole 24-core runs);
#  5. chip.l2.write_read_cost fitted to the Fixpipe times of the 24-core kernels (Case 5 and the A3 GEMM,
#     whose Fixpipes run without unitFlag), written to calibration/fitted-write-atlas-a2.yaml (about 10 minutes);
#  6. mte1.share_during_l1_write fitted to the 24-core kernels' MTE1 times (Case 5's MDL packets: MTE2 fills
#     L1 while MTE1 reads it; Case 3 does not overlap them), written to calibration/fitted-l1-atlas-a2.yaml
#     (about 5 minutes).
# The values in configs/arch2201.yaml (the base of every SoC preset, atlas-a2 and atlas-a3 included)
# are those of steps 2 to 6, each citing its rows.
# AICORE_BUILD_DIR picks the build directory (default build/release); -j 2 unless JOBS says otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
B=${AICORE_BUILD_DIR:-build/release}
SIM="$B/aicore-sim"
KEYS=gm.read.bytes_per_cycle,gm.read.overhead_cycles,gm.read.latency_cycles,gm.read.window_bytes
KEYS+=,gm.read.row_cycles,mte1.to_l0a.overhead_cycles,mte1.to_l0b.overhead_cycles
KEYS+=,cube.head_cycles,cube.fixed_cycles,issue.min_interval_mte1,issue.min_interval_m
echo "== 1. held-out check: fitted to the training rows, the check rows only predicted"
"$SIM" calibrate calibration/measured-910b1.csv calibration/kernels-a2.csv calibration/kernels-a2-heldout.csv \
  --config calibration/start-atlas-a2.yaml --fit "$KEYS" -j "${JOBS:-2}" -o calibration/fitted-train-atlas-a2.yaml
"$SIM" validate calibration/measured-910b1.csv calibration/kernels-a2.csv calibration/kernels-a2-heldout.csv \
  --config calibration/fitted-train-atlas-a2.yaml --plot docs/validation.png -j "${JOBS:-2}" >/dev/null || true
rm -f docs/validation.csv
echo "== 2. preset values: fitted to every row of the A2 data"
"$SIM" calibrate calibration/measured-910b1.csv calibration/kernels-a2.csv --rows all \
  --config calibration/start-atlas-a2.yaml --fit "$KEYS" -j "${JOBS:-2}" -o calibration/fitted-atlas-a2.yaml
echo "== 3. chip keys: fitted to the 24-core memory-streaming rows (the unaligned row)"
"$SIM" calibrate calibration/memory-a2-24core.csv --rows all --config atlas-a2 \
  --fit chip.l2.unaligned_read_cost -j "${JOBS:-2}" -o calibration/fitted-chip-atlas-a2.yaml
echo "== 4. scalar keys: fitted to the kernel rows of one and 24 cores (every row of both files is a training row)"
"$SIM" calibrate calibration/kernels-a2.csv calibration/kernels-a2-24core.csv \
  --config calibration/start-scalar-atlas-a2.yaml --fit scalar.data_copy_nd2nz,scalar.load_data_3dv2 \
  -j "${JOBS:-2}" -o calibration/fitted-scalar-atlas-a2.yaml
echo "== 5. chip.l2.write_read_cost: fitted to the 24-core kernels' Fixpipe times (Case 5, the A3 GEMM)"
"$SIM" calibrate calibration/kernels-a2-24core.csv calibration/kernels-a3-24core.csv \
  --config calibration/start-write-atlas-a2.yaml --fit chip.l2.write_read_cost \
  -j "${JOBS:-2}" -o calibration/fitted-write-atlas-a2.yaml
echo "== 6. mte1.share_during_l1_write: fitted to the 24-core kernels' MTE1 times (Case 5)"
"$SIM" calibrate calibration/kernels-a2-24core.csv --config atlas-a2 --fit mte1.share_during_l1_write \
  -j "${JOBS:-2}" -o calibration/fitted-l1-atlas-a2.yaml
