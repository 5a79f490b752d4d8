// Local tensors at raw byte offsets, bypassing TPipe: error tests place operands exactly
// where a limit is (misaligned, past the end) without allocating them.
#pragma once
#include <cstdint>
#include "kernel_operator.h"

namespace npuvp::testing {

template <class T>
AscendC::LocalTensor<T> local_at(AscendC::TPosition position, uint64_t offset, uint32_t n) {
  return AscendC::LocalTensor<T>(position, offset, n);
}

template <class T>
AscendC::LocalTensor<T> ub_at(uint64_t offset, uint32_t n) {
  return local_at<T>(AscendC::TPosition::VECCALC, offset, n);
}

}  // namespace npuvp::testing
