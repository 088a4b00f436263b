#!/usr/bin/env bash
# Installs the Debian 12 packages pacl needs to build and test (skips what is already there).
set -euo pipefail
pkgs=(build-essential cmake ninja-build pkg-config libfmt-dev libgtest-dev libgmock-dev nlohmann-json3-dev libcli11-dev
      libffi-dev python3 libdnnl-dev
      libopenblas-dev)  # libopenblas-dev: the GEMM peer of bench/cases_matmul.cpp
missing=()
for p in "${pkgs[@]}"; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
