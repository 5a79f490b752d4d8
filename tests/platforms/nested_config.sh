#!/usr/bin/env bash
# nested_config.sh <npuvp>: JSON nested in objects, arrays and both mixed, at depths around
# the limit (64) and far beyond it, in platform files (under a known key, an unknown key, at the
# top) and in --set values of a known and an unknown key. Every run must end in a clear error
# (exit 1 or 2, "npuvp: error: ..." naming the file or key), never a crash; past the limit the
# error says how deep (issue 29: a deeply nested config file segfaulted the flattener).
set -uo pipefail
npuvp=$1
src=$(cd "$(dirname "$0")/../.." && pwd)/platforms/configs/minimal.json
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
failed=0
# nest DEPTH SHAPE: a value DEPTH levels deep; SHAPE obj, arr or mixed ({"a":[{"a":[...).
nest() {
  /usr/bin/python3 -c '
import sys
d, shape = int(sys.argv[1]), sys.argv[2]
opens = ["{\"a\":" if shape == "obj" or (shape == "mixed" and i % 2 == 0) else "[" for i in range(d)]
closes = ["}" if o.startswith("{") else "]" for o in reversed(opens)]
sys.stdout.write("".join(opens) + "1" + "".join(closes))' "$1" "$2"
}
check() {  # check WHAT DEPTH ARGS...: runs npuvp ARGS, requires a clear error
  local what=$1 depth=$2; shift 2
  out=$("$npuvp" "$@" 2>&1); status=$?
  if [[ $status -ne 1 && $status -ne 2 ]] || ! grep -q '^npuvp: error: ' <<<"$out"; then
    echo "nested_config.sh: $what, depth $depth: exit $status: $(tail -1 <<<"$out" | cut -c1-200)"; failed=1
  elif [[ $depth -gt 64 ]] && ! grep -q 'nested more than 64 levels deep' <<<"$out"; then
    echo "nested_config.sh: $what, depth $depth: the error does not name the depth: $(tail -1 <<<"$out" | cut -c1-200)"; failed=1
  fi
}
for shape in obj arr mixed; do
  for depth in 63 64 65 1000 100000; do
    v=$(nest "$depth" "$shape")
    printf '%s' "$v" > "$dir/top.json"
    /usr/bin/python3 -c 'import sys; t=open(sys.argv[1]).read(); v=open(sys.argv[2]).read()
open(sys.argv[3],"w").write(t.replace("\"cores\": 8", "\"cores\": " + v, 1))
open(sys.argv[4],"w").write(t.replace("\"platform\": {", "\"zzz\": " + v + ", \"platform\": {", 1))' \
      "$src" "$dir/top.json" "$dir/known.json" "$dir/unknown.json"
    # The file's own nesting adds levels: two under platform.cores, one under a top-level key.
    check "$shape under a known key in a file" $((depth + 2)) run add -p "$dir/known.json"
    check "$shape under an unknown key in a file" $((depth + 1)) run add -p "$dir/unknown.json"
    check "$shape at the top of a file" "$depth" run add -p "$dir/top.json"
    # A command line argument holds at most 128 KiB.
    if [[ ${#v} -lt 120000 ]]; then
      check "$shape as --set value of a known key" "$depth" run add -s "platform.cores=$v"
      check "$shape as --set value of an unknown key" "$depth" run add -s "no.such_key=$v"
    fi
  done
done
[[ $failed -eq 0 ]] && echo "nested_config.sh: every nested input ended in a clear error"
exit $failed
