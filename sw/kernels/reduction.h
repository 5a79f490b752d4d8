// Shared by the vector kernels: the scalar unit reads a reduction's result once the vector
// unit has written it (a V->S flag pair orders the two).
#pragma once
#include "kernel_operator.h"

namespace npuvp::kernels {

inline float read_reduction(const AscendC::LocalTensor<float>& result) {
  AscendC::SetFlag<AscendC::HardEvent::V_S>(EVENT_ID0);
  AscendC::WaitFlag<AscendC::HardEvent::V_S>(EVENT_ID0);
  return result.GetValue(0);
}

}  // namespace npuvp::kernels
