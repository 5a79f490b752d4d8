// ReduceXorSum (CANN 8.1 lib/reduce/reduce_xor_sum.h; hiascend.com Ascend C API "ReduceXorSum"):
// dst[0] = the sum over the first calCount elements of src0[i] ^ src1[i], int16_t, on the A2 and
// the 310P (__CCE_AICORE__ 220 / 200); a sum outside int16 is not guaranteed (the page says so).
// The steps of CANN's implementation, from our vector instructions:
//   x ^ y as (x | y) & ~(x & y) (Or, And, Not, And);
//   widened to float: A2 Cast int16 -> float; 310P int16 -> half -> float (the 310P has no
//   direct cast, so xor values beyond 2048 round to half first);
//   the count-form ReduceSum in float;
//   back to int16: A2 Cast float -> int16 CAST_ROUND; 310P float -> half (CAST_NONE), then
//   half -> int16 CAST_RINT.
// The temporary buffer: the xor (int16) and the widened values (float), 6 B per element
// (GetReduceXorSumMaxMinTmpSize); the xor's bytes are ReduceSum's work area once widened.
#pragma once
#include <type_traits>
#include "sw/ascendc/ascendc/vector_basic.h"
#include "sw/ascendc/lib/lib_common.h"

namespace AscendC {
namespace reduce_xor_sum_impl {
namespace lib = npuvp::ascendc::lib;

inline uint32_t tmp_bytes(uint32_t count) { return 6u * lib::round_up(count, 32); }

template <typename T>
void run(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
         const LocalTensor<uint8_t>& tmp, uint32_t calCount) {
  static_assert(std::is_same<T, int16_t>::value, "ReduceXorSum takes int16_t");
  const char* api = "ReduceXorSum";
  if (calCount == 0) npuvp::ascendc::api_fail(api, "calCount is 0");
  lib::require_size(src0, calCount, "src0Tensor", api);
  lib::require_size(src1, calCount, "src1Tensor", api);
  lib::require_size(dst, 16, "dstTensor (at least 32 B)", api);
  lib::require_tmp(tmp.GetSize(), tmp_bytes(calCount), api);
  const uint32_t split = lib::round_up(calCount, 32);
  const LocalTensor<int16_t> bothBits = tmp.ReinterpretCast<int16_t>();         // x & y, then ~(x & y)
  const LocalTensor<int16_t> xored = tmp[split * 2].ReinterpretCast<int16_t>();  // x | y, then x ^ y
  const LocalTensor<float> wide = tmp.ReinterpretCast<float>();                  // 4 B per element over both
  const int32_t n = static_cast<int32_t>(calCount);
  And(bothBits, src0, src1, n);
  Or(xored, src0, src1, n);
  Not(bothBits, bothBits, n);
  And(xored, bothBits, xored, n);
  const bool viaHalf = npuvp::ascendc::current_product() == npuvp::aicore::Product::Ascend310P;
  // The xor moves to the second part (split * 2 B on), the floats fill the first split * 4 B:
  // widen from the end of the buffer so no element is overwritten before it is read.
  const LocalTensor<float> sums = tmp[split * 4].ReinterpretCast<float>();  // ReduceSum's work (2 B per element)
  if (viaHalf) {
    const LocalTensor<half> h = xored.ReinterpretCast<half>();
    Cast(h, xored, RoundMode::CAST_NONE, n);
    Cast(wide, h, RoundMode::CAST_NONE, n);
  } else {
    Cast(wide, xored, RoundMode::CAST_NONE, n);
  }
  ReduceSum(wide, wide, sums, n);
  if (viaHalf) {
    const LocalTensor<half> h = sums.ReinterpretCast<half>();
    Cast(h, wide, RoundMode::CAST_NONE, 1);
    Cast(dst, h, RoundMode::CAST_RINT, 1);
  } else {
    Cast(dst, wide, RoundMode::CAST_ROUND, 1);
  }
}
}  // namespace reduce_xor_sum_impl

template <typename T, bool isReuseSource = false>
void ReduceXorSum(LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
                  LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
  reduce_xor_sum_impl::run(dstTensor, src0Tensor, src1Tensor, sharedTmpBuffer, calCount);
}
template <typename T, bool isReuseSource = false>
void ReduceXorSum(LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
                  const uint32_t calCount) {
  reduce_xor_sum_impl::run(dstTensor, src0Tensor, src1Tensor, npuvp::ascendc::lib::stack_buffer("ReduceXorSum"),
                           calCount);
}

}  // namespace AscendC
