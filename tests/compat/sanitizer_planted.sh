#!/usr/bin/env bash
# sanitizer_planted.sh <project dir> <prefix> <cpu|sim> <SoC name> <work dir>
#   The sanitizer's planted-bug rehearsal (issue 25, docs/sanitizer.md "Tests"): builds the
#   kernel-launch project tests/compat/sanitizer_planted (ten kernels) with an installed
#   npuvp as its CANN package, as cann_project.sh does, then runs each kernel with
#   NPUVP_CHECK=all. A planted kernel must exit non-zero with at least one error of its kind
#   and no error of another kind; a correct one must exit 0, print "result: PASS" and no
#   sanitizer error or note. Prints one line per kernel and PASS or FAILED at the end.
set -uo pipefail

me=sanitizer_planted.sh
(($# == 5)) || { echo "usage: $me <project dir> <prefix> <cpu|sim> <SoC name> <work dir>" >&2; exit 2; }
project=$1 prefix=$2 route=$3 soc=$4 work=$5
cmake=${CMAKE:-cmake}
unset NPUVP_PLATFORM NPUVP_SET NPUVP_SOC_VERSION NPUVP_CONFIG_PATH CMAKE_PREFIX_PATH NPUVP_CHECK

fail() {
  echo "$me: FAILED: $*" >&2
  exit 1
}
[[ -f $prefix/bin/setenv.bash ]] || fail "no npuvp install in $prefix"
rm -rf "$work"
mkdir -p "$(dirname "$work")"
cp -R "$project" "$work" || fail "cannot copy $project"
rm -rf "$work/build"
cd "$work" || exit 1
t0=$SECONDS
"$cmake" -B build -DRUN_MODE="$route" -DSOC_VERSION="$soc" -DASCEND_CANN_PACKAGE_PATH="$prefix" >build.log 2>&1 &&
  "$cmake" --build build --parallel 2 >>build.log 2>&1 || { cat build.log; fail "building for $route on $soc failed"; }
echo "$me: built for $route on $soc in $((SECONDS - t0)) s"

failed=0
# kernel:expected kind (none: a correct kernel)
for entry in planted_no_enque:race planted_early_free:race planted_stencil_tail:out-of-bounds \
             planted_no_init:uninitialized planted_shared_output:race planted_wrong_barrier:race \
             planted_pingpong_no_wait:race planted_overlap_block:race correct_queues:none correct_flags:none; do
  kernel=${entry%%:*} kind=${entry#*:}
  status=0
  t1=$SECONDS
  out=$(NPUVP_CHECK=all ./build/ascendc_kernels_bbit "$kernel" 2>&1) || status=$?
  errors=$(grep -o 'sanitizer: summary: [a-z-]*: [0-9]* error' <<<"$out" | sed 's/sanitizer: summary: //; s/ error//' | tr '\n' ' ')
  notes=$(grep -c 'sanitizer: [a-z-]*: note:' <<<"$out")
  verdict=ok
  if [[ $kind == none ]]; then
    ((status == 0)) || verdict="exit status $status"
    grep -q "result: PASS" <<<"$out" || verdict="no result: PASS"
    grep -q "sanitizer: summary: race: 0 errors" <<<"$out" || verdict="no sanitizer summary"
    grep -Eq 'summary: [a-z-]+: [1-9]' <<<"$out" && verdict="findings: $errors"
    ((notes == 0)) || verdict="$notes notes"
  else
    ((status != 0)) || verdict="exit status 0"
    grep -Eq "summary: $kind: [1-9]" <<<"$out" || verdict="no $kind error ($errors)"
    other=$(grep -E 'summary: [a-z-]+: [1-9]' <<<"$out" | grep -v "summary: $kind:")
    [[ -z $other ]] || verdict="errors of another kind: $other"
  fi
  echo "$me: $kernel ($route on $soc, expect ${kind/none/silence}): exit $status, errors: $errors-> $verdict ($((SECONDS - t1)) s)"
  if [[ $verdict != ok ]]; then
    printf '%s\n' "$out" | grep -v "^npuvp: sanitizer: summary" | head -n 30
    failed=1
  fi
done
((failed == 0)) || fail "$route on $soc: a planted bug was missed or a correct kernel was not silent"
echo "$me: $route on $soc: PASS ($((SECONDS - t0)) s)"
