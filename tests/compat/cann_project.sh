#!/usr/bin/env bash
# cann_project.sh install <npuvp build dir> <prefix>
#   Installs the npuvp build into <prefix> (the CANN package every project test uses) and
#   checks the paths CANN projects rely on.
# cann_project.sh run <project dir> <prefix> <cpu|sim> <SoC name> <work dir>
#   Builds and runs a CANN kernel-launch project as its run.sh would, on a copy in <work dir>
#   (the project's own files are never touched):
#     cmake -B build -DRUN_MODE=<route> -DSOC_VERSION=<SoC> -DASCEND_CANN_PACKAGE_PATH=<prefix>
#     cmake --build build
#     /usr/bin/python3 scripts/gen_data.py; ./build/ascendc_kernels_bbit
#     /usr/bin/python3 scripts/verify_result.py <the arguments the project's run.sh gives it>
#   The program must exit 0 and print "ran on <SoC>" (the chip it ran on, from
#   aclrtGetSocName), and the verify script must exit 0.
# cann_project.sh rerun <project dir> <prefix> <cpu|sim> <SoC name> <work dir>
#   The same, but the program an earlier `run` with the same arguments built in <work dir> is
#   run again (gen_data.py, the program, verify_result.py) when the copy there still matches
#   the project; otherwise a full `run`. The sanitizer tests use it: their build is the plain
#   run's, only the environment differs (NPUVP_CHECK).
# cann_project.sh run.sh <project dir> <prefix> <cpu|sim> <SoC name> <work dir>
#   The same through the project's own run.sh (-r <route> -v <SoC> -i <prefix>), which sources
#   <prefix>/bin/setenv.bash and runs the installed program through LD_LIBRARY_PATH; Debian's
#   python3 (with numpy) first on PATH.
# cann_project.sh errors <project dir> <prefix> <work dir>
#   The configure step's errors, on copies of the project: an unknown SOC_VERSION (both
#   routes) names the known chips; a launch the sim route cannot translate (appended to the
#   copy's kernel file) names its file and line; so does a compiler error in a translated
#   kernel file.
# cann_project.sh override <work dir of a run> <platform> <SoC name>
#   Runs the program built by an earlier `run` again with NPUVP_PLATFORM=<platform>: it must
#   run on that chip instead (aclrtGetSocName: <SoC name>) and exit 0.
# Environment: CMAKE (the cmake to use); CMAKE_CXX_COMPILER_LAUNCHER and CMAKE_GENERATOR are
# read by CMake itself.
set -euo pipefail

me=cann_project.sh
reported=0
fail() {
  echo "$me: FAILED: $*" >&2
  reported=1
  exit 1
}
trap 'rc=$?; if ((rc != 0 && reported == 0)); then echo "$me: FAILED (exit status $rc)" >&2; fi' EXIT
run() {
  echo "+ $*"
  "$@"
}
# A copy of project $1 in $2, without what an earlier build in the project left there.
copy_project() {
  run rm -rf "$2"
  mkdir -p "$(dirname "$2")"
  run cp -R "$1" "$2"
  rm -rf "$2/build" "$2/out" "$2/input" "$2/output"
}
cmake=${CMAKE:-cmake}
python=/usr/bin/python3
# The chip must come from the project's SOC_VERSION alone, and the package from
# ASCEND_CANN_PACKAGE_PATH (the samples' cpu_lib.cmake uses it only when the environment has
# no CMAKE_PREFIX_PATH).
unset NPUVP_PLATFORM NPUVP_SET NPUVP_SOC_VERSION NPUVP_CONFIG_PATH CMAKE_PREFIX_PATH

install_prefix() {
  local build=$1 prefix=$2
  [[ -f $build/CMakeCache.txt ]] || fail "$build is not a CMake build dir"
  run rm -rf "$prefix"
  echo "+ $cmake --install $build --prefix $prefix > $prefix.log"
  "$cmake" --install "$build" --prefix "$prefix" >"$prefix.log" 2>&1 || { cat "$prefix.log"; fail "installing into $prefix failed"; }
  local path
  for path in bin/setenv.bash bin/npuvp-ascendc-translate lib64/libnpuvp.so lib64/libascendcl.so lib64/libc_sec.so \
    compiler/tikcpp/ascendc_kernel_cmake/ascendc.cmake tools/tikcpp/ascendc_kernel_cmake/ascendc.cmake \
    tools/tikicpulib/lib/cmake/tikicpulib/tikicpulibConfig.cmake include/acl/acl.h runtime/include/acl/acl.h \
    include/kernel_operator.h include/tikicpulib.h runtime/lib64/stub tools/tikicpulib/lib/Ascend910B1 \
    tools/simulator/Ascend310P3/lib share/npuvp/configs/ascend910b.json; do
    [[ -e $prefix/$path ]] || fail "$prefix/$path was not installed"
  done
  echo "$me: installed npuvp as a CANN package in $prefix"
}

