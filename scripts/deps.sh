#!/usr/bin/env bash
# Installs every build, test and tool dependency of aicore-sim from Debian packages.
# Idempotent and quick when everything is already there (no apt-get update then).
set -euo pipefail
PKGS=(build-essential cmake pkg-config ninja-build
      libsystemc-dev libboost-program-options-dev libspdlog-dev libyaml-cpp-dev
      catch2 nlohmann-json3-dev libbenchmark-dev libdnnl-dev
      clang clang-format clang-tidy libclang-rt-14-dev python3-matplotlib)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
