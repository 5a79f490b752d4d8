// The one implementation behind SoftMax, SimpleSoftMax, SoftmaxFlash and SoftmaxFlashV2
// (lib/activation/softmax.h ...): rows of the [m, k] tensor, in passes of as many rows as the
// temporary buffer holds, with the documented algorithm of each (asc-devkit docs/api
// SoftMax.md, SimpleSoftMax.md, SoftmaxFlash.md, SoftmaxFlashV2.md):
//   row max (ReduceMax over the valid oriSrcK elements), x - max (Sub of the max broadcast
//   over the row), exp (Exp), row sum (ReduceSum, count form), then y / sum (Div).
// half inputs are widened to float (Cast) and every step runs in float; results are rounded
// to half once at the end. max and sum (and expMax) are written broadcast over one 32 B block
// per row: [m, 32 / sizeof(U)]. The flash updates combine those per-row blocks with vector
// Max/Sub/Exp/Mul/Add/Div in the documented order.
//
// Temporary buffer (float): per row 16 (reduction results) + 5 x 16 (the max, sum, expMax and
// the widened inMax/inSum blocks) + k (the broadcast row) + k more for half (the widened row).
#pragma once
#include <type_traits>
#include "sw/ascendc/lib/lib_common.h"
#include "sw/ascendc/lib/lib_tiling_data.h"
#include "sw/ascendc/lib/activation/softmax_utils.h"

