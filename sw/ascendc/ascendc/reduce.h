// The reductions under their other names (issue 22): PairReduceSum and RepeatReduceSum of
// CANN 8.x, and the names CANN 9.1 gives the per-repeat, per-block and per-pair reductions
// (ReduceRepeat, ReduceDataBlock, ReducePairElem; docs/zh/api/附录/接口变更说明.md of the
// Ascend C reference). All of them are the instructions of vector.h, so they share its
// numeric contract (docs/vector-isa.md §3.4).
#pragma once
#include <type_traits>
#include "sw/ascendc/ascendc/vector.h"

namespace AscendC {

// Which reduction the CANN 9.1 names compute.
enum class ReduceType { SUM = 0, MAX, MIN };

// ---- PairReduceSum: dst[k] = src[2k] + src[2k+1] within each repeat; a repeat's results
// are 128 B, dstRepStride counts in them (PairReduceSum.md).

template <typename T, bool isSetMask = true>
void PairReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                   const uint64_t mask[], const int32_t dstRepStride, const int32_t srcBlkStride,
                   const int32_t srcRepStride) {
  detail::reduce_repeats(npuvp::aicore::VecOp::PairReduceSum, dst, src, npuvp::ascendc::mask_arg(mask),
                         isSetMask, repeatTime, dstRepStride, srcBlkStride, srcRepStride,
                         ReduceOrder::ORDER_ONLY_VALUE);
}
template <typename T, bool isSetMask = true>
void PairReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                   const int32_t mask, const int32_t dstRepStride, const int32_t srcBlkStride,
                   const int32_t srcRepStride) {
  detail::reduce_repeats(npuvp::aicore::VecOp::PairReduceSum, dst, src,
                         npuvp::ascendc::mask_arg(static_cast<uint64_t>(mask)), isSetMask, repeatTime,
                         dstRepStride, srcBlkStride, srcRepStride, ReduceOrder::ORDER_ONLY_VALUE);
}

// ---- RepeatReduceSum: WholeReduceSum with a continuous mask only; dstBlkStride has no
// effect (RepeatReduceSum.md).

template <typename T, bool isSetMask = true>
void RepeatReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                     const int32_t mask, const int32_t dstBlkStride, const int32_t srcBlkStride,
                     const int32_t dstRepStride, const int32_t srcRepStride) {
  (void)dstBlkStride;
  detail::reduce_repeats(npuvp::aicore::VecOp::WholeReduceSum, dst, src,
                         npuvp::ascendc::mask_arg(static_cast<uint64_t>(mask)), isSetMask, repeatTime,
                         dstRepStride, srcBlkStride, srcRepStride, ReduceOrder::ORDER_ONLY_VALUE);
}

// ---- CANN 9.1 names. T is dst's type, U src's; the modelled products need them equal.

namespace detail {
template <ReduceType type>
constexpr npuvp::aicore::VecOp repeat_reduce_op() {
  return type == ReduceType::SUM ? npuvp::aicore::VecOp::WholeReduceSum
         : type == ReduceType::MAX ? npuvp::aicore::VecOp::WholeReduceMax
                                   : npuvp::aicore::VecOp::WholeReduceMin;
}
template <ReduceType type>
constexpr npuvp::aicore::VecOp block_reduce_op() {
  return type == ReduceType::SUM ? npuvp::aicore::VecOp::BlockReduceSum
         : type == ReduceType::MAX ? npuvp::aicore::VecOp::BlockReduceMax
                                   : npuvp::aicore::VecOp::BlockReduceMin;
}
// ReduceRepeat's order has no effect on a sum (ReduceRepeat.md).
template <ReduceType type>
constexpr ReduceOrder repeat_reduce_order(ReduceOrder order) {
  return type == ReduceType::SUM ? ReduceOrder::ORDER_ONLY_VALUE : order;
}
}  // namespace detail

#define NPUVP_SAME_REDUCE_TYPES(NAME)                                                          \
  static_assert(std::is_same<T, U>::value, NAME ": dst and src must have the same type on the " \
                                                "modelled products")

template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
void ReduceRepeat(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint64_t mask[],
                  const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                  const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX) {
  NPUVP_SAME_REDUCE_TYPES("ReduceRepeat");
  detail::reduce_repeats(detail::repeat_reduce_op<reduceType>(), dst, src, npuvp::ascendc::mask_arg(mask),
                         isSetMask, repeatTime, dstRepStride, srcBlkStride, srcRepStride,
                         detail::repeat_reduce_order<reduceType>(order));
}
template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
void ReduceRepeat(const LocalTensor<T>& dst, const LocalTensor<U>& src, const int32_t mask,
                  const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                  const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX) {
  NPUVP_SAME_REDUCE_TYPES("ReduceRepeat");
  detail::reduce_repeats(detail::repeat_reduce_op<reduceType>(), dst, src,
                         npuvp::ascendc::mask_arg(static_cast<uint64_t>(mask)), isSetMask, repeatTime,
                         dstRepStride, srcBlkStride, srcRepStride,
                         detail::repeat_reduce_order<reduceType>(order));
}

template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
void ReduceDataBlock(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint64_t mask[],
                     const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                     const int32_t srcRepStride) {
  NPUVP_SAME_REDUCE_TYPES("ReduceDataBlock");
  detail::reduce_repeats(detail::block_reduce_op<reduceType>(), dst, src, npuvp::ascendc::mask_arg(mask),
                         isSetMask, repeatTime, dstRepStride, srcBlkStride, srcRepStride,
                         ReduceOrder::ORDER_ONLY_VALUE);
}
template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
void ReduceDataBlock(const LocalTensor<T>& dst, const LocalTensor<U>& src, const int32_t mask,
                     const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                     const int32_t srcRepStride) {
  NPUVP_SAME_REDUCE_TYPES("ReduceDataBlock");
  detail::reduce_repeats(detail::block_reduce_op<reduceType>(), dst, src,
                         npuvp::ascendc::mask_arg(static_cast<uint64_t>(mask)), isSetMask, repeatTime,
                         dstRepStride, srcBlkStride, srcRepStride, ReduceOrder::ORDER_ONLY_VALUE);
}

template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
void ReducePairElem(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint64_t mask[],
                    const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                    const int32_t srcRepStride) {
  NPUVP_SAME_REDUCE_TYPES("ReducePairElem");
  static_assert(reduceType == ReduceType::SUM, "ReducePairElem supports ReduceType::SUM only");
  PairReduceSum<T, isSetMask>(dst, src, repeatTime, mask, dstRepStride, srcBlkStride, srcRepStride);
}
template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
void ReducePairElem(const LocalTensor<T>& dst, const LocalTensor<U>& src, const int32_t mask,
                    const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                    const int32_t srcRepStride) {
  NPUVP_SAME_REDUCE_TYPES("ReducePairElem");
  static_assert(reduceType == ReduceType::SUM, "ReducePairElem supports ReduceType::SUM only");
  PairReduceSum<T, isSetMask>(dst, src, repeatTime, mask, dstRepStride, srcBlkStride, srcRepStride);
}

#undef NPUVP_SAME_REDUCE_TYPES

}  // namespace AscendC
