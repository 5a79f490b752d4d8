// RmsNorm (asc-devkit docs/api RmsNorm.md; CANN 8.1 lib/normalization/rmsnorm.h): per row of
// H elements, rms = sqrt(rowsum(x * x) * (1 / H) + epsilon) and y = x / rms * gamma
// (ReduceSum count form; Muls by reciprocalOfHLength; Adds; Sqrt; Div; Mul). H is
// originalHLength; half is widened to float, y rounded to T once.
#pragma once
#include <type_traits>
#include "sw/ascendc/lib/lib_tiling_data.h"
#include "sw/ascendc/lib/normalization/norm_common.h"

namespace AscendC {

template <typename T, bool isBasicBlock = false>
void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<T>& gammaLocal,
             const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon, const RmsNormTiling& tiling) {
  namespace lib = npuvp::ascendc::lib;
  const char* api = "RmsNorm";
  lib::require_half_or_float<T>(api);
  const lib::NormShape s =
      lib::norm_shape<T>(tiling.bLength, tiling.sLength, tiling.hLength, tiling.originalHLength, api);
  lib::require_size(srcLocal, uint64_t(s.rows) * s.h, "srcLocal", api);
  lib::require_size(dstLocal, uint64_t(s.rows) * s.h, "dstLocal", api);
  lib::require_size(gammaLocal, s.h, "gammaLocal", api);
  lib::require_tmp(sharedTmpBuffer.GetSize(), npuvp::lib_tiling::rmsnorm_tmp_bytes(s.rows, s.h), api);

  const uint32_t r8 = (s.rows + 7) / 8 * 8;
  const LocalTensor<float> f = sharedTmpBuffer.ReinterpretCast<float>();
  const LocalTensor<float> rms = f, xw = f[r8], sq = f[r8 + s.h], gw = f[r8 + 2 * s.h], yw = f[r8 + 3 * s.h];
  const int32_t h = static_cast<int32_t>(s.h), valid = static_cast<int32_t>(s.valid);
  const int32_t rows = static_cast<int32_t>(s.rows);
  const float rec = tiling.reciprocalOfHLength != 0 ? tiling.reciprocalOfHLength : 1.0f / float(s.valid);
  const LocalTensor<float> g = lib::as_float(gammaLocal, gw, s.h);

  for (uint32_t r = 0; r < s.rows; ++r) {
    const LocalTensor<float> x = lib::as_float(srcLocal[r * s.h], xw, s.h);
    Mul(sq, x, x, h);
    ReduceSum(rms[r], sq, sq, valid);
  }
  Muls(rms, rms, rec, rows);
  Adds(rms, rms, static_cast<float>(epsilon), rows);
  Sqrt(rms, rms, rows);
  lib::wait_vector();
  for (uint32_t r = 0; r < s.rows; ++r) {
    const LocalTensor<float> x = lib::as_float(srcLocal[r * s.h], xw, s.h);
    const LocalTensor<float> y =
        std::is_same<T, float>::value ? dstLocal[r * s.h].template ReinterpretCast<float>() : yw;
    Duplicate(sq, rms.GetValue(r), h);
    Div(y, x, sq, h);
    Mul(y, y, g, h);
    if constexpr (!std::is_same<T, float>::value) lib::from_float(dstLocal[r * s.h], y, s.h);
  }
}

template <typename T, bool isBasicBlock = false>
void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<T>& gammaLocal,
             const T epsilon, const RmsNormTiling& tiling) {
  RmsNorm<T, isBasicBlock>(dstLocal, srcLocal, gammaLocal, npuvp::ascendc::lib::stack_buffer("RmsNorm"), epsilon,
                           tiling);
}

}  // namespace AscendC
