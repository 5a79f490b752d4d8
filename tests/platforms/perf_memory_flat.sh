#!/usr/bin/env bash
# perf_memory_flat.sh <npuvp> <kernel> <platform> <scale>: perf mode moves no data, so a
# sample's peak resident memory must not grow with --scale (issue 29: matmul on ascend910b at
# --scale 16 took 1.8 GB for inputs, GM copies and a read-back result no one looked at).
# Runs the sample at --scale 1 and at <scale> and requires the larger run's peak to stay within
# NPUVP_FLAT_SLACK_MB (default 32 MiB) of the smaller one's, while the data it would have
# held is far larger (the script prints both peaks).
set -uo pipefail
npuvp=$1; kernel=$2; platform=$3; scale=$4
slack_mb=${NPUVP_FLAT_SLACK_MB:-32}
/usr/bin/python3 - "$npuvp" "$kernel" "$platform" "$scale" "$slack_mb" <<'EOF'
import os, subprocess, sys

npuvp, kernel, platform, scale, slack_mb = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])

def peak_kib(s):
    """Runs the sample at --scale s in perf mode; returns its peak resident set in KiB."""
    args = [npuvp, "run", kernel, "-p", platform, "--mode", "perf", "--scale", str(s),
            "--set", "sim.progress_seconds=1000"]
    child = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = child.stdout.read().decode(errors="replace")
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0 or "result: NOT CHECKED" not in out:
        sys.exit(f"perf_memory_flat: {' '.join(args)} exited {child.returncode}:\n{out}")
    return usage.ru_maxrss  # KiB on Linux

small, large = peak_kib(1), peak_kib(scale)
print(f"{kernel} on {platform}, perf mode: peak RSS {small / 1024:.1f} MiB at --scale 1, "
      f"{large / 1024:.1f} MiB at --scale {scale}")
if large > small + slack_mb * 1024:
    sys.exit(f"perf_memory_flat: --scale {scale} took {(large - small) / 1024:.1f} MiB more than --scale 1 "
             f"(allowed {slack_mb} MiB): perf mode holds data it never reads")
EOF
