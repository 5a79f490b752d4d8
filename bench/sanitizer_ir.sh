#!/bin/sh
# Issue 25, cost, independent of machine load: host instructions (callgrind's Ir) executed
# inside the launch (AscendSoc::run) of a sample, plain and with `--check all --set
# check.sites=false`, and their ratio; with the cache simulation on, also callgrind's cycle
# estimate (Ir + 10 x first-level misses + 100 x last-level misses), which counts the memory
# traffic the instruction count is blind to (not page faults: the walls of
# bench/sanitizer_cost.sh include those). Needs valgrind; about 20 s per run of the 8-block add.
#
#   bench/sanitizer_ir.sh [BUILD_DIR] [npuvp run arguments]   (default: build add --platform minimal)
set -eu
build=${1:-build}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- add --platform minimal
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for mode in plain checked; do
  extra=""
  [ "$mode" = checked ] && extra="--check all --set check.sites=false"
  # A small GM: valgrind cannot reserve the platforms' default backing store.
  # shellcheck disable=SC2086
  valgrind --tool=callgrind --cache-sim=yes --toggle-collect='npuvp::platform::AscendSoc::run*' \
    --callgrind-out-file="$tmp/$mode" "$build/npuvp" run "$@" --mode timed --set gm.size=1073741824 $extra \
    > "$tmp/$mode.log" 2>&1 || { cat "$tmp/$mode.log" >&2; exit 1; }
done
# "events: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw" and "summary: <the same counts>".
totals() {
  awk '/^events:/ { for (i = 2; i <= NF; i++) name[i - 1] = $i }
       /^summary:/ { for (i = 2; i <= NF; i++) v[name[i - 1]] = $i
                     printf "%d %d\n", v["Ir"], v["Ir"] + 10 * (v["I1mr"] + v["D1mr"] + v["D1mw"]) + 100 * (v["ILmr"] + v["DLmr"] + v["DLmw"]) }' "$1"
}
set -- "$@"
totals "$tmp/plain" > "$tmp/p"
totals "$tmp/checked" > "$tmp/c"
paste "$tmp/p" "$tmp/c" | awk -v what="$*" '{
  printf "%s (timed): launch Ir plain %d, checked %d (%.2fx); estimated cycles plain %d, checked %d (%.2fx)\n",
         what, $1, $3, $3 / $1, $2, $4, $4 / $2 }'
