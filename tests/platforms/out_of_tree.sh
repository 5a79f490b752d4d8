#!/usr/bin/env bash
# out_of_tree.sh <npuvp source dir> <npuvp build dir> <build-tree|install>
#
# Builds examples/add_custom as a separate CMake project, the way a user does, and runs it:
#   build-tree  find_package(npuvp) from the build tree (-Dnpuvp_DIR=<build dir>)
#   install     `cmake --install` the build into <build dir>/oot-install/prefix, then
#               find_package(npuvp) from there (-DCMAKE_PREFIX_PATH=<prefix>). The installed
#               runtime looks for platform configs in the data dir of the *configured*
#               install prefix, so the caller sets NPUVP_CONFIG_PATH=<prefix>/share/npuvp/configs.
# The example must exit 0 and print "add_custom: PASS". Environment: CMAKE (the cmake to
# use), and CXX / CXXFLAGS / LDFLAGS / CMAKE_GENERATOR as CMake itself reads them.
set -euo pipefail

me=out_of_tree.sh
reported=0
fail() {
  echo "$me: FAILED: $*" >&2
  reported=1
  exit 1
}
# Every non-zero exit says FAILED, whatever caused it (ctest's FAIL_REGULAR_EXPRESSION).
trap 'rc=$?; if ((rc != 0 && reported == 0)); then echo "$me: FAILED (exit status $rc)" >&2; fi' EXIT
run() {
  echo "+ $*"
  "$@"
}

(($# == 3)) || fail "usage: $me <npuvp source dir> <npuvp build dir> <build-tree|install>"
src=$(cd "$1" && pwd) || fail "source dir '$1' does not exist"
build=$(cd "$2" && pwd) || fail "build dir '$2' does not exist"
mode=$3
cmake=${CMAKE:-cmake}
example=$src/examples/add_custom

[[ -f $example/CMakeLists.txt ]] || fail "$example/CMakeLists.txt is missing"
[[ -f $build/CMakeCache.txt ]] || fail "$build is not a CMake build dir (no CMakeCache.txt)"
for f in npuvpConfig.cmake npuvpConfigVersion.cmake npuvpTargets.cmake; do
  [[ -f $build/$f ]] || fail "$build/$f is missing: configure npuvp first (cmake -S $src -B $build)"
done

# Configures and builds the example in $1 with the extra cmake arguments that follow, checks
# which npuvp package it found ($2), then runs it.
build_and_run() {
  local dir=$1 want_pkg=$2
  shift 2
  run "$cmake" -S "$example" -B "$dir" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON "$@" ||
    fail "configuring $example failed"
  local found
  found=$(sed -n 's/^npuvp_DIR:[A-Z]*=//p' "$dir/CMakeCache.txt")
  echo "$me: find_package(npuvp) used $found"
  [[ $found == "$want_pkg"* ]] || fail "find_package(npuvp) found '$found', wanted a package under '$want_pkg'"
  run "$cmake" --build "$dir" --parallel 2 || fail "building $example failed"
  [[ -x $dir/add_custom ]] || fail "$dir/add_custom was not built"

  local out status=0
  echo "+ $dir/add_custom"
  out=$("$dir/add_custom" 2>&1) || status=$?
  printf '%s\n' "$out"
  ((status == 0)) || fail "add_custom exited with status $status"
  grep -q 'add_custom: PASS' <<<"$out" || fail "add_custom did not print 'add_custom: PASS'"
}

case $mode in
  build-tree)
    [[ -f $build/libnpuvp.a ]] || fail "$build/libnpuvp.a is missing: build npuvp first (cmake --build $build)"
    work=$build/oot-build-tree
    run rm -rf "$work"
    build_and_run "$work" "$build" -Dnpuvp_DIR="$build"
    ;;
  install)
    work=$build/oot-install
    prefix=$work/prefix
    run rm -rf "$work"
    mkdir -p "$work"
    echo "+ $cmake --install $build --prefix $prefix > $work/install.log"
    "$cmake" --install "$build" --prefix "$prefix" >"$work/install.log" 2>&1 ||
      { cat "$work/install.log"; fail "cmake --install $build --prefix $prefix failed"; }
    echo "$me: installed into $prefix ($(grep -c "^-- Installing" "$work/install.log" || true) entries, see $work/install.log)"

    configs=${NPUVP_CONFIG_PATH:-}
    [[ -n $configs ]] || fail "NPUVP_CONFIG_PATH is not set: the installed runtime would look in the configured prefix"
    [[ $configs == "$prefix"/* ]] || fail "NPUVP_CONFIG_PATH=$configs is not inside the install prefix $prefix"
    [[ -f $configs/minimal.json ]] || fail "$configs/minimal.json was not installed"
    echo "$me: NPUVP_CONFIG_PATH=$configs"
    # The installed command line resolves the platform the same way the runtime does.
    info=$("$prefix/bin/npuvp" info minimal 2>&1) || { printf '%s\n' "$info"; fail "$prefix/bin/npuvp info minimal failed"; }
    head -n 1 <<<"$info"
    [[ $(head -n 1 <<<"$info") == *"($configs/minimal.json)"* ]] ||
      fail "the installed npuvp did not take minimal.json from $configs"

    build_and_run "$work/build" "$prefix" -DCMAKE_PREFIX_PATH="$prefix"
    # The example must have compiled against the installed headers, not the source tree.
    if grep -Fq -e "-I$src/sw" -e "-isystem $src/sw" "$work/build/compile_commands.json"; then
      fail "the example's compile commands use headers from the source tree $src"
    fi
    grep -q -- "$prefix/include/npuvp" "$work/build/compile_commands.json" ||
      fail "the example's compile commands do not use the installed headers in $prefix/include/npuvp"
    ;;
  *)
    fail "unknown mode '$mode': use build-tree or install"
    ;;
esac
echo "$me: $mode: OK"
