#!/usr/bin/env bash
# A compiler/linker launcher that records the CPU seconds each step costs (user + system of
# the compiler and everything it starts), for measuring where build time goes on a shared
# machine, where wall times are noise. Lines "<user> <sys> <wall> <output file>" are appended
# to cpu-times.log in the build directory (the working directory of every Ninja/Make step).
# Use: cmake -G Ninja -B build-measure \
#        -DCMAKE_CXX_COMPILER_LAUNCHER=$PWD/scripts/cpu-time-launcher.sh \
#        -DCMAKE_CXX_LINKER_LAUNCHER=$PWD/scripts/cpu-time-launcher.sh
# then scripts/cpu-time-report.py build-measure/cpu-times.log (docs/performance.md).
out=unknown
prev=
for arg in "$@"; do
  [[ $prev == -o ]] && out=$arg
  prev=$arg
done
log=${NPUVP_CPU_LOG:-$PWD/cpu-times.log}
exec /usr/bin/time -q -a -o "$log" -f "%U %S %e $out" "$@"
