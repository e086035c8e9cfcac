#!/usr/bin/env bash
# The samples' own flow against an installed aicore-sim (docs/ascendc.md, "Huawei's samples as
# they are"): `cmake --install` to a temporary prefix, a project like a sample's (project/) with
# find_package(ASC) and LANGUAGES ASC CXX configured with that prefix on CMAKE_PREFIX_PATH and
# -DCMAKE_ASC_RUN_MODE=sim, built with make, ./demo run in its build folder; then the output bytes
# against an independent reference (check_c.py), the simulation's files in $AICORE_SIM_OUT and,
# without it, beside the binary, a Matmul API `.asc` linking the samples' CANN host libraries, and
# the run-mode checks. Run by CTest (asc.installed_flow):
#   asc_flow_test.sh CMAKE BUILD_DIR SOURCE_DIR
set -euo pipefail
cmake_cmd=$1 build=$2 src=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
unset AICORE_SIM_ARGS AICORE_SIM_OUT AICORE_CONFIGS_DIR

"$cmake_cmd" --install "$build" --prefix "$tmp/prefix" >/dev/null
P=$tmp/prefix
[ -f "$P/lib/cmake/ASC/ASCConfig.cmake" ] || fail "no lib/cmake/ASC/ASCConfig.cmake installed"

cd "$tmp"
"$cmake_cmd" -S "$src/tests/asc/project" -B b -DCMAKE_ASC_RUN_MODE=sim -DCMAKE_PREFIX_PATH="$P" \
  -DASC_TEST_SOURCE="$src/tests/asc/int8_mmad.asc" >cfg.log 2>&1 || { cat cfg.log >&2; fail "configure"; }
grep -q "Check for working ASC compiler: $P/bin/aicore-sim asc-cc - works" cfg.log || { cat cfg.log >&2; fail "ASC compiler"; }
"$cmake_cmd" --build b >build.log 2>&1 || { cat build.log >&2; fail "build"; }
cd b
mkdir -p input output
AICORE_SIM_OUT="$tmp/simout" ./demo >demo.out 2>demo.err || { cat demo.out demo.err >&2; fail "demo exited $?"; }
grep -q "int8_mmad 32x32x16 on 2 block(s): match" demo.out || { cat demo.out >&2; fail "demo's own check"; }
grep -q "^== launch int8_mmad: 2 block(s), .* -> $tmp/simout/int8_mmad$" demo.out || { cat demo.out >&2; fail "launch line"; }
/usr/bin/python3 "$src/tests/asc/check_c.py" . 32 32 16 || fail "output bytes"
for f in stats.json checks.json timeline.json; do
  [ -f "$tmp/simout/int8_mmad/$f" ] || fail "no $f in \$AICORE_SIM_OUT/int8_mmad"
done
blocks=$(/usr/bin/python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["cores"]))' "$tmp/simout/int8_mmad/stats.json" 2>/dev/null || echo "?")
[ "$blocks" = 2 ] || fail "stats.json has $blocks cores, not the launch's 2"
# Without AICORE_SIM_OUT: aicore-sim-out beside the binary, whatever the current folder.
mkdir -p "$tmp/elsewhere/input" "$tmp/elsewhere/output"
(cd "$tmp/elsewhere" && "$tmp/b/demo" >/dev/null 2>&1) || fail "demo from another folder"
[ -f "$tmp/b/aicore-sim-out/int8_mmad/stats.json" ] || fail "no aicore-sim-out/int8_mmad/stats.json beside the binary"
# The demo runs from the user's folder, yet reads the presets of the tree that compiled it (asc-cc
# passes -DAICORE_SIM_PREFIX), never those of the source tree the library was built from.
mv "$P/share/aicore-sim/configs" "$tmp/presets"
set +e
(cd "$tmp/b" && ./demo >nopresets.out 2>&1)
rc=$?
set -e
mv "$tmp/presets" "$P/share/aicore-sim/configs"
[ $rc != 0 ] || { cat "$tmp/b/nopresets.out" >&2; fail "demo without the installed presets ran"; }
grep -qF "no presets folder at $P/share/aicore-sim/configs (in the installed tree" "$tmp/b/nopresets.out" \
  || { cat "$tmp/b/nopresets.out" >&2; fail "demo without presets did not look in the installed tree"; }

# A Matmul API sample's layout: the host tiling in the `.asc`, the CANN host libraries linked.
"$cmake_cmd" -S "$src/tests/asc/project_matmul" -B bm -DCMAKE_ASC_RUN_MODE=sim -DCMAKE_PREFIX_PATH="$P" \
  -DASC_TEST_SOURCE="$src/tests/asc/matmul_api.asc" >cfgm.log 2>&1 || { cat cfgm.log >&2; fail "configure matmul"; }
"$cmake_cmd" --build bm >buildm.log 2>&1 || { cat buildm.log >&2; fail "build matmul"; }
(cd bm && AICORE_SIM_OUT="$tmp/simoutm" ./demo >demo.out 2>demo.err) || { cat bm/demo.out bm/demo.err >&2; fail "matmul demo exited"; }
grep -q "matmul_asc 240x96x272 on 24 block(s): match" bm/demo.out || { cat bm/demo.out >&2; fail "matmul demo's own check"; }
[ -f "$tmp/simoutm/matmul_asc/stats.json" ] || fail "no stats.json in \$AICORE_SIM_OUT/matmul_asc"

# The run mode: cpu works as sim; anything else is refused at configure time, naming the modes.
cd "$tmp"
"$cmake_cmd" -S "$src/tests/asc/project" -B bc -DCMAKE_ASC_RUN_MODE=cpu -DCMAKE_PREFIX_PATH="$P" \
  -DASC_TEST_SOURCE="$src/tests/asc/int8_mmad.asc" >cfgc.log 2>&1 || { cat cfgc.log >&2; fail "configure cpu"; }
set +e
"$cmake_cmd" -S "$src/tests/asc/project" -B bx -DCMAKE_ASC_RUN_MODE=fpga -DCMAKE_PREFIX_PATH="$P" \
  -DASC_TEST_SOURCE="$src/tests/asc/int8_mmad.asc" >cfgx.log 2>&1
rc=$?
set -e
[ $rc != 0 ] || fail "CMAKE_ASC_RUN_MODE=fpga configured"
grep -q "CMAKE_ASC_RUN_MODE=fpga: aicore-sim's ASC package takes sim, cpu or npu" cfgx.log || { cat cfgx.log >&2; fail "run-mode message"; }

# The package copied away from its aicore-sim: find_package(ASC) fails, naming the missing binary.
mkdir -p "$tmp/broken/lib/cmake"
cp -r "$P/lib/cmake/ASC" "$tmp/broken/lib/cmake/"
set +e
"$cmake_cmd" -S "$src/tests/asc/project" -B bb -DCMAKE_PREFIX_PATH="$tmp/broken" \
  -DASC_TEST_SOURCE="$src/tests/asc/int8_mmad.asc" >cfgb.log 2>&1
rc=$?
set -e
[ $rc != 0 ] || fail "a package without its aicore-sim configured"
tr -s ' \n' ' ' <cfgb.log | grep -q "aicore-sim's ASC package: $tmp/broken/bin/aicore-sim does not exist (install aicore-sim" \
  || { cat cfgb.log >&2; fail "not-found message"; }
echo "ok"
