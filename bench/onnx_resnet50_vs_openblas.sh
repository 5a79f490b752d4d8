#!/bin/sh
# Issue 26, speed: `npuvp run resnet50_b1.onnx --mode timed --data DIR` side by side with the
# same layers' arithmetic on the host (bench/resnet50_openblas_reference.cpp: im2col + OpenBLAS
# sgemm, one thread). Prints both wall and CPU times and their ratio.
#
#   bench/onnx_resnet50_vs_openblas.sh [BUILD_DIR] [PLATFORM]     (default: build ascend910b)
#
# Needs libopenblas-dev (scripts/install-deps.sh --with-bench) and the npuvp target built.
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
platform=${2:-ascend910b}
models=$build/models
work=$build/bench_resnet50
mkdir -p "$models" "$work/data"
[ -s "$models/resnet50_b1.onnx" ] || /usr/bin/python3 "$src/scripts/models/build_models.py" --out "$models" resnet50
rm -f "$work/data/"*.pb
/usr/bin/python3 "$src/scripts/models/host_reference.py" make-input "$models/resnet50_b1.onnx" "$work/data"

g++ -O2 -std=c++17 -o "$work/resnet50_openblas" "$src/bench/resnet50_openblas_reference.cpp" \
    -I/usr/include/x86_64-linux-gnu/openblas-pthread -lopenblas

echo "== host: im2col + OpenBLAS sgemm, 1 thread"
OPENBLAS_NUM_THREADS=1 /usr/bin/time -f 'host: %e s wall, %U s user + %S s sys' "$work/resnet50_openblas" 1
echo "== npuvp: $platform, timed mode, with data"
/usr/bin/time -f 'npuvp: %e s wall, %U s user + %S s sys' \
    "$build/npuvp" run "$models/resnet50_b1.onnx" --platform "$platform" --mode timed --data "$work/data" \
    > "$work/npuvp.log"
grep -E '^(total|precision|result|simulated)' "$work/npuvp.log" || true
echo "== the outputs against a float64 numpy evaluation of the same graph"
/usr/bin/python3 "$src/scripts/models/host_reference.py" check "$models/resnet50_b1.onnx" "$work/data"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
