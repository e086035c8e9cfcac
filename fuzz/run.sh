#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan, build dir $AICORE_FUZZ_BUILD, default
# build/fuzz) and fuzzes each target for SECONDS (default 25). Used by CI as a smoke run and by
# hand for long runs (docs/hardening.md):
#
#   bash fuzz/run.sh                      # CI smoke: 25 s per target
#   bash fuzz/run.sh 3600 sim             # one hour on the whole-simulation target
#   FUZZ_JOBS=2 bash fuzz/run.sh 0 trace_reader   # no time limit, 2 parallel jobs (Ctrl-C stops)
#
# Corpora live in $AICORE_FUZZ_BUILD/corpus/<target> and grow from run to run; the seeds (traces/,
# the catalogue's traces, configs/, studies/, .npy test files, fuzz/seeds/, tests/fuzz_regress/) are read
# every run. A failing input is saved to $AICORE_FUZZ_BUILD/artifacts/<target>/; once fixed, copy
# it to tests/fuzz_regress/<target>/ so the test suite replays it. Exit 1 if any target failed.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
seconds=${1:-25}
shift || true
targets=("$@")
((${#targets[@]})) || targets=(trace_reader config npy sim manifest study calib_data launch_args)
B=${AICORE_FUZZ_BUILD:-build/fuzz}
jobs=${FUZZ_JOBS:-1}

# An existing build dir is reused as configured (scripts/test.sh makes one with the tests too).
[ -f "$B/CMakeCache.txt" ] || bash fuzz/configure.sh "$B" OFF
cmake --build "$B" -j"$(nproc 2>/dev/null || echo 2)" --target "${targets[@]/#/fuzz_}"

# Seeds, gathered fresh each run into $B/seeds/<target>.
seeds=$B/seeds
rm -rf "$seeds"
mkdir -p "$seeds"/{trace_reader,config,npy,sim,manifest,study,calib_data,launch_args}
for t in traces/*/*.trace tests/trace/data/*.trace fuzz/seeds/trace/*.trace; do
  [ -f "$t" ] || continue
  cp "$t" "$seeds/trace_reader/$(basename "$(dirname "$t")")_$(basename "$t")"
done
# The text of each catalogue case's t.trace section.
for c in tests/catalogue/cases/*.case; do
  awk '/^== t\.trace$/ {on = 1; next} /^==/ {on = 0} on' "$c" >"$seeds/trace_reader/catalogue_$(basename "$c" .case).trace"
done
cp "$seeds"/trace_reader/* "$seeds/sim/"
cp configs/*.yaml fuzz/seeds/config/* "$seeds/config/"
cp fuzz/seeds/manifest/* traces/*/kernel.yaml "$seeds/manifest/" 2>/dev/null || true
cp studies/*.yaml fuzz/seeds/study/*.yaml "$seeds/study/"
cp fuzz/seeds/launch_args/* "$seeds/launch_args/"
for c in tests/catalogue/cases/sweep_*.case; do
  awk '/^== s\.yaml$/ {on = 1; next} /^==/ {on = 0} on' "$c" >"$seeds/study/catalogue_$(basename "$c" .case).yaml"
done
cp calibration/*.csv fuzz/seeds/calib_data/*.csv "$seeds/calib_data/"
for c in tests/catalogue/cases/calib_*.case; do
  awk '/^== data\.csv$/ {on = 1; next} /^==/ {on = 0} on' "$c" >"$seeds/calib_data/catalogue_$(basename "$c" .case).csv"
done
for n in tests/trace/data/*.npy traces/seed_*/*.npy fuzz/seeds/npy/*.npy; do
  [ -f "$n" ] && cp "$n" "$seeds/npy/$(basename "$(dirname "$n")")_$(basename "$n")"
done

declare -A max_len=([trace_reader]=8192 [config]=8192 [npy]=4096 [sim]=8192 [manifest]=2048 [study]=4096
                  [calib_data]=4096 [launch_args]=1024)
declare -A dict=([trace_reader]=fuzz/trace.dict [config]=fuzz/config.dict [npy]=fuzz/npy.dict [sim]=fuzz/trace.dict
                 [manifest]=fuzz/manifest.dict [study]=fuzz/study.dict [calib_data]=fuzz/calib_data.dict
                 [launch_args]=fuzz/launch_args.dict)
failed=()
for t in "${targets[@]}"; do
  corpus=$B/corpus/$t
  artifacts=$B/artifacts/$t
  mkdir -p "$corpus" "$artifacts"
  log=$B/fuzz_$t.log
  echo "== fuzz_$t: ${seconds} s (log $log)"
  args=(-max_total_time="$seconds" -timeout=20 -rss_limit_mb=3072 -max_len="${max_len[$t]}"
        -dict="$root/${dict[$t]}" -artifact_prefix="$artifacts/" -print_final_stats=1)
  ((jobs > 1)) && args+=(-jobs="$jobs" -workers="$jobs")
  # A run stopped by a fault leaves SystemC threads suspended; their stacks go with the discarded
  # kernel, so what they held shows up as leaks in this (one simulation per input) target only.
  leaks=1
  [ "$t" = sim ] && { args+=(-detect_leaks=0); leaks=0; }
  regress=tests/fuzz_regress/$t
  set +e
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=$leaks} AICORE_CONFIGS_DIR=$root/configs "$B/fuzz/fuzz_$t" "${args[@]}" "$corpus" "$seeds/$t" \
    $( [ -d "$regress" ] && echo "$regress" ) >"$log" 2>&1
  status=$?
  set -e
  grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+ *DONE)" "$log" | tr '\n' ' ' || true
  echo
  if ((status != 0)); then
    failed+=("$t")
    echo "fuzz_$t FAILED (exit $status); last lines of $log:"
    tail -n 40 "$log"
    ls -1 "$artifacts"
  fi
done
if ((${#failed[@]})); then
  echo "fuzzing found failures in: ${failed[*]}"
  exit 1
fi
echo "fuzzing: no failures (${targets[*]}, ${seconds} s each)"
