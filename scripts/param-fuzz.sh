#!/bin/bash
# Usage: scripts/param-fuzz.sh <build-dir> [platform:kernel ...]
# Bad input must end in a clear error (exit 1 or 2) or a normal run, never a crash (a signal)
# or a hang. This gives
#   - every numeric parameter of each platform (as `npuvp info` lists them) the ends of its own
#     range (as info shows it), the values 0, -1, 1e30, 1e-20, 0.5, 3 and 2^32-1, and the
#     wrong types "abc", true, [1,2], {"a":1}, a value nested 100 000 levels deep and a
#     100 000-character token (all of them with NPUVP_FUZZ_FULL=1; in CI the range's ends and
#     one of the others, in turn across keys);
#   - each platform's config file mutated (truncated at several points, a byte flipped,
#     nested 100 000 levels, a key repeated) and a directory as the platform;
#   - MN-Core 2 assembly with out-of-range and malformed operands;
#   - ONNX models mutated (scripts/fuzz-onnx-models.py: damaged bytes, and with python3-onnx
#     well-formed models with one bad field) from the tests' small models and a few of ONNX's
#     node-test models;
#   - TIK: a small operator built with one argument replaced by a bad value and run with
#     start_debug under /usr/bin/python3 (scripts/fuzz-tik-case.py: a Python exception is the
#     clean ending; a crash of Python or of its simulation process is a crash), and its
#     recorded program (kernel_meta) truncated, byte-flipped and nested deep for `npuvp run`
#     (TIK needs the Python package built: <build-dir>/python);
# one run of the sample kernel each, in parallel on every host core (NPUVP_FUZZ_JOBS), under
# a memory ceiling (NPUVP_FUZZ_MEMORY_KB, virtual, default 8 GiB; GM is sized down so the
# ceiling measures the model) and a time limit (NPUVP_FUZZ_TIMEOUT s, default 60; 240 in a
# sanitized build), and prints every run that crashed or hung, then the counts. A ctest runs it
# (platforms.cli.no_parameter_value_crashes_or_hangs).
set -u
B=$1; shift
CASES=${*:-core910b:matmul ascend910b:matmul_softmax ascend910:matmul ascend310p:add minimal:add core910:conv2d mncore2:elementwise}
JOBS=${NPUVP_FUZZ_JOBS:-$(nproc)}
TIMEOUT=${NPUVP_FUZZ_TIMEOUT:-60}
MEMORY_KB=${NPUVP_FUZZ_MEMORY_KB:-8388608}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
NPUVP=$(cd "$B" && pwd)/npuvp
# A sanitized npuvp (NPUVP_SANITIZE=ON) cannot start under a virtual-memory ceiling (ASan
# reserves terabytes of address space for its shadow): the ceiling is then ASan's own limit on
# resident memory, and allocations it refuses throw std::bad_alloc as they would under ulimit.
SANITIZED=0
grep -q __asan_init "$NPUVP" 2>/dev/null && SANITIZED=1
# A sanitized run is several times slower: the same hang limit would call slow runs hung.
[ "$SANITIZED" = 1 ] && [ -z "${NPUVP_FUZZ_TIMEOUT:-}" ] && TIMEOUT=240
export NPUVP TIMEOUT MEMORY_KB SANITIZED

long_token=$(head -c 100000 /dev/zero | tr '\0' 'x')
deep_value=$(printf '%.0s[' $(seq 1 100000))
echo "$long_token" > "$work/long_token"
echo "$deep_value" > "$work/deep_value"

