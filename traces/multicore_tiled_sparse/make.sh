#!/usr/bin/env bash
# Makes this two-core kernel from the shipped one-core tiled sparse GEMM: each core runs the
# whole 512 x 1024 x 512 product on the same A, B' and indexes (shared GM tensors, read only)
# and writes its own C (c0, c1), so the two GEMMs are independent and each is checked against
# the same golden. Run from the repository root: bash traces/multicore_tiled_sparse/make.sh
set -euo pipefail
src=traces/tiled_sparse_512x1024x512/tiled_sparse_512x1024x512.trace
out=traces/multicore_tiled_sparse
for core in 0 1; do
  {
    echo "# aicore trace v1"
    echo "# core $core of the two-core kernel in kernel.yaml; made by: bash $out/make.sh"
    sed -n '/^\.gm\|^\.expect\|^[A-Z#]/p' "$src" | grep -v '^# aicore trace v1' |
      sed -e "s#file=\([a-z_]*\.bin\)#file=../tiled_sparse_512x1024x512/\1#" \
          -e "s#^\.gm c size#.gm c$core size#" -e "s#^\.expect c file#.expect c$core file#" \
          -e "s#Fixpipe dst=c\([+ ]\)#Fixpipe dst=c$core\1#"
  } >"$out/core$core.trace"
done
cat >"$out/kernel.yaml" <<'YAML'
# Two cores, two independent tiled 4:2 sparse GEMMs over shared inputs (see make.sh).
cores:            # one trace per core; block index = position in this list
  - core0.trace
  - core1.trace
YAML
