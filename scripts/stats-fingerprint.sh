#!/bin/bash
# Usage: scripts/stats-fingerprint.sh <build-dir> <out-dir>
# Runs a fixed set of sample kernels (platforms, modes, ring and mesh, line sizes, bursts on
# and off) and writes each run's stats JSON and summary (minus the host wall time) to
# <out-dir>. A change meant only for speed must leave every simulated result as it was:
#   scripts/stats-fingerprint.sh build /tmp/before   # on the old build
#   scripts/stats-fingerprint.sh build /tmp/after    # on the new one
#   diff -r /tmp/before /tmp/after                   # must print nothing
# Takes about 5 s.
set -u
B=$1; OUT=$2; mkdir -p "$OUT"
: > "$OUT/rc.txt"  # a reused directory starts afresh (the runs append)
run() { # name args...
  local name=$1; shift
  # The summary without its host wall time (the one figure that differs from run to run).
  "$B/npuvp" run "$@" --stats "$OUT/$name.json" 2>&1 | sed -E 's/ +wall: [0-9.]+ s//' | grep -v "^stats:" > "$OUT/$name.txt"
  echo "$name rc=${PIPESTATUS[0]}" >> "$OUT/rc.txt"
}
for mode in timed perf; do
  run matmul910b_s2_$mode matmul -p ascend910b --scale 2 -m $mode
  run matmul910_s2_$mode matmul -p ascend910 --scale 2 -m $mode
  run matmulcore_s3_$mode matmul -p core910b --scale 3 -m $mode
  run add910b_$mode add -p ascend910b -m $mode
  run add_s4_$mode add -m $mode --scale 4
  run softmax_$mode matmul_softmax -p ascend910b -m $mode --scale 2
  run conv_$mode conv2d -m $mode
  run int8_$mode matmul_int8 -m $mode
  run mesh_$mode matmul -p ascend910b --scale 2 -m $mode -s interconnect.topology=mesh
  run l2_128_$mode matmul -p ascend910b -m $mode -s l2.line_bytes=128 -s l2.interleave_bytes=128
  run noburst_$mode matmul -p core910b --scale 3 -m $mode -s core.mte.burst_bytes=0
done
