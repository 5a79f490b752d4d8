#!/bin/bash
# Usage: scripts/param-fuzz.sh <build-dir> [platform:kernel ...]
# Gives every numeric parameter of each platform (as `npuvp info` lists them) the values
# 0, -1, 1e30, 1e-20, 0.5, 3 and 2^32-1, one run of the sample kernel each, and prints every
# run that crashed (a signal) or hung (30 s): bad input must end in a clear error (exit 1)
# or a normal run. Prints nothing else but a count. Takes about 2 min (a ctest runs it:
# platforms.cli.no_parameter_value_crashes_or_hangs).
set -u
B=$1; shift
CASES=${*:-core910b:matmul ascend910b:matmul_softmax ascend910:matmul ascend310p:add minimal:add core910:conv2d mncore2:elementwise}
bad=0; runs=0
for c in $CASES; do
  P=${c%%:*}; K=${c#*:}
  while read -r key val; do
    case "$val" in \"*|true|false) continue;; esac
    for v in 0 -1 1e30 1e-20 0.5 3 4294967295; do
      out=$(timeout 30 "$B/npuvp" run "$K" -p "$P" -s "$key=$v" 2>&1); rc=$?
      runs=$((runs + 1))
      if [ $rc -ge 124 ]; then
        bad=$((bad + 1))
        echo "$([ $rc -eq 124 ] && echo HUNG || echo "CRASHED rc=$rc"): npuvp run $K -p $P -s $key=$v :: $(echo "$out" | tail -1 | cut -c1-120)"
      fi
    done
  done < <("$B/npuvp" info "$P" | awk 'NF >= 3 && $1 ~ /\./ {print $1, $2}')
done
echo "param-fuzz: $runs runs, $bad crashed or hung"
[ $bad -eq 0 ]
