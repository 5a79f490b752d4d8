#!/usr/bin/env bash
# Installs the Debian packages npuvp builds with. Idempotent: installs only what is missing.
# Usage: scripts/install-deps.sh [--with-bench] [--no-verilator]
set -euo pipefail

packages=(build-essential cmake pkg-config libsystemc-dev libfmt-dev libgtest-dev libgmock-dev python3-numpy
          libbenchmark-dev nlohmann-json3-dev libcli11-dev
          python3-dev python3-pybind11 pybind11-dev python3-pytest
          libunwind8   # the sanitizer's call-site capture (models/check/site.cpp), opened at run time
          elfutils     # eu-addr2line: the sanitizer's file:line lookup (binutils' addr2line is slower)
          libonnx-dev libprotobuf-dev libonnx-testdata python3-onnx   # ONNX models (sw/onnx) and ONNX's node tests
          python3-pandas python3-matplotlib python3-distributed        # the Python API, sweeps on Dask, plots
          libjpeg62-turbo-dev libpng-dev                               # DVPP's JPEG and PNG codecs
          ninja-build)                                                 # the CANN project tests' builds (tests/compat)
with_verilator=1
for arg in "$@"; do
  case "$arg" in
    --with-bench) packages+=(libopenblas-dev) ;;
    --no-verilator) with_verilator=0 ;;
    -h|--help) sed -n '2,3p' "$0"; exit 0 ;;
    *) echo "install-deps.sh: unknown option '$arg'" >&2; exit 2 ;;
  esac
done
[[ $with_verilator == 1 ]] && packages+=(verilator)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [[ ${#missing[@]} -eq 0 ]]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo_cmd=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done"
