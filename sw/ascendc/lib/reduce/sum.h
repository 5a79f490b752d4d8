// Sum and Mean over the last axis (asc-devkit docs/api Sum.md, Mean.md): srcTensor is
// [outter, inner] (inner padded to 32 B), the first n of each row are summed; dstTensor[row]
// gets the row's sum, or the sum divided by n (Mean). Each row is one count-form ReduceSum in
// float (a tree per 64 elements, then the repeats in order; half widened first), Mean then a
// Div by n; the results are rounded to T once. Temporary buffer: 2 x 64 floats (the sums and
// divisors of a group of 64 rows) + the first n of a row, to 32 B, in float (the widened row
// for half; ReduceSum's work).
#pragma once
#include <type_traits>
#include "sw/ascendc/lib/lib_common.h"
#include "sw/ascendc/lib/lib_tiling_data.h"

namespace AscendC {

struct SumParams {
  uint32_t outter = 1;
  uint32_t inner = 0;
  uint32_t n = 0;
};
struct MeanParams {
  uint32_t outter = 1;
  uint32_t inner = 0;
  uint32_t n = 0;
};

}  // namespace AscendC

namespace npuvp::ascendc::lib {

template <typename T>
void row_sums(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
              const AscendC::LocalTensor<uint8_t>& tmp, uint32_t outter, uint32_t inner, uint32_t n, bool mean,
              const char* api) {
  using namespace AscendC;
  require_half_or_float<T>(api);
  char why[200];
  if (outter == 0 || inner == 0 || inner * sizeof(T) % 32 != 0 || n == 0 || n > inner) {
    std::snprintf(why, sizeof why, "{outter %u, inner %u, n %u}: inner must be 32 B aligned, 0 < n <= inner", outter,
                  inner, n);
    api_fail(api, why);
  }
  require_size(src, uint64_t(outter) * inner, "srcTensor", api);
  require_size(dst, outter, "dstTensor", api);
  // Only the first n of a row (to 32 B) are read, so the temporary depends on n alone, as
  // GetSumMaxMinTmpSize / GetMeanMaxMinTmpSize say.
  require_tmp(tmp.GetSize(), npuvp::lib_tiling::row_reduce_tmp_bytes_for_row(n, sizeof(T)), api);
  const uint32_t span = (n + block_elems<T>() - 1) / block_elems<T>() * block_elems<T>();
  // Rows in groups of kRowReduceGroup (the temporary does not grow with outter); each group's
  // results are rounded to T once, into dst[group start] (32 B aligned for half and float).
  const uint32_t group = npuvp::lib_tiling::kRowReduceGroup;
  const LocalTensor<float> f = tmp.ReinterpretCast<float>();
  const LocalTensor<float> sums = f, divisor = f[group], work = f[2 * group];
  for (uint32_t first = 0; first < outter; first += group) {
    const uint32_t rows = outter - first < group ? outter - first : group;
    for (uint32_t r = 0; r < rows; ++r) {
      ReduceSum(sums[r], as_float(src[(first + r) * inner], work, span), work, static_cast<int32_t>(n));
    }
    if (mean) {
      Duplicate(divisor, static_cast<float>(n), static_cast<int32_t>(rows));
      Div(sums, sums, divisor, static_cast<int32_t>(rows));
    }
    from_float(dst[first], sums, rows);
  }
}

}  // namespace npuvp::ascendc::lib

namespace AscendC {

template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
         const SumParams& sumParams) {
  npuvp::ascendc::lib::row_sums(dstTensor, srcTensor, sharedTmpBuffer, sumParams.outter, sumParams.inner, sumParams.n,
                                false, "Sum");
}
template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const SumParams& sumParams) {
  Sum<T, reduceDim, isReuseSource, isBasicBlock>(dstTensor, srcTensor, npuvp::ascendc::lib::stack_buffer("Sum"),
                                                 sumParams);
}

}  // namespace AscendC
