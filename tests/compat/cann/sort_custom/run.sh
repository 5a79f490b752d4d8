#!/bin/bash
# Builds and runs the project as CANN's kernel-launch samples do:
#   bash run.sh -r cpu|sim|npu -v <SoC name> [-i <CANN path>]
set -e
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$here"

RUN_MODE=sim
SOC_VERSION=Ascend910B1
while getopts "r:v:i:" opt; do
  case $opt in
    r) RUN_MODE=$OPTARG ;;
    v) SOC_VERSION=$OPTARG ;;
    i) CANN_PATH=$OPTARG ;;
    *) echo "usage: run.sh -r cpu|sim|npu -v <SoC name> [-i <CANN path>]" >&2; exit 2 ;;
  esac
done
CANN_PATH=${CANN_PATH:-${ASCEND_HOME_PATH:-$HOME/Ascend/ascend-toolkit/latest}}
case $SOC_VERSION in
  Ascend910A|Ascend910B|Ascend910ProA|Ascend910ProB|Ascend910PremiumA) SOC_DIR=Ascend910A ;;
  Ascend310P1|Ascend310P3) SOC_DIR=Ascend310P1 ;;
  Ascend910B1|Ascend910B2|Ascend910B3|Ascend910B4) SOC_DIR=Ascend910B1 ;;
  *) echo "run.sh: unsupported SoC $SOC_VERSION" >&2; exit 2 ;;
esac

if [ "$RUN_MODE" = sim ]; then
  export LD_LIBRARY_PATH=$CANN_PATH/runtime/lib64/stub${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
source "$CANN_PATH/bin/setenv.bash"
export LD_LIBRARY_PATH=$here/out/lib:$here/out/lib64:$CANN_PATH/tools/tikicpulib/lib:$CANN_PATH/tools/tikicpulib/lib/$SOC_DIR:$CANN_PATH/tools/simulator/$SOC_VERSION/lib:$LD_LIBRARY_PATH

rm -rf build out input output
cmake -B build -DRUN_MODE="$RUN_MODE" -DSOC_VERSION="$SOC_VERSION" -DASCEND_CANN_PACKAGE_PATH="$CANN_PATH"
cmake --build build -j
cmake --install build
mkdir -p input output
python3 scripts/gen_data.py
./out/bin/ascendc_kernels_bbit
python3 scripts/verify_result.py output
