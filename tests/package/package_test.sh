#!/usr/bin/env bash
# The Debian package (cmake/package.cmake): cpack makes aicore-sim_VERSION_ARCH.deb; its declared
# dependencies and its file list are what a user of /usr needs; unpacked into a folder (a moved
# /usr), its aicore-sim and its Python module run a shipped trace. Run by CTest (package.deb):
#   package_test.sh CPACK BUILD_DIR VERSION [PYTHON]
set -euo pipefail
cpack_cmd=$1 build=$2 version=$3 python=${4:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
unset AICORE_CONFIGS_DIR AICORE_TOOLS_DIR

# Uncompressed: the test checks contents, and compressing 16 MB is most of cpack's time.
"$cpack_cmd" --config "$build/CPackConfig.cmake" -B "$tmp/out" -D CPACK_DEBIAN_COMPRESSION_TYPE=none >/dev/null
deb=$tmp/out/aicore-sim_${version}_$(dpkg --print-architecture).deb
[ -f "$deb" ] || fail "no $deb (cpack made: $(ls "$tmp/out"))"

[ "$(dpkg-deb -f "$deb" Package)" = aicore-sim ] || fail "Package: $(dpkg-deb -f "$deb" Package)"
[ "$(dpkg-deb -f "$deb" Version)" = "$version" ] || fail "Version: $(dpkg-deb -f "$deb" Version)"
depends=$(dpkg-deb -f "$deb" Depends)
# The libraries the binary links (found by dpkg-shlibdeps), then what `kernel` builds with.
want=(libsystemc libyaml-cpp0.7 libboost-program-options1.74.0 libstdc++6 libc6 g++ libsystemc-dev)
[ -n "$python" ] && want+=(python3-numpy python3)
names=$(sed 's/ ([^)]*)//g; s/, /\n/g' <<<"$depends")  # one package name a line, versions dropped
for d in "${want[@]}"; do
  grep -qxF "$d" <<<"$names" || fail "Depends lacks $d: $depends"
done
grep -Eq '^libspdlog1\.[0-9]+' <<<"$names" || fail "Depends lacks spdlog: $depends"

dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|' >"$tmp/files"
for f in /usr/bin/aicore-sim /usr/share/aicore-sim/configs/arch2201.yaml /usr/share/aicore-sim/configs/ascend910b1.yaml \
         /usr/share/aicore-sim/traces/seed_sparse_16x64x16/seed_sparse_16x64x16.trace \
         /usr/share/aicore-sim/tools/plot_sweep.py /usr/share/aicore-sim/tools/plot_common.py \
         /usr/share/aicore-sim/examples/ascendc/dense_mmad.cpp /usr/include/aicore-sim/ascendc/kernel_operator.h \
         /usr/lib/aicore-sim/libaicore_frontend.a /usr/lib/aicore-sim/libaicore_session.a \
         /usr/share/doc/aicore-sim/README.md /usr/share/doc/aicore-sim/docs/cli.md \
         /usr/lib/cmake/ASC/ASCConfig.cmake /usr/lib/cmake/ASC/CMakeDetermineASCCompiler.cmake \
         /usr/include/aicore-sim/ascendc/acl/acl.h /usr/include/aicore-sim/ascendc/lib/matmul_intf.h \
         /usr/include/aicore-sim/ascendc/tiling/tiling_api.h /usr/include/aicore-sim/ascendc/tiling/platform/platform_ascendc.h \
         /usr/include/aicore-sim/ascendc/kernel_tiling/kernel_tiling.h /usr/lib/aicore-sim/libaicore_gen.a \
         /usr/share/aicore-sim/examples/ascendc/matmul_api.cpp; do
  grep -qx "$f" "$tmp/files" || fail "the package lacks $f"
done
if [ -n "$python" ]; then
  for f in __init__.py _install.py _run.py _result.py _config.py _errors.py _sweep.py _gen.py py.typed _core.pyi; do
    grep -qx "/usr/lib/python3/dist-packages/aicore_sim/$f" "$tmp/files" || fail "the package lacks aicore_sim/$f"
  done
  grep -Eqx '/usr/lib/python3/dist-packages/aicore_sim/_core\.cpython-[0-9]+-.*\.so' "$tmp/files" \
    || fail "the package lacks the module"
fi
# Nothing outside /usr, nothing of the build (tests, benchmarks, fuzzers, object files).
outside=$(grep -v '^/usr/' "$tmp/files" | grep -vx '/' || true)
[ -z "$outside" ] || fail "files outside /usr: $outside"
stray=$(grep -E '/(test_|bench_|fuzz_)|\.o$|CMakeFiles' "$tmp/files" || true)
[ -z "$stray" ] || fail "build files in the package: $stray"

# Unpacked elsewhere, /usr is a moved prefix: the binary and the module find their own presets.
dpkg-deb -x "$deb" "$tmp/root"
U=$tmp/root/usr
mkdir "$tmp/elsewhere" && cd "$tmp/elsewhere"
[ "$("$U/bin/aicore-sim" --version)" = "aicore-sim $version" ] || fail "--version"
trace=$U/share/aicore-sim/traces/seed_sparse_16x64x16/seed_sparse_16x64x16.trace
"$U/bin/aicore-sim" run "$trace" -q --timing-only --out run
cycles=$(python3 -c 'import json; print(json.load(open("run/stats.json"))["cycles"])')
if [ -n "$python" ]; then
  got=$(PYTHONPATH=$U/lib/python3/dist-packages "$python" -c 'import aicore_sim, sys
print(aicore_sim.run(sys.argv[1], timing_only=True).cycles)' "$trace")
  [ "$got" = "$cycles" ] || fail "python gave $got cycles, the CLI $cycles"
fi
echo "ok: $(basename "$deb"), Depends: $depends"
