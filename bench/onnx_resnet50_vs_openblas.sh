#!/bin/sh
# Issue 26, speed: `npuvp run resnet50_b1.onnx --mode timed --data DIR` side by side with the
# same layers' arithmetic on the host (bench/resnet50_openblas_reference.cpp: im2col + OpenBLAS
# sgemm, one thread). Prints both wall and CPU times. npuvp's output is compared (its own
# `result:` line, ONNX's rtol 1e-3 and atol 1e-7) with a float64 numpy evaluation of the same
# graph, written beforehand as DIR/output_0.pb (scripts/models/host_reference.py expect).
#
#   bench/onnx_resnet50_vs_openblas.sh [BUILD_DIR] [PLATFORM]     (default: build ascend910b)
#   NPUVP_BEFORE=/path/to/older/npuvp bench/onnx_resnet50_vs_openblas.sh ...
#       also times an older binary on the same data, after this one (a before/after side by side)
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
/usr/bin/python3 "$src/scripts/models/host_reference.py" expect "$models/resnet50_b1.onnx" "$work/data"

g++ -O2 -std=c++17 -o "$work/resnet50_openblas" "$src/bench/resnet50_openblas_reference.cpp" \
    -I/usr/include/x86_64-linux-gnu/openblas-pthread -lopenblas

echo "== host: im2col + OpenBLAS sgemm, 1 thread"
OPENBLAS_NUM_THREADS=1 /usr/bin/time -f 'host: %e s wall, %U s user + %S s sys' "$work/resnet50_openblas" 1
echo "== npuvp: $platform, timed mode, with data"
status=0
/usr/bin/time -f 'npuvp: %e s wall, %U s user + %S s sys' \
    "$build/npuvp" run "$models/resnet50_b1.onnx" --platform "$platform" --mode timed --data "$work/data" \
    > "$work/npuvp.log" || status=$?
grep -E '^(total|precision|result|simulated)' "$work/npuvp.log" || true
if [ -n "${NPUVP_BEFORE:-}" ]; then
  echo "== the same with $NPUVP_BEFORE"
  /usr/bin/time -f 'before: %e s wall, %U s user + %S s sys' \
      "$NPUVP_BEFORE" run "$models/resnet50_b1.onnx" --platform "$platform" --mode timed --data "$work/data" \
      > "$work/npuvp_before.log" || status=$?
  grep -E '^(total|result|simulated)' "$work/npuvp_before.log" || true
fi
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
exit $status
