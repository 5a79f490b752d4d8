#!/usr/bin/env bash
# dram_bound.sh <npuvp>: relations between the L2, the DRAM channels and the summary's DRAM
# figure (issue 29), over several channel rates and L2 line sizes:
# - the achieved DRAM rate never exceeds the channels' peak (posted write-backs and fills that
#   end after the kernel count over the time they take, not over the kernel's);
# - every L2 fill reads its line from DRAM (DRAM bytes read >= fills x line size), and misses
#   without a fill are reported as whole-line writes.
set -uo pipefail
cli=$1
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
fail=0
check() {  # <kernel> <line bytes> <channel GB/s>
  local kernel=$1 line=$2 gbps=$3 out
  out=$("$cli" run "$kernel" -p ascend910b --mode perf -s l2.line_bytes="$line" -s dram.channel_gbps="$gbps" \
        --stats "$dir/s.json" 2>&1) || { echo "$out"; echo "FAIL: $kernel line=$line gbps=$gbps did not run"; fail=1; return; }
  LINE=$line OUT=$out /usr/bin/python3 - "$dir/s.json" <<'PY' || fail=1
import json, os, re, sys
out, line = os.environ["OUT"], int(os.environ["LINE"])
m = re.search(r"^DRAM: ([\d.]+) GB/s achieved of ([\d.]+) GB/s peak \(([\d.]+)%\)", out, re.M)
assert m, out
achieved, peak = float(m.group(1)), float(m.group(2))
def leaves(d, p=""):
    for k, v in d.items():
        if isinstance(v, dict): yield from leaves(v, p + k + ".")
        else: yield p + k, v
stats = dict(leaves(json.load(open(sys.argv[1]))))
fills = sum(v for k, v in stats.items() if re.fullmatch(r"soc\.l2_\d+\.fills", k))
misses = sum(v for k, v in stats.items() if re.fullmatch(r"soc\.l2_\d+\.misses", k))
dram_read = sum(v for k, v in stats.items() if re.fullmatch(r"soc\.dram\d+\.bytes_read", k))
problems = []
if achieved > peak: problems.append(f"achieved {achieved} GB/s > peak {peak} GB/s")
if dram_read < fills * line: problems.append(f"{fills} fills of {line} B but only {dram_read} DRAM bytes read")
if misses > fills and "misses were whole-line writes" not in out: problems.append("misses without fills not reported")
print(f"{os.environ.get('CASE', '')} achieved {achieved}/{peak} GB/s, fills {fills}, misses {misses}, DRAM read {dram_read}")
if problems:
    print(out); print("FAIL:", "; ".join(problems)); sys.exit(1)
PY
}
for kernel in matmul add; do
  for line in 128 256 512; do
    for gbps in 6.25 37.5 100; do
      echo -n "$kernel line=$line gbps=$gbps: "
      check "$kernel" "$line" "$gbps"
    done
  done
done
exit $fail
