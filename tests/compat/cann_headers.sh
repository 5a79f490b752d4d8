#!/usr/bin/env bash
# cann_headers.sh <prefix> <c++ compiler> <c compiler> <kernel.cpp>...
#   Compiles every public header of an npuvp install used as a CANN package (what a CANN
#   project's kernels and hosts include: <prefix>/include, runtime/include, and npuvp's
#   sw/ascendc, sw/runtime and sw/cann) with the flags CANN's samples use:
#     host:   -O2 -std=c++17 -D_GLIBCXX_USE_CXX11_ABI=0 -Wall -Wextra -Werror, each header on
#             its own (so each is self-contained)
#     kernel: -g -O0 -std=c++17 -Wall -Wextra -Werror and the CPU-debug definitions, all
#             headers in one translation unit
#   and the ACL headers also as C (-std=c11). Any warning is an error. Then the kernels given
#   are compiled with both sets of flags, -D_GLIBCXX_USE_CXX11_ABI=0 included, and linked
#   with libnpuvp.so and --no-undefined: nothing they use from the library may depend on the
#   libstdc++ string ABI (a host and kernel linked the samples' way: the compat.cann tests).
set -euo pipefail
me=cann_headers.sh
(($# >= 3)) || { echo "usage: $me <prefix> <c++ compiler> <c compiler> <kernel.cpp>..." >&2; exit 2; }
prefix=$(cd "$1" && pwd) cxx=$2 cc=$3
shift 3
kernels=("$@")
[[ -f $prefix/include/kernel_operator.h ]] || { echo "$me: FAILED: no npuvp install in $prefix" >&2; exit 1; }

includes=(-I"$prefix/include" -I"$prefix/runtime/include" -I"$prefix/include/npuvp"
          -I"$prefix/include/npuvp/sw/ascendc" -I"$prefix/include/npuvp/sw/runtime"
          -I"$prefix/include/npuvp/sw/runtime/acl/include")
host=(-O2 -std=c++17 -D_GLIBCXX_USE_CXX11_ABI=0 -Wall -Wextra -Werror)
kernel=(-g -O0 -std=c++17 -Wall -Wextra -Werror -DASCENDC_CPU_DEBUG=1 -D__CCE_KT_TEST__=1 -D__CCE_AICORE__=220
        -D__NPU_ARCH__=2201 '-DNPUVP_SOC_VERSION="Ascend910B1"')

mapfile -t headers < <(cd "$prefix" && find include runtime/include -name '*.h' \
  \( -path 'include/npuvp/*' -prune -o -print \) | sort;
  cd "$prefix/include/npuvp" && find sw/ascendc sw/runtime sw/cann -name '*.h' | sort)
failed=0
checked=0
compile() {  # <label> <header> <compiler> <flags...>
  local label=$1 header=$2 compiler=$3
  shift 3
  local log
  if ! log=$(printf '#include "%s"\n' "$header" | "$compiler" "$@" "${includes[@]}" -c -o /dev/null -x "${lang}" - 2>&1); then
    echo "$me: $header ($label): FAILED"
    printf '%s\n' "$log" | head -n 30
    failed=$((failed + 1))
  fi
  checked=$((checked + 1))
}
all=()
for h in "${headers[@]}"; do
  # Headers under the prefix's include roots are named as a project names them.
  name=${h#include/}
  name=${name#runtime/include/}
  all+=("$name")
  lang=c++
  compile host "$name" "$cxx" "${host[@]}"
  if [[ $name == acl/* || $name == securec.h ]]; then
    lang=c
    compile "C host" "$name" "$cc" -O2 -std=c11 -Wall -Wextra -Werror
  fi
done
lang=c++
log=$(printf '#include "%s"\n' "${all[@]}" | "$cxx" "${kernel[@]}" "${includes[@]}" -c -o /dev/null -x c++ - 2>&1) || {
  echo "$me: all headers together (kernel): FAILED"
  printf '%s\n' "$log" | head -n 30
  failed=$((failed + 1))
}
checked=$((checked + 1))

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for k in "${kernels[@]}"; do
  for flags in host kernel; do
    declare -n set=$flags
    if ! log=$("$cxx" "${set[@]}" -D_GLIBCXX_USE_CXX11_ABI=0 -fPIC "${includes[@]}" -shared -o "$work/k.so" "$k" \
               -L"$prefix/lib64" -lnpuvp -Wl,--no-undefined 2>&1); then
      echo "$me: $k ($flags flags, old string ABI, linked with libnpuvp.so): FAILED"
      printf '%s\n' "$log" | head -n 30
      failed=$((failed + 1))
    fi
    checked=$((checked + 1))
  done
done
echo "$me: ${#headers[@]} headers, $checked compilations, $failed failed"
((failed == 0)) || { echo "$me: FAILED" >&2; exit 1; }
echo "$me: OK"