# One case per line: a tab-separated argument list for `npuvp run`.
cases=$work/cases
k=0
declare -A seen=()
full=${NPUVP_FUZZ_FULL:-0}
generic=(0 -1 1e30 1e-20 0.5 3 4294967295)
for c in $CASES; do
  P=${c%%:*}; K=${c#*:}
  gm=(); [ "$P" != mncore2 ] && gm=(-s gm.size=1GiB)
  while read -r key val lo hi; do
    case "$val" in \"*|true|false) continue;; esac
    # The bounded run (CI) tries a key on the first platform that has it, with its range's
    # ends and one of the 13 other values (generic and wrong types), each in turn across keys,
    # so every value still meets a share of the keys (two of them for a key without a range);
    # NPUVP_FUZZ_FULL=1 (nightly) tries every value and every wrong type on every platform.
    if [ "$full" != 1 ] && [ -n "${seen[$key]:-}" ]; then continue; fi
    seen[$key]=1
    wrong=(abc true '[1,2]' '{"a":1}' "@$work/long_token" "@$work/deep_value")
    others=("${generic[@]}" "${wrong[@]}")
    if [ "$full" = 1 ]; then
      values=("${others[@]}")
    elif [ -n "$lo" ]; then
      values=("${others[$((k % 13))]}")
    else
      values=("${others[$((k % 13))]}" "${others[$(((k + 6) % 13))]}")
    fi
    [ -n "$lo" ] && values+=("$lo" "$hi")
    k=$((k + 1))
    for v in "${values[@]}"; do
      printf '%s\t' run "$K" -p "$P" "${gm[@]}" -s "$key=$v"; printf '\n'
    done
  done < <("$B/npuvp" info "$P" | awk 'NF >= 3 && $1 ~ /\./ {
             lo = ""; hi = ""
             if (match($0, /\[range [^ ]+ \.\. [^ ]+\]$/)) { split(substr($0, RSTART + 7, RLENGTH - 8), r, " "); lo = r[1]; hi = r[3] }
             print $1, $2, lo, hi }')
  # The platform's own file, mutated.
  src=$("$B/npuvp" info "$P" | sed -n '1s/^platform [^ ]* (\([^)]*\)).*/\1/p')
  if [ -f "$src" ]; then
    size=$(wc -c < "$src")
    for cut in 1 7 $((size / 3)) $((size / 2)) $((size - 2)); do
      head -c "$cut" "$src" > "$work/$P.cut$cut.json"
      printf '%s\t' run "$K" -p "$work/$P.cut$cut.json"; printf '\n'
    done
    for at in 3 $((size / 4)) $((size / 2)); do
      /usr/bin/python3 -c 'import sys; d=bytearray(open(sys.argv[1],"rb").read()); d[int(sys.argv[2])]^=0x5a; open(sys.argv[3],"wb").write(d)' \
        "$src" "$at" "$work/$P.flip$at.json"
      printf '%s\t' run "$K" -p "$work/$P.flip$at.json"; printf '\n'
    done
    { printf '{"x":'; printf '%.0s{"a":' $(seq 1 100000); printf '1'; printf '%.0s}' $(seq 1 100000); printf '}'; } > "$work/$P.deep.json"
    printf '%s\t' run "$K" -p "$work/$P.deep.json"; printf '\n'
    /usr/bin/python3 -c 'import sys; t=open(sys.argv[1]).read(); i=t.index("{")+1; j=t.index(",")+1; open(sys.argv[2],"w").write(t[:i]+t[i:j]+t[i:])' \
      "$src" "$work/$P.dup.json" 2>/dev/null && { printf '%s\t' run "$K" -p "$work/$P.dup.json"; printf '\n'; }
  fi
done > "$cases"
{ printf '%s\t' run add -p "$work"; printf '\n'; } >> "$cases"
# MN-Core 2 assembly: immediates and operands out of range or malformed.
n=0
for line in 'nop' 'imm 4294967296 $lr0' 'imm -2147483649 $lr0' 'imm 99999999999999999999 $lr0' 'imm 0x1ffffffff $lr0' \
            'iadd $lr0 $lr99999 $lr0' 'iadd $lr0' 'mmacc' '$$$$' 'imm 1 $lm0v[99999999]' "$long_token"; do
  printf '%s\n' "$line" > "$work/asm$n.s"
  { printf '%s\t' run "$work/asm$n.s"; printf '\n'; } >> "$cases"
  n=$((n + 1))
done

# ONNX models: every model of the tests' generator (tests/onnx/make_models.py, with Debian's
# python3-onnx) and a few of ONNX's node tests, each mutated; 2 variants per model in CI, 40
# with NPUVP_FUZZ_FULL=1.
src_dir=$(cd "$(dirname "$0")/.." && pwd)
onnx_models=()
if /usr/bin/python3 "$src_dir/tests/onnx/make_models.py" "$work/onnx_src" > /dev/null 2>&1; then
  onnx_models+=("$work"/onnx_src/*.onnx)
fi
for t in test_conv_with_strides_padding test_softmax_example test_matmul_2d test_maxpool_2d_default test_gemm_default_no_bias; do
  [ -f "/usr/share/libonnx-testdata/data/node/$t/model.onnx" ] && onnx_models+=("/usr/share/libonnx-testdata/data/node/$t/model.onnx")
done
if [ ${#onnx_models[@]} -gt 0 ]; then
  /usr/bin/python3 "$src_dir/scripts/fuzz-onnx-models.py" "$work/onnx" "$([ "$full" = 1 ] && echo 40 || echo 2)" "${onnx_models[@]}"
  for m in "$work"/onnx/*.onnx; do
    { printf '%s\t' run "$m" --mode perf; printf '\n'; } >> "$cases"
  done
fi
# TIK (needs the Python package in <build-dir>/python): argument cases (one per argument in CI,
# rotating the bad value; all with NPUVP_FUZZ_FULL=1), then the recorded program, mutated.
# Not in a sanitized build: its extension needs the ASan runtime preloaded into Python.
PYDIR=$(cd "$B" && pwd)/python
export PYDIR src_dir
if [ "$SANITIZED" = 0 ] && ls "$PYDIR"/npuvp/_core*.so > /dev/null 2>&1; then
  tik_cases=$(/usr/bin/python3 "$src_dir/scripts/fuzz-tik-case.py" --count)
  bad_values=15  # len(BAD) in fuzz-tik-case.py
  for ((i = 0; i < tik_cases; i++)); do
    arg=$((i / bad_values)); value=$((i % bad_values))
    if [ "$full" = 1 ] || [ "$value" -eq $(((arg * 4) % bad_values)) ]; then printf 'tik\t%s\n' "$i"; fi
  done >> "$cases"
  # The program the case with no bad argument records (index of sid=0: the operator as written).
  if (cd "$work" && PYTHONPATH="$PYDIR" /usr/bin/python3 -c '
import numpy as np, os
from tbe import tik
from tbe.common.platform import set_current_compile_soc_info
set_current_compile_soc_info("Ascend910")
t = tik.Tik()
x = t.Tensor("float32", (4, 64), name="x", scope=tik.scope_gm)
y = t.Tensor("float32", (4, 64), name="y", scope=tik.scope_gm)
with t.for_range(0, 4, block_num=4) as b:
    xu = t.Tensor("float32", (64,), name="xu", scope=tik.scope_ubuf)
    t.data_move(xu, x[b, 0], 0, 1, 8, 0, 0)
    t.vec_muls(64, xu, xu, 2.0, 1, 8, 8)
    t.data_move(y[b, 0], xu, 0, 1, 8, 0, 0)
t.BuildCCE("small", [x], [y])
os.makedirs("tikdata", exist_ok=True)
np.save("tikdata/x.npy", np.ones((4, 64), np.float32))' > /dev/null 2>&1); then
    /usr/bin/python3 - "$work/kernel_meta" <<'PYEOF'
import json, os, sys
d = sys.argv[1]
program = open(os.path.join(d, "small.o"), "rb").read()
meta = json.load(open(os.path.join(d, "small.json")))
variants = {"cut%d" % n: program[:n] for n in (1, len(program) // 3, len(program) - 2)}
for at in (5, len(program) // 4, len(program) // 2, 3 * len(program) // 4):
    b = bytearray(program); b[at] ^= 0x5A; variants["flip%d" % at] = bytes(b)
head = program[: program.index(b'"body":')]
loop = b'{"k":"for","s":0,"loop":0,"b":0,"e":1,"block_num":1,"thread_num":1,"loc":"x","body":['
variants["deep_loops"] = head + b'"body":[' + loop * 20000 + b']}' * 20000 + b']}'
variants["deep_expr"] = program.replace(b'["*",["s",0],64]', b'["+",' * 100000 + b'0' + b',1]' * 100000, 1)
for name, text in variants.items():
    open(os.path.join(d, name + ".o"), "wb").write(text)
    meta["npuvp"]["program"] = name + ".o"
    json.dump(meta, open(os.path.join(d, name + ".json"), "w"))
PYEOF
    for m in "$work"/kernel_meta/*.json; do
      [ "$(basename "$m")" = small.json ] && continue
      { printf '%s\t' run "$m" --data "$work/tikdata"; printf '\n'; } >> "$cases"
    done
  fi
fi

# Runs one case; prints "HUNG ..." or "CRASHED ..." if it was one. "@file" values are read
# from the file (too long for a command line to show). A "tik N" case runs TIK argument case N
# under Python in a scratch folder (its exit status 125: the simulation process died).
run_case() {
  IFS=$'\t' read -r -a args <<< "$1"
  if [ "${args[0]}" = tik ]; then
    dir=$(mktemp -d)
    out=$(cd "$dir" && PYTHONPATH="$PYDIR" exec timeout "$TIMEOUT" /usr/bin/python3 "$src_dir/scripts/fuzz-tik-case.py" "${args[1]}" 2>&1); rc=$?
    rm -rf "$dir"
    if [ $rc -ne 0 ]; then
      echo "$([ $rc -eq 124 ] && echo HUNG || echo "CRASHED rc=$rc"): tik case ${args[1]} :: $(echo "$out" | tail -1 | cut -c1-200)"
    fi
    return
  fi
  for i in "${!args[@]}"; do
    case "${args[$i]}" in *=@/*) key=${args[$i]%%=@*}; args[$i]="$key=$(cat "${args[$i]#*=@}")";; esac
  done
  if [ "$SANITIZED" = 1 ]; then
    out=$( (export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}allocator_may_return_null=1:hard_rss_limit_mb=$((MEMORY_KB / 1024))"
            exec timeout "$TIMEOUT" "$NPUVP" "${args[@]}") 2>&1 ); rc=$?
  else
    out=$( (ulimit -v "$MEMORY_KB"; exec timeout "$TIMEOUT" "$NPUVP" "${args[@]}") 2>&1 ); rc=$?
  fi
  # A sanitizer's report is a crash whatever the exit status (ASan exits 1, as a clear error does).
  report=$(grep -m1 -E 'ERROR: (Address|Leak)Sanitizer|runtime error:' <<< "$out")
  if [ $rc -ge 124 ] || [ -n "$report" ]; then
    echo "$([ $rc -eq 124 ] && echo HUNG || echo "CRASHED rc=$rc"): npuvp $(echo "$1" | tr '\t' ' ' | cut -c1-200) :: $( (echo "$out" | tail -1; echo "$report") | cut -c1-160 | tr '\n' ' ')"
  fi
}
export -f run_case
results=$work/results
tr '\n' '\0' < "$cases" | xargs -0 -P "$JOBS" -I{} bash -c 'run_case "$1"' _ {} > "$results"
runs=$(wc -l < "$cases")
hung=$(grep -c '^HUNG' "$results")
crashed=$(grep -c '^CRASHED' "$results")
cat "$results"
echo "param-fuzz: $runs runs, $crashed crashed, $hung hung"
[ "$hung" -eq 0 ] && [ "$crashed" -eq 0 ]
