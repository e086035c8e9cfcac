#!/usr/bin/env bash
# `cmake --install` to a temporary prefix, then the tree moved elsewhere (so nothing can lean on the
# paths it was installed to, nor on the source tree): --version, a shipped trace run from another
# folder, `kernel` on the installed examples (one with the Matmul API), the presets-folder error, and
# AICORE_CONFIGS_DIR.
# Run by CTest (install.moved_tree):
#   install_test.sh CMAKE BUILD_DIR SOURCE_DIR VERSION [PYTHON]
# With PYTHON (the build has the Python API): `import aicore_sim` from the moved tree's site folder
# runs the shipped trace, and reads the moved tree's presets.
set -euo pipefail
cmake_cmd=$1 build=$2 src=$3 version=$4 python=${5:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
unset AICORE_CONFIGS_DIR AICORE_TOOLS_DIR

"$cmake_cmd" --install "$build" --prefix "$tmp/first" >/dev/null
mv "$tmp/first" "$tmp/moved"
P=$tmp/moved
mkdir "$tmp/elsewhere"
cd "$tmp/elsewhere"

# --version
got=$("$P/bin/aicore-sim" --version)
[ "$got" = "aicore-sim $version" ] || fail "--version printed '$got'"

# A shipped trace, its cycles as the repository's golden has them, the version in stats.json.
trace=$P/share/aicore-sim/traces/seed_sparse_16x64x16/seed_sparse_16x64x16.trace
"$P/bin/aicore-sim" run "$trace" -q --out run
want=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["cycles"])' \
       "$src/tests/golden/seed_sparse_16x64x16/stats.json")
read -r cycles ver < <(python3 -c 'import json; s=json.load(open("run/stats.json")); print(s["cycles"], s["version"])')
[ "$cycles" = "$want" ] || fail "seed trace: $cycles cycles, the golden says $want"
[ "$ver" = "$version" ] || fail "stats.json version '$ver'"

# `kernel` compiles against the moved tree's headers and archives (-O0: the cheapest build).
cp "$P/share/aicore-sim/examples/ascendc/dense_mmad.cpp" .
"$P/bin/aicore-sim" kernel dense_mmad.cpp --out k -v --check none -- -O0 >k.out 2>k.err \
  || { cat k.out k.err >&2; fail "kernel exited $?"; }
grep -q -- "-I$P/include/aicore-sim/ascendc" k.err || fail "kernel did not compile against $P/include"
grep -q -- "$P/lib/aicore-sim/libaicore_frontend.a" k.err || fail "kernel did not link $P/lib/aicore-sim"
grep -q "dense_mmad 32x48x32 on 1 block(s): match" k.out || { cat k.out >&2; fail "kernel result"; }
[ -f k/dense_mmad/stats.json ] || fail "kernel wrote no k/dense_mmad/stats.json"
# The Matmul API's headers (lib/, tiling/, kernel_tiling/) and the generator's archive it runs on.
cp "$P/share/aicore-sim/examples/ascendc/matmul_api.cpp" .
"$P/bin/aicore-sim" kernel matmul_api.cpp --out km -v --check none -- -O0 >km.out 2>km.err \
  || { cat km.out km.err >&2; fail "kernel matmul_api exited $?"; }
grep -q -- "$P/lib/aicore-sim/libaicore_gen.a" km.err || fail "kernel matmul_api did not link the installed aicore_gen"
grep -q "matmul_api 256x192x384 on 4 block(s): match" km.out || { cat km.out >&2; fail "kernel matmul_api result"; }

if [ -n "$python" ]; then
  site=$P/lib/python3/dist-packages
  [ -f "$site/aicore_sim/__init__.py" ] || fail "no aicore_sim under $site"
  got=$(PYTHONPATH=$site "$python" -c 'import aicore_sim, sys
r = aicore_sim.run(sys.argv[1], timing_only=True)
print(aicore_sim.__file__.startswith(sys.argv[2]), aicore_sim.__version__, r.cycles)' "$trace" "$P")
  [ "$got" = "True $version $cycles" ] || fail "python from the moved tree printed '$got'"
fi

# Without its presets the moved tree says where it looked (never the source tree), exit 2.
mv "$P/share/aicore-sim/configs" "$tmp/presets"
set +e
"$P/bin/aicore-sim" run "$trace" -q --out run 2>err.txt
rc=$?
set -e
[ $rc = 2 ] || fail "no presets: exit $rc, not 2"
want_err="--config: error: preset 'atlas-a2' not found: no presets folder at $P/share/aicore-sim/configs (in the installed tree aicore-sim runs from); set AICORE_CONFIGS_DIR to a configs/ folder"
[ "$(cat err.txt)" = "$want_err" ] || fail "no presets: said '$(cat err.txt)'"
if [ -n "$python" ]; then  # the Python module reads the installed tree's presets too
  got=$(PYTHONPATH=$site "$python" -c 'import aicore_sim, sys
try:
    aicore_sim.run(sys.argv[1], timing_only=True)
except aicore_sim.InputError as e:
    print(e)' "$trace")
  [ "$got" = "$want_err" ] || fail "python without presets said '$got'"
fi
# ... and AICORE_CONFIGS_DIR points it elsewhere.
AICORE_CONFIGS_DIR=$tmp/presets "$P/bin/aicore-sim" run "$trace" -q --out run2 --timing-only
[ -f run2/stats.json ] || fail "AICORE_CONFIGS_DIR: no stats.json"
echo "ok: installed, moved to $P, version $version, $cycles cycles${python:+, python too}"
