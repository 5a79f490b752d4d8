#!/bin/sh
# Issue 25, cost, independent of machine load: host instructions (callgrind's Ir) executed
# inside the launch (AscendSoc::run) of a sample, plain and with `--check all --set
# check.sites=false`, and their ratio. Counts instructions only: blind to cache misses and
# page faults, which the walls of bench/sanitizer_cost.sh include. Needs valgrind; about 10 s
# per run of the 8-block add.
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
  valgrind --tool=callgrind --toggle-collect='npuvp::platform::AscendSoc::run*' \
    --callgrind-out-file="$tmp/$mode" "$build/npuvp" run "$@" --mode timed --set gm.size=1073741824 $extra \
    > "$tmp/$mode.log" 2>&1 || { cat "$tmp/$mode.log" >&2; exit 1; }
done
plain=$(sed -n 's/^summary: //p' "$tmp/plain")
checked=$(sed -n 's/^summary: //p' "$tmp/checked")
echo "$* (timed): launch Ir plain $plain, checked $checked ($(echo "$checked $plain" | awk '{ printf "%.2f", $1 / $2 }')x)"
