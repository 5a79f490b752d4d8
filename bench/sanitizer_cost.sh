#!/bin/sh
# Issue 25, cost: the same timed run of a sample with and without `--check all`, side by side,
# from the command line (bench/sanitizer_bench.cpp measures the same in-process with
# -DNPUVP_BENCH=ON). Two samples: the 1024^3 f16 matmul on one A2 core (matmul_square
# --scale 2 on core910b) and the 8-core half add (add on minimal). Each round runs the plain
# and the checked command back to back, in alternating order; the ratios are of the summed
# wall and CPU (user + sys) seconds, so the machine's drift mostly cancels. Target: wall <= 2x.
#
#   bench/sanitizer_cost.sh [BUILD_DIR] [ROUNDS]     (default: build 3)
set -eu
build=${1:-build}
rounds=${2:-3}
npuvp=$build/npuvp
[ -x "$npuvp" ] || { echo "sanitizer_cost.sh: $npuvp not built (cmake --build $build --target npuvp)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One run: appends "wall cpu" to $tmp/$2 and fails unless the sample passed (and, checked,
# made no error-kind finding: the exit status would be 1).
run() {
  out=$1 file=$2
  shift 2
  /usr/bin/time -f '%e %U %S' -o "$tmp/time" "$@" > "$tmp/log" 2>&1 || {
    cat "$tmp/log" >&2
    echo "sanitizer_cost.sh: FAILED: $*" >&2
    exit 1
  }
  grep -q "result: PASS" "$tmp/log" || { cat "$tmp/log" >&2; echo "sanitizer_cost.sh: no PASS: $*" >&2; exit 1; }
  awk '{ printf "%s %.3f\n", $1, $2 + $3 }' "$tmp/time" >> "$tmp/$file"
  [ "$out" = quiet ] || grep -E "sanitizer: summary" "$tmp/log" | tr '\n' ' ' >&2 || true
}

measure() {
  name=$1
  shift
  rm -f "$tmp/plain" "$tmp/checked"
  i=0
  while [ "$i" -lt "$rounds" ]; do
    if [ $((i % 2)) -eq 0 ]; then
      run quiet plain "$@"
      run quiet checked "$@" --check all
    else
      run quiet checked "$@" --check all
      run quiet plain "$@"
    fi
    i=$((i + 1))
  done
  paste "$tmp/plain" "$tmp/checked" | awk -v name="$name" -v rounds="$rounds" '
    { pw += $1; pc += $2; cw += $3; cc += $4 }
    END { printf "%-34s timed %6.2f s wall %6.2f s cpu | checked %6.2f s wall %6.2f s cpu | checked/timed: wall %.2fx, cpu %.2fx (%d rounds)\n",
                 name, pw / rounds, pc / rounds, cw / rounds, cc / rounds, cw / pw, cc / pc, rounds }'
}

echo "npuvp sanitizer cost, $(date -u +%Y-%m-%dT%H:%MZ), load average $(cut -d' ' -f1-3 /proc/loadavg)"
measure "matmul 1024^3 f16, 1 A2 core" "$npuvp" run matmul_square --platform core910b --scale 2 --mode timed
measure "add f16, 8 cores (minimal)" "$npuvp" run add --platform minimal --mode timed