run_project() {
  local project=$1 prefix=$2 route=$3 soc=$4 work=$5 reuse=${6:-}
  local name
  name=$(basename "$project")
  [[ -f $project/CMakeLists.txt && -f $project/scripts/gen_data.py && -f $project/scripts/verify_result.py ]] ||
    fail "$project is not a project in the samples' layout (CMakeLists.txt, scripts/gen_data.py, scripts/verify_result.py)"
  [[ -f $prefix/bin/setenv.bash ]] || fail "no npuvp install in $prefix (the install test runs first)"
  # verify_result.py's arguments, as the project's run.sh passes them.
  local verify_args
  verify_args=$(sed -n 's/.*verify_result\.py[[:space:]]*//p' "$project/run.sh" 2>/dev/null | head -n 1)
  [[ -n $verify_args ]] || fail "$project/run.sh does not run scripts/verify_result.py with its arguments"

  # What built the program in <work dir> (rerun compares it), and whether the copy is the project.
  local stamp="$project $prefix $route $soc"
  local t0=$SECONDS built
  if [[ $reuse == reuse && -x $work/build/ascendc_kernels_bbit && -f $work/.cann_project_built &&
        $(cat "$work/.cann_project_built") == "$stamp" ]] &&
     diff -rq --exclude=build --exclude=input --exclude=output --exclude=.cann_project_built "$project" "$work" >/dev/null; then
    echo "+ (the program $work/build/ascendc_kernels_bbit, built by the run with these arguments)"
    cd "$work"
    rm -rf input output
    built=0
  else
    copy_project "$project" "$work"
    cd "$work"
    run "$cmake" -B build -DRUN_MODE="$route" -DSOC_VERSION="$soc" -DASCEND_CANN_PACKAGE_PATH="$prefix" ||
      fail "$name: configuring for $route on $soc failed"
    run "$cmake" --build build --parallel 2 || fail "$name: building for $route on $soc failed"
    built=$((SECONDS - t0))
    [[ -x build/ascendc_kernels_bbit ]] || fail "$name: build/ascendc_kernels_bbit was not built"
    printf '%s\n' "$stamp" >.cann_project_built
  fi
  mkdir -p input output
  run "$python" scripts/gen_data.py || fail "$name: scripts/gen_data.py failed"

  local out status=0
  echo "+ ./build/ascendc_kernels_bbit"
  out=$(./build/ascendc_kernels_bbit 2>&1) || status=$?
  printf '%s\n' "$out"
  ((status == 0)) || fail "$name: ascendc_kernels_bbit exited with status $status"
  grep -q "ran on $soc\$" <<<"$out" || fail "$name: the program did not report running on $soc"

  # shellcheck disable=SC2086  # the arguments are words of run.sh
  run "$python" scripts/verify_result.py $verify_args || fail "$name: verify_result.py failed"
  echo "$me: $name: $route on $soc: PASS (configure + build ${built} s, total $((SECONDS - t0)) s)"
}

run_script() {
  local project=$1 prefix=$2 route=$3 soc=$4 work=$5
  local name
  name=$(basename "$project")
  [[ -f $project/run.sh ]] || fail "$project has no run.sh"
  copy_project "$project" "$work"
  cd "$work"
  local out status=0
  echo "+ bash run.sh -r $route -v $soc -i $prefix"
  out=$(PATH=/usr/bin:$PATH bash run.sh -r "$route" -v "$soc" -i "$prefix" 2>&1) || status=$?
  printf '%s\n' "$out"
  ((status == 0)) || fail "$name: run.sh exited with status $status"
  grep -q "ran on $soc\$" <<<"$out" || fail "$name: the program did not report running on $soc"
  echo "$me: $name: run.sh, $route on $soc: PASS"
}

# Configures <dir> with the arguments that follow; must fail and print <pattern> (grep -E).
configure_fails() {
  local dir=$1 pattern=$2
  shift 2
  local out status=0
  echo "+ (cd $dir && $cmake -B build $*)"
  out=$(cd "$dir" && "$cmake" -B build "$@" 2>&1) || status=$?
  ((status != 0)) || { printf '%s\n' "$out"; fail "configuring with $* succeeded; it must fail"; }
  grep -Eq "$pattern" <<<"$out" || { printf '%s\n' "$out"; fail "configuring with $* did not say: $pattern"; }
  grep -E "$pattern" <<<"$out" | head -n 1
}

