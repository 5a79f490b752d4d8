// DropOut (asc-devkit docs/api DropOut.md; CANN 8.1 lib/filter/dropout.h): srcLocal
// [firstAxis, srcLastAxis] filtered by maskLocal, kept elements divided by keepProb:
//   byte mode (maskLastAxis == srcLastAxis): one uint8 0/1 per element,
//       dst = (src / keepProb) * mask             (Cast u8 -> f16 (-> f32), Div, Mul)
//   bit mode (maskLastAxis * 8 == srcLastAxis): bit i % 8 of byte i / 8 per element,
//       dst = bit ? src / keepProb : 0            (Div, then Select with the scalar 0)
// dropOutMode 0 picks the mode from the shapes (the other values are not modelled). The
// division is in float (half widened first, rounded once). Temporary buffer: 14 B per element
// of a chunk of 256 (so at least 3584 B).
#pragma once
#include <type_traits>
#include "sw/ascendc/lib/lib_common.h"

namespace AscendC {

struct DropOutShapeInfo {
  uint32_t firstAxis = 0;
  uint32_t srcLastAxis = 0;
  uint32_t maskLastAxis = 0;
};

template <typename T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
void DropOut(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<uint8_t>& maskLocal,
             const LocalTensor<uint8_t>& sharedTmpBuffer, const float keepProb, const DropOutShapeInfo& info) {
  namespace lib = npuvp::ascendc::lib;
  const char* api = "DropOut";
  lib::require_half_or_float<T>(api);
  char why[200];
  if (dropOutMode != 0) {
    std::snprintf(why, sizeof why, "dropOutMode %u is not modelled (0 picks byte or bit mode from the shapes)",
                  dropOutMode);
    npuvp::ascendc::api_fail(api, why);
  }
  const uint32_t n = info.firstAxis * info.srcLastAxis;
  const bool byteMode = info.maskLastAxis == info.srcLastAxis;
  if (n == 0 || (!byteMode && info.maskLastAxis * 8 != info.srcLastAxis) || !(keepProb > 0.0f && keepProb <= 1.0f)) {
    std::snprintf(why, sizeof why,
                  "DropOutShapeInfo{%u, %u, %u}, keepProb %g: maskLastAxis must be srcLastAxis (bytes) or "
                  "srcLastAxis / 8 (bits), keepProb in (0, 1]",
                  info.firstAxis, info.srcLastAxis, info.maskLastAxis, static_cast<double>(keepProb));
    npuvp::ascendc::api_fail(api, why);
  }
  lib::require_size(srcLocal, n, "srcLocal", api);
  lib::require_size(dstLocal, n, "dstLocal", api);
  lib::require_size(maskLocal, byteMode ? n : n / 8, "maskLocal", api);
  lib::require_tmp(sharedTmpBuffer.GetSize(), 14 * 256, api);
  const uint32_t chunk = sharedTmpBuffer.GetSize() / 14 / 256 * 256;
  const LocalTensor<float> y = sharedTmpBuffer.ReinterpretCast<float>();
  const LocalTensor<float> prob = sharedTmpBuffer[chunk * 4].ReinterpretCast<float>();
  const LocalTensor<float> maskF = sharedTmpBuffer[chunk * 8].ReinterpretCast<float>();
  const LocalTensor<half> maskH = sharedTmpBuffer[chunk * 12].ReinterpretCast<half>();
  for (uint32_t i = 0; i < n; i += chunk) {
    const uint32_t c = n - i < chunk ? n - i : chunk;
    const int32_t ci = static_cast<int32_t>(c);
    const LocalTensor<float> x = lib::as_float(srcLocal[i], y, c);
    Duplicate(prob, keepProb, ci);
    Div(y, x, prob, ci);
    if (byteMode) {
      Cast(maskH, maskLocal[i], RoundMode::CAST_NONE, c);
      Cast(maskF, maskH, RoundMode::CAST_NONE, c);
      Mul(y, y, maskF, ci);
      lib::from_float(dstLocal[i], y, c);
    } else {
      lib::from_float(dstLocal[i], y, c);
      Select(dstLocal[i], maskLocal[i / 8], dstLocal[i], static_cast<T>(0.0f),
             SELMODE::VSEL_TENSOR_SCALAR_MODE, c);
    }
  }
}

template <typename T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
void DropOut(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<uint8_t>& maskLocal,
             const float keepProb, const DropOutShapeInfo& info) {
  DropOut<T, isInitBitMode, dropOutMode>(dstLocal, srcLocal, maskLocal, npuvp::ascendc::lib::stack_buffer("DropOut"),
                                         keepProb, info);
}

}  // namespace AscendC
