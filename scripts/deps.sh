#!/usr/bin/env bash
# Installs aicore-sim's dependencies from Debian packages (Debian 12). Idempotent, and quick when
# everything is already there (no apt-get update then).
#   bash scripts/deps.sh            what building and running the simulator needs (scripts/example.sh),
#                                     matplotlib for sweep --plot, pybind11 + numpy for the Python API
#   bash scripts/deps.sh test       + the test suite: Catch2, clang (ASan/UBSan, libFuzzer), clang-format,
#                                     Slurm + munge, and the benchmarks' libraries (the test build builds bench/)
#   bash scripts/deps.sh bench      + only the benchmarks' libraries
set -euo pipefail
# The simulator itself: compiler, build tools, SystemC and the libraries src/ links.
# python3-matplotlib draws `aicore-sim sweep --plot` and tools/plot_*.py; pybind11-dev, python3-dev
# and python3-numpy build the Python API (python/aicore_sim, `import aicore_sim`); `file` is what
# cpack -G DEB runs (with dpkg-shlibdeps, from build-essential's dpkg-dev) to find the .deb's library
# dependencies (a fresh root lacks it).
BASE=(build-essential cmake pkg-config ninja-build file
      libsystemc-dev libboost-program-options-dev libspdlog-dev libyaml-cpp-dev nlohmann-json3-dev
      python3-matplotlib pybind11-dev python3-dev python3-numpy)
# Benchmarks (bench/, AICORE_BENCH=ON): Google Benchmark and oneDNN. Debian's oneDNN CMake package
# calls find_package(OpenCL REQUIRED), so the OpenCL loader and headers come too.
BENCH=(libbenchmark-dev libdnnl-dev ocl-icd-opencl-dev opencl-c-headers)
# Tests: Catch2 v2, the clang sanitizer/fuzzer build, the clang-format style test, and a
# single-node Slurm (slurmctld + slurmd, munge auth) for the sweep's Slurm executor test, and
# pytest for the Python API's tests (tests/python).
TEST=(catch2 clang clang-format libclang-rt-14-dev slurm-wlm munge python3-pytest)

PKGS=("${BASE[@]}")
for set in "$@"; do
  case "$set" in
    test) PKGS+=("${TEST[@]}" "${BENCH[@]}") ;;
    bench) PKGS+=("${BENCH[@]}") ;;
    *) echo "scripts/deps.sh: unknown set '$set' (known: test, bench)" >&2; exit 2 ;;
  esac
done
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  export DEBIAN_FRONTEND=noninteractive
  echo "== installing ${missing[*]}"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
