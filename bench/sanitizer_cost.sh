#!/bin/sh
# Issue 25, cost: the same timed run of a sample with and without `--check all`, side by side,
# from the command line (bench/sanitizer_bench.cpp measures the same in-process with
# -DNPUVP_BENCH=ON). Three samples: the 1024^3 f16 matmul on one A2 core (matmul_square
# --scale 2 on core910b) and the half add on the 8-core minimal platform with 128 blocks
# (--scale 16) and with 8 (one per core). Each round runs the plain
# and the checked command back to back, in alternating order; the ratios are of the summed
# seconds, so the machine's drift mostly cancels. Two walls: the launch's (npuvp's own
# "wall:" figure, the simulation with or without the checks) and the whole process's (start,
# reference, and, checked, reading the call sites' file:line from the debug information once,
# which check.sites=false skips), and the process's CPU seconds (user + system: on a loaded
# machine the walls move by tens of percent, the CPU far less). Means and, since a preempted
# launch only ever takes longer, the least of the rounds. Target: checked <= 2x timed.
#
#   bench/sanitizer_cost.sh [BUILD_DIR] [ROUNDS]     (default: build 3)
set -eu
build=${1:-build}
rounds=${2:-3}
npuvp=$build/npuvp
[ -x "$npuvp" ] || { echo "sanitizer_cost.sh: $npuvp not built (cmake --build $build --target npuvp)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One run: appends "launch-wall process-wall process-cpu" to $tmp/$2 and fails unless the sample passed
# (and, checked, made no error-kind finding: the exit status would be 1).
run() {
  out=$1 file=$2
  shift 2
  /usr/bin/time -f '%e %U %S' -o "$tmp/time" "$@" > "$tmp/log" 2>&1 || {
    cat "$tmp/log" >&2
    echo "sanitizer_cost.sh: FAILED: $*" >&2
    exit 1
  }
  grep -q "result: PASS" "$tmp/log" || { cat "$tmp/log" >&2; echo "sanitizer_cost.sh: no PASS: $*" >&2; exit 1; }
  launch=$(sed -n 's/.*wall: \([0-9.]*\) s.*/\1/p' "$tmp/log" | tail -1)
  echo "$launch $(awk '{ print $1, $2 + $3 }' "$tmp/time")" >> "$tmp/$file"
  [ "$out" = quiet ] || grep -E "sanitizer: summary" "$tmp/log" | tr '\n' ' ' >&2 || true
}

measure() {
  name=$1
  shift
  rm -f "$tmp/plain" "$tmp/checked" "$tmp/nosites"
  i=0
  while [ "$i" -lt "$rounds" ]; do
    if [ $((i % 2)) -eq 0 ]; then
      run quiet plain "$@"
      run quiet checked "$@" --check all
      run quiet nosites "$@" --check all --set check.sites=false
    else
      run quiet nosites "$@" --check all --set check.sites=false
      run quiet checked "$@" --check all
      run quiet plain "$@"
    fi
    i=$((i + 1))
  done
  paste "$tmp/plain" "$tmp/checked" "$tmp/nosites" | awk -v name="$name" -v rounds="$rounds" '
    function lo(a, b) { return NR == 1 || b < a ? b : a }
    { pl += $1; pp += $2; pc += $3; cl += $4; cp += $5; cc += $6; nl += $7; np += $8; nc += $9
      mpl = lo(mpl, $1); mcl = lo(mcl, $4); mnl = lo(mnl, $7); mpc = lo(mpc, $3); mcc = lo(mcc, $6); mnc = lo(mnc, $9) }
    END { printf "%s (%d rounds, mean seconds)\n", name, rounds
          printf "  launch wall:  timed %6.3f  checked %6.3f (%.2fx)  checked, no sites %6.3f (%.2fx)\n",
                 pl / rounds, cl / rounds, cl / pl, nl / rounds, nl / pl
          printf "  process wall: timed %6.3f  checked %6.3f (%.2fx)  checked, no sites %6.3f (%.2fx)\n",
                 pp / rounds, cp / rounds, cp / pp, np / rounds, np / pp
          printf "  process CPU:  timed %6.3f  checked %6.3f (%.2fx)  checked, no sites %6.3f (%.2fx)\n",
                 pc / rounds, cc / rounds, cc / pc, nc / rounds, nc / pc
          # The least of the rounds: a run no other process preempted comes closest to it.
          printf "  minimum launch wall: timed %6.3f  checked %6.3f (%.2fx)  checked, no sites %6.3f (%.2fx)\n",
                 mpl, mcl, mcl / mpl, mnl, mnl / mpl
          printf "  minimum process CPU: timed %6.3f  checked %6.3f (%.2fx)  checked, no sites %6.3f (%.2fx)\n",
                 mpc, mcc, mcc / mpc, mnc, mnc / mpc }'
}

echo "npuvp sanitizer cost, $(date -u +%Y-%m-%dT%H:%MZ), load average $(cut -d' ' -f1-3 /proc/loadavg)"
measure "matmul 1024^3 f16, 1 A2 core" "$npuvp" run matmul_square --platform core910b --scale 2 --mode timed
measure "add f16, 8 cores x 16 blocks each (minimal, --scale 16)" "$npuvp" run add --platform minimal --scale 16 --mode timed
measure "add f16, 8 blocks on 8 cores (minimal)" "$npuvp" run add --platform minimal --mode timed
