// Mean over the last axis (asc-devkit docs/api Mean.md): the row sums of sum.h divided by n.
#pragma once
#include "sw/ascendc/lib/reduce/sum.h"

namespace AscendC {

template <typename T, typename accType = T, bool isReuseSource = false, bool isBasicBlock = false,
          int32_t reduceDim = -1>
void Mean(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
          const MeanParams& meanParams) {
  npuvp::ascendc::lib::row_sums(dstTensor, srcTensor, sharedTmpBuffer, meanParams.outter, meanParams.inner,
                                meanParams.n, true, "Mean");
}
template <typename T, typename accType = T, bool isReuseSource = false, bool isBasicBlock = false,
          int32_t reduceDim = -1>
void Mean(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const MeanParams& meanParams) {
  Mean<T, accType, isReuseSource, isBasicBlock, reduceDim>(dstTensor, srcTensor,
                                                           npuvp::ascendc::lib::stack_buffer("Mean"), meanParams);
}

}  // namespace AscendC
