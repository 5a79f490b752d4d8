#!/bin/bash
# Usage: scripts/ir-per-launch.sh <build-dir> [benchmark-filter]   (default Matmul1024_1core/2: perf mode)
# Deterministic cost of a launch in host instructions (callgrind Ir, counted only inside
# AscendSoc::run): runs the platform benchmark's child with 1 and with 3 launches and prints
# the first launch's count (empty L2: it simulates the line fills) and a warm launch's,
# (Ir(3) - Ir(1)) / 2. Independent of machine load, so it can compare two builds while other
# work runs (it does not see host cache misses: confirm a win by wall time on an idle
# machine). Needs valgrind. Takes ~20 s.
B=$1; F=${2:-Matmul1024_1core/2}
T=$(mktemp -d)
for L in 1 3; do
  NPUVP_BENCH_PROFILE_LAUNCHES=$L NPUVP_BENCH_SET="gm.size=1073741824" valgrind --tool=callgrind \
    --toggle-collect='npuvp::platform::AscendSoc::run*' \
    --callgrind-out-file=$T/cg.$L.%p "$B/bench/npuvp_bench" --benchmark_filter="$F" >/dev/null 2>&1
done
# The benchmark runs 3 children (one per iteration), all alike; the parent launches nothing.
# The largest count is a child's.
ir() { for f in $T/cg.$1.*; do grep -h '^summary:' $f | awk '{print $2}'; done | sort -n | tail -1; }
I1=$(ir 1); I3=$(ir 3)
echo "Ir of the first launch: $I1   per warm launch: $(( (I3 - I1) / 2 ))   (3 launches: $I3)"
rm -rf $T
