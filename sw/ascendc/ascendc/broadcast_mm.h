// BroadCastVecToMM (asc-devkit docs/api: BroadCastVecToMM(ISASI)): a vector in UB broadcast into
// L0C as 16 x 16 fractals of equal rows, e.g. a bias row for every row of a matrix in NZ. Atlas
// inference AI Core (310P) only; one vector-pipe instruction.
#pragma once
#include <type_traits>
#include "sw/ascendc/ascendc/data_copy.h"

namespace npuvp::ascendc {
void broadcast_vec_to_mm(CopyEnd dst, CopyEnd src, aicore::DType type, int32_t block_count, uint32_t block_len,
                         uint32_t src_gap, uint32_t dst_gap);
}  // namespace npuvp::ascendc

namespace AscendC {

// blockCount blocks of blockLen x 16 elements; each 16 elements of a block become 16 rows of
// dst. srcGap: 32 B units between src blocks; dstGap: 256-element units between dst blocks.
template <typename T, typename U>
void BroadCastVecToMM(const LocalTensor<T>& dst, const LocalTensor<U>& src, const int32_t blockCount,
                      const uint8_t blockLen, const uint8_t srcGap, const uint8_t dstGap) {
  static_assert(std::is_same<T, U>::value, "BroadCastVecToMM: src and dst have one element type");
  npuvp::ascendc::broadcast_vec_to_mm(npuvp::ascendc::end_of(dst), npuvp::ascendc::end_of(src),
                                      npuvp::ascendc::DTypeOf<T>::value, blockCount, blockLen, srcGap, dstGap);
}

}  // namespace AscendC
