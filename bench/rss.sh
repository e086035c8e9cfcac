#!/usr/bin/env bash
# bench_rss: peak RSS of `aicore-sim run` against the trace's length, through the scale test's
# tool (tests/scale/scale_rss.cpp: synthetic flag-balanced trace streamed through a FIFO, wait4
# ru_maxrss). Runs it for timing-only, full and timing-only + all outputs (written to /dev/null)
# at SMALL vs LARGE instructions and prints one table. Issue target: LARGE/SMALL peak RSS <= 1.2
# in timing-only mode at 1M vs 10M.
#
#   bench/rss.sh SCALE_RSS AICORE_SIM [SMALL [LARGE]]     (default 1000000 10000000)
#   cmake --build build/test --target bench_rss            (the same, with the build's binaries)
#
# Exit status is nonzero only when a run fails, never for a missed target.
set -euo pipefail

if [[ $# -lt 2 ]]; then
  echo "usage: $0 SCALE_RSS AICORE_SIM [SMALL [LARGE]]" >&2
  exit 2
fi
scale_rss=$1
sim=$2
small=${3:-1000000}
large=${4:-10000000}
target=1.2
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=DISABLE

echo "aicore-sim: $sim"
echo "scale_rss:  $scale_rss (synthetic trace through a FIFO; RSS = wait4 ru_maxrss in MiB)"
lines=()
status=0
for mode in timing-only full outputs; do
  case $mode in
    timing-only) args=(--timing-only) label="timing-only" ;;
    full)        args=(--full)        label="full" ;;
    outputs)     args=(--timing-only --outputs) label="timing-only+outputs" ;;
  esac
  # --max-ratio huge: scale_rss then exits nonzero only when a run fails.
  if ! out=$("$scale_rss" "$sim" --small "$small" --large "$large" --max-ratio 1e9 "${args[@]}" 2>&1); then
    echo "FAILED: $scale_rss $sim --small $small --large $large ${args[*]}" >&2
    echo "$out" >&2
    status=1
    continue
  fi
  # "   1000000 instructions: exit 0,    1.52 s (1.52 us/instruction), peak RSS    20.3 MB"
  lines+=("$(echo "$out" | awk -v label="$label" -v target="$target" '
    BEGIN { k = 0 }
    / instructions: exit / {
      n[k] = $1; s[k] = $5; for (i = 1; i < NF; ++i) if ($i == "RSS") r[k] = $(i + 1); ++k
    }
    END {
      ratio = r[0] > 0 ? r[1] / r[0] : 0
      printf "%-20s %9d %9d %8.2f %8.2f %7.2f %9.1f %9.1f %9.3f  %s\n", label, n[0], n[1], s[0], s[1],
             (s[0] > 0 ? s[1] / s[0] : 0),
             r[0], r[1], ratio, (ratio <= target ? "yes" : "NO")
    }')")
done

printf "%-20s %9s %9s %8s %8s %7s %9s %9s %9s  %s\n" mode small large small_s large_s x_time \
  small_RSS large_RSS RSS_ratio "<=$target"
for l in "${lines[@]}"; do echo "$l"; done
echo "target (issue): a ${large}-instruction trace in timing-only mode peaks at <= ${target}x the RSS of a ${small}-instruction one"
exit $status
