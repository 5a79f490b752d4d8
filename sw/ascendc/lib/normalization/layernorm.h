// LayerNorm, the [B, S, H] form (asc-devkit docs/api LayerNorm.md; CANN 8.1
// lib/normalization/layernorm.h): per row of H elements,
//   mean = rowsum(x) * (1 / H)            (ReduceSum, count form; Muls by lastDimValueBack)
//   variance = rowsum((x - mean)^2) * (1 / H)
//   y = (x - mean) / sqrt(variance + epsilon) * gamma + beta
// H is originalHLength (the valid part of the padded hLength row). half is widened to float
// and every step runs in float; y, mean and variance are rounded to T once at the end.
// outputMean / outputVariance are [B, S] (one element per row, not broadcast).
#pragma once
#include <type_traits>
#include "sw/ascendc/lib/lib_tiling_data.h"
#include "sw/ascendc/lib/normalization/norm_common.h"

namespace AscendC {

template <typename T, bool isReuseSource = false>
void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean, const LocalTensor<T>& outputVariance,
               const LocalTensor<T>& inputX, const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
               const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon, LayerNormTiling& tiling) {
  namespace lib = npuvp::ascendc::lib;
  const char* api = "LayerNorm";
  lib::require_half_or_float<T>(api);
  const lib::NormShape s =
      lib::norm_shape<T>(tiling.bLength, tiling.sLength, tiling.hLength, tiling.originalHLength, api);
  lib::require_size(inputX, uint64_t(s.rows) * s.h, "inputX", api);
  lib::require_size(output, uint64_t(s.rows) * s.h, "output", api);
  lib::require_size(gamma, s.h, "gamma", api);
  lib::require_size(beta, s.h, "beta", api);
  lib::require_size(outputMean, s.rows, "outputMean", api);
  lib::require_size(outputVariance, s.rows, "outputVariance", api);
  lib::require_tmp(sharedTmpBuffer.GetSize(), npuvp::lib_tiling::layernorm_tmp_bytes(s.rows, s.h), api);

  const uint32_t r8 = (s.rows + 7) / 8 * 8;
  const LocalTensor<float> f = sharedTmpBuffer.ReinterpretCast<float>();
  const LocalTensor<float> mean = f, var = f[r8], sd = f[2 * r8];
  const LocalTensor<float> xw = f[3 * r8], dev = f[3 * r8 + s.h], sq = f[3 * r8 + 2 * s.h];
  const LocalTensor<float> gw = f[3 * r8 + 3 * s.h], bw = f[3 * r8 + 4 * s.h];
  const int32_t h = static_cast<int32_t>(s.h), valid = static_cast<int32_t>(s.valid);
  const int32_t rows = static_cast<int32_t>(s.rows);
  const float rec = tiling.lastDimValueBack != 0 ? tiling.lastDimValueBack : 1.0f / float(s.valid);
  const LocalTensor<float> g = lib::as_float(gamma, gw, s.h);
  const LocalTensor<float> b = lib::as_float(beta, bw, s.h);

  // mean
  for (uint32_t r = 0; r < s.rows; ++r) ReduceSum(mean[r], lib::as_float(inputX[r * s.h], xw, s.h), sq, valid);
  Muls(mean, mean, rec, rows);
  lib::wait_vector();
  // variance
  for (uint32_t r = 0; r < s.rows; ++r) {
    Adds(dev, lib::as_float(inputX[r * s.h], xw, s.h), -mean.GetValue(r), h);
    Mul(sq, dev, dev, h);
    ReduceSum(var[r], sq, sq, valid);
  }
  Muls(var, var, rec, rows);
  Adds(sd, var, static_cast<float>(epsilon), rows);
  Sqrt(sd, sd, rows);
  lib::wait_vector();
  // y
  for (uint32_t r = 0; r < s.rows; ++r) {
    const LocalTensor<float> y = std::is_same<T, float>::value ? output[r * s.h].template ReinterpretCast<float>() : dev;
    Adds(y, lib::as_float(inputX[r * s.h], xw, s.h), -mean.GetValue(r), h);
    Duplicate(sq, sd.GetValue(r), h);
    Div(y, y, sq, h);
    Mul(y, y, g, h);
    Add(y, y, b, h);
    if constexpr (!std::is_same<T, float>::value) lib::from_float(output[r * s.h], y, s.h);
  }
  lib::from_float(outputMean, mean, s.rows);
  lib::from_float(outputVariance, var, s.rows);
}

template <typename T, bool isReuseSource = false>
void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean, const LocalTensor<T>& outputVariance,
               const LocalTensor<T>& inputX, const LocalTensor<T>& gamma, const LocalTensor<T>& beta, const T epsilon,
               LayerNormTiling& tiling) {
  LayerNorm<T, isReuseSource>(output, outputMean, outputVariance, inputX, gamma, beta,
                              npuvp::ascendc::lib::stack_buffer("LayerNorm"), epsilon, tiling);
}

}  // namespace AscendC