namespace npuvp::ascendc::lib {

enum class SoftmaxKind { Softmax, Simple, Flash, FlashV2 };

using npuvp::lib_tiling::kSoftmaxStatFloats;
using npuvp::lib_tiling::softmax_row_bytes;

struct SoftmaxShape {
  uint32_t m = 0, k = 0, valid = 0;
};

template <typename T>
SoftmaxShape softmax_shape(const SoftMaxTiling& tiling, const AscendC::SoftMaxShapeInfo& info,
                           const AscendC::SoftmaxConfig& config, const char* api) {
  SoftmaxShape s;
  s.m = info.srcM ? info.srcM : tiling.srcM;
  s.k = info.srcK ? info.srcK : tiling.srcK;
  s.valid = config.oriSrcK ? config.oriSrcK : (info.oriSrcK ? info.oriSrcK : s.k);
  char why[200];
  if (s.m == 0 || s.k == 0) {
    api_fail(api, "the shape is empty: pass a SoftMaxShapeInfo, or a tiling from SoftMaxTilingFunc");
  }
  if (s.k * sizeof(T) % 32 != 0) {
    std::snprintf(why, sizeof why, "srcK = %u elements is not 32 B aligned (the last axis must be padded to 32 B)", s.k);
    api_fail(api, why);
  }
  if (s.valid > s.k) {
    std::snprintf(why, sizeof why, "oriSrcK = %u exceeds srcK = %u", s.valid, s.k);
    api_fail(api, why);
  }
  return s;
}

// The stat block of rows [r0, r0 + rows) of `in` (U) as float: `in` itself or widened into `f`.
template <typename U>
AscendC::LocalTensor<float> stat_as_float(const AscendC::LocalTensor<U>& in, const AscendC::LocalTensor<float>& f,
                                          uint32_t r0, uint32_t rows) {
  constexpr uint32_t sb = block_elems<U>();
  return as_float(in[r0 * sb], f, rows * sb);
}

// T: src/dst; U: max and sum (in and out); E: expMax.
template <SoftmaxKind kind, typename T, typename U, typename E>
void softmax_rows(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& sumOut,
                  const AscendC::LocalTensor<U>& maxOut, const AscendC::LocalTensor<T>& src,
                  const AscendC::LocalTensor<E>& expMaxOut, const AscendC::LocalTensor<U>& inSum,
                  const AscendC::LocalTensor<U>& inMax, const AscendC::LocalTensor<uint8_t>& tmp,
                  const SoftMaxTiling& tiling, const AscendC::SoftMaxShapeInfo& info,
                  const AscendC::SoftmaxConfig& config, bool update, bool writeStats, const char* api) {
  using namespace AscendC;
  require_half_or_float<T>(api);
  require_half_or_float<U>(api);
  const SoftmaxShape s = softmax_shape<T>(tiling, info, config, api);
  constexpr uint32_t sb = block_elems<U>();
  const bool readsStats = kind == SoftmaxKind::Simple || update;
  require_size(src, uint64_t(s.m) * s.k, "srcTensor", api);
  require_size(dst, uint64_t(s.m) * s.k, "dstTensor", api);
  if (writeStats) {
    require_size(maxOut, uint64_t(s.m) * sb, "maxTensor", api);
    require_size(sumOut, uint64_t(s.m) * sb, "sumTensor", api);
  }
  if (readsStats) {
    require_size(inMax, uint64_t(s.m) * sb, "inMaxTensor", api);
    require_size(inSum, uint64_t(s.m) * sb, "inSumTensor", api);
  }
  if (update) require_size(expMaxOut, uint64_t(s.m) * block_elems<E>(), "expMaxTensor", api);

  const uint32_t rowBytes = softmax_row_bytes(s.k, sizeof(T));
  require_tmp(tmp.GetSize(), rowBytes, api);
  uint32_t passRows = tmp.GetSize() / rowBytes;
  if (tiling.srcK == s.k && tiling.splitM != 0 && tiling.splitM < passRows) passRows = tiling.splitM;
  if (passRows > s.m) passRows = s.m;

  const LocalTensor<float> f = tmp.ReinterpretCast<float>();
  const int32_t valid = static_cast<int32_t>(s.valid);
  for (uint32_t r0 = 0; r0 < s.m; r0 += passRows) {
    const uint32_t rows = r0 + passRows <= s.m ? passRows : s.m - r0;
    const uint32_t n = rows * s.k;
    const int32_t ns = static_cast<int32_t>(rows * sb);
    // The pass's regions (offsets in floats, each 64 B aligned).
    const LocalTensor<float> red = f;
    const LocalTensor<float> st0 = f[passRows * 16];  // max
    const LocalTensor<float> st1 = f[passRows * 32];  // sum
    const LocalTensor<float> st2 = f[passRows * 48];  // inMax widened
    const LocalTensor<float> st3 = f[passRows * 64];  // inSum widened
    const LocalTensor<float> ex = f[passRows * 80];   // expMax
    const LocalTensor<float> bc = f[passRows * kSoftmaxStatFloats];
    const LocalTensor<float> wide = f[passRows * (kSoftmaxStatFloats + s.k)];
    LocalTensor<float> xin, y;
    if constexpr (std::is_same<T, float>::value) {
      xin = src[r0 * s.k];
      y = dst[r0 * s.k];
    } else {
      xin = as_float(src[r0 * s.k], wide, n);
      y = wide;
    }

    // max = rowmax(x) (flash update: max(rowmax(x), inMax)), or the given inMax.
    LocalTensor<float> mx = st0;
    if constexpr (kind == SoftmaxKind::Simple) {
      mx = stat_as_float(inMax, st2, r0, rows);
    } else {
      for (uint32_t r = 0; r < rows; ++r) ReduceMax(red[r * 16], xin[r * s.k], bc[r * s.k], valid);
      wait_vector();
      for (uint32_t r = 0; r < rows; ++r) Duplicate(st0[r * sb], red.GetValue(r * 16), static_cast<int32_t>(sb));
      if (update) Max(st0, st0, stat_as_float(inMax, st2, r0, rows), ns);
    }
    // y = exp(x - max)
    wait_vector();
    for (uint32_t r = 0; r < rows; ++r) Duplicate(bc[r * s.k], mx.GetValue(r * sb), static_cast<int32_t>(s.k));
    Sub(y, xin, bc, static_cast<int32_t>(n));
    Exp(y, y, static_cast<int32_t>(n));

    // sum = rowsum(y) (flash update: expMax * inSum + rowsum(y), expMax = exp(inMax - max)).
    LocalTensor<float> sm = st1;
    if constexpr (kind == SoftmaxKind::Simple) {
      sm = stat_as_float(inSum, st3, r0, rows);
    } else {
      for (uint32_t r = 0; r < rows; ++r) ReduceSum(red[r * 16], y[r * s.k], bc[r * s.k], valid);
      wait_vector();
      for (uint32_t r = 0; r < rows; ++r) Duplicate(st1[r * sb], red.GetValue(r * 16), static_cast<int32_t>(sb));
      if (update) {
        const LocalTensor<float> im = stat_as_float(inMax, st2, r0, rows);
        const LocalTensor<float> is = stat_as_float(inSum, st3, r0, rows);
        Sub(ex, im, st0, ns);
        Exp(ex, ex, ns);
        Mul(red, ex, is, ns);
        Add(st1, red, st1, ns);
        if constexpr (kind == SoftmaxKind::Flash) {
          // SoftmaxFlash's expMax output: expMax * inSum / sum.
          Mul(ex, ex, is, ns);
          Div(ex, ex, st1, ns);
        }
      }
    }
    // y = y / sum (all but SoftmaxFlashV2, whose dst is exp(x - max)).
    if constexpr (kind != SoftmaxKind::FlashV2) {
      wait_vector();
      for (uint32_t r = 0; r < rows; ++r) Duplicate(bc[r * s.k], sm.GetValue(r * sb), static_cast<int32_t>(s.k));
      Div(y, y, bc, static_cast<int32_t>(n));
    }

    if constexpr (!std::is_same<T, float>::value) from_float(dst[r0 * s.k], y, n);
    if (writeStats) {
      from_float(maxOut[r0 * sb], st0, rows * sb);
      from_float(sumOut[r0 * sb], st1, rows * sb);
    }
    if (update) {
      if constexpr (sizeof(E) == sizeof(U)) {
        from_float(expMaxOut[r0 * sb], ex, rows * sb);
      } else {
        // half expMax beside float max/sum: one 32 B block of 16 per row from the float's 8.
        constexpr uint32_t eb = block_elems<E>();
        wait_vector();
        for (uint32_t r = 0; r < rows; ++r) {
          Duplicate(expMaxOut[(r0 + r) * eb], static_cast<E>(ex.GetValue(r * sb)), static_cast<int32_t>(eb));
        }
      }
    }
  }
}

}  // namespace npuvp::ascendc::lib