check_errors() {
  local project=$1 prefix=$2 work=$3
  run rm -rf "$work"
  mkdir -p "$work"
  local route
  for route in cpu sim; do
    copy_project "$project" "$work/$route"
    configure_fails "$work/$route" "npuvp does not model SOC_VERSION 'Ascend999'" \
      -DRUN_MODE=$route -DSOC_VERSION=Ascend999 -DASCEND_CANN_PACKAGE_PATH="$prefix"
    configure_fails "$work/$route" "^ +Ascend910A, .*Ascend310P3" \
      -DRUN_MODE=$route -DSOC_VERSION=Ascend999 -DASCEND_CANN_PACKAGE_PATH="$prefix"
  done
  copy_project "$project" "$work/launch"
  local kernel
  kernel=$(grep -l "__global__" "$work/launch"/*.cpp | grep -v "/main.cpp$" | head -n 1)
  [[ -n $kernel ]] || fail "$project has no kernel file"
  local line=$(($(wc -l <"$kernel") + 3))
  printf '\nvoid broken_do(void* stream)\n{ broken<<<8, nullptr>>>(stream); }\n' >>"$kernel"
  configure_fails "$work/launch" \
    "$kernel:$line: error: the launch configuration takes 3 arguments <<<blockDim, l2ctrl, stream>>>, found 2" \
    -DRUN_MODE=sim -DSOC_VERSION=Ascend910B1 -DASCEND_CANN_PACKAGE_PATH="$prefix"
  # A compile error in a translated kernel file points at the user's file and line (#line).
  copy_project "$project" "$work/compile"
  kernel=$work/compile/$(basename "$kernel")
  line=$(($(wc -l <"$kernel") + 1))
  printf 'static int broken = not_declared_anywhere;\n' >>"$kernel"
  run "$cmake" -S "$work/compile" -B "$work/compile/build" -DRUN_MODE=sim -DSOC_VERSION=Ascend910B1 \
    -DASCEND_CANN_PACKAGE_PATH="$prefix" >/dev/null || fail "configuring $work/compile failed"
  local out status=0
  out=$("$cmake" --build "$work/compile/build" 2>&1) || status=$?
  ((status != 0)) || fail "building $work/compile succeeded; it must fail"
  grep -Eq "^$kernel:$line:[0-9]+: error: .*not_declared_anywhere" <<<"$out" ||
    { printf '%s\n' "$out"; fail "the compile error does not point at $kernel:$line"; }
  grep -E "^$kernel:$line:[0-9]+: error:" <<<"$out" | head -n 1
  echo "$me: errors: PASS"
}

check_override() {
  local work=$1 platform=$2 soc=$3
  [[ -x $work/build/ascendc_kernels_bbit ]] || fail "$work/build/ascendc_kernels_bbit is missing (its run test first)"
  cd "$work"
  local out status=0
  echo "+ NPUVP_PLATFORM=$platform ./build/ascendc_kernels_bbit"
  out=$(NPUVP_PLATFORM=$platform ./build/ascendc_kernels_bbit 2>&1) || status=$?
  printf '%s\n' "$out"
  ((status == 0)) || fail "ascendc_kernels_bbit exited with status $status on NPUVP_PLATFORM=$platform"
  grep -q "ran on $soc\$" <<<"$out" || fail "NPUVP_PLATFORM=$platform did not override the project's chip"
  echo "$me: override: PASS"
}

case ${1:-} in
  install)
    (($# == 3)) || fail "usage: $me install <npuvp build dir> <prefix>"
    install_prefix "$2" "$3"
    ;;
  run)
    (($# == 6)) || fail "usage: $me run <project dir> <prefix> <cpu|sim> <SoC name> <work dir>"
    run_project "$2" "$3" "$4" "$5" "$6"
    ;;
  rerun)
    (($# == 6)) || fail "usage: $me rerun <project dir> <prefix> <cpu|sim> <SoC name> <work dir>"
    run_project "$2" "$3" "$4" "$5" "$6" reuse
    ;;
  run.sh)
    (($# == 6)) || fail "usage: $me run.sh <project dir> <prefix> <cpu|sim> <SoC name> <work dir>"
    run_script "$2" "$3" "$4" "$5" "$6"
    ;;
  override)
    (($# == 4)) || fail "usage: $me override <work dir> <platform> <SoC name>"
    check_override "$2" "$3" "$4"
    ;;
  errors)
    (($# == 4)) || fail "usage: $me errors <project dir> <prefix> <work dir>"
    check_errors "$2" "$3" "$4"
    ;;
  *)
    fail "usage: $me install <npuvp build dir> <prefix> | run <project dir> <prefix> <cpu|sim> <SoC> <work dir>"
    ;;
esac
