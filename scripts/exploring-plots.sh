#!/bin/sh
# Regenerates docs/exploring.md's study and plots (docs/img/explore-*.png):
#   scripts/exploring-plots.sh [BUILD_DIR]   (default: build)
# The sweep resumes: a second call only redraws. Its results stay in BUILD_DIR/explore.sqlite.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
npuvp=$build/npuvp
img=$root/docs/img
results=$build/explore.sqlite
mkdir -p "$img"

"$npuvp" sweep "$root/examples/studies/explore.json" --results "$results"
"$npuvp" sweep --results "$results" --export csv > "$build/explore.csv"

"$npuvp" plot "$results" --x l2.line_bytes --y cycles --hue interconnect.link_bytes_per_cycle \
  --out "$img/explore-line-ring.png"
"$npuvp" plot "$results" --x dram.channel_gbps --y cycles --hue interconnect.link_bytes_per_cycle \
  --out "$img/explore-dram-ring.png"
"$npuvp" plot "$results" --x l2.line_bytes --y l2_hit_rate --hue workload --out "$img/explore-l2-hit.png"
"$npuvp" plot "$results" --kind roofline --out "$img/explore-roofline.png"

# One run's own plots: pipe time, roofline, utilisation over time (from its trace).
run_dir=$build/explore-run
"$npuvp" run matmul --platform ascend910b --mode perf --plot "$run_dir" > /dev/null
cp "$run_dir/utilisation.png" "$img/explore-matmul-utilisation.png"
cp "$run_dir/pipes.png" "$img/explore-matmul-pipes.png"
echo "plots: $img/explore-*.png"
