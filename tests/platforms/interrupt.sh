#!/usr/bin/env bash
# interrupt.sh <npuvp> <signal> <status>: starts a long run with a trace and statistics, sends
# the signal once the run is under way, and requires: the exit status (128 + signal), a
# message naming the signal and the simulated time reached, a trace that is valid JSON (closed)
# and a statistics file that is not empty.
set -uo pipefail
npuvp=$1; signal=$2; want=$3
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
"$npuvp" run matmul -p ascend910b --scale 8 --mode perf --trace "$dir/t.json" --stats "$dir/s.json" >"$dir/out" 2>&1 &
pid=$!
# Wait until the simulation is under way: its trace (still the temporary file) grows.
for _ in $(seq 1 600); do
  size=$(cat "$dir"/t.json.tmp.* 2>/dev/null | wc -c)
  [ "$size" -gt 20000 ] && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
kill -s "$signal" "$pid"
wait "$pid"; status=$?
cat "$dir/out"
[[ $status -eq $want ]] || { echo "interrupt.sh: exit status $status, wanted $want" >&2; exit 1; }
grep -Eq "npuvp: error: .*interrupted by SIG$signal: the run stopped at simulated time [0-9.]+ [a-z]*s" "$dir/out" ||
  { echo "interrupt.sh: no message naming the signal and the time" >&2; exit 1; }
/usr/bin/python3 -c 'import json,sys; t=json.load(open(sys.argv[1])); assert len(t) > 0' "$dir/t.json" ||
  { echo "interrupt.sh: the trace is not valid JSON" >&2; exit 1; }
[[ -s $dir/s.json ]] || { echo "interrupt.sh: empty statistics file" >&2; exit 1; }
/usr/bin/python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$dir/s.json" ||
  { echo "interrupt.sh: the statistics are not valid JSON" >&2; exit 1; }
ls "$dir" | grep -q tmp && { echo "interrupt.sh: a temporary file was left behind" >&2; exit 1; }
exit 0
