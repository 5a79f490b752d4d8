// Pad and UnPad (asc-devkit docs/api Pad.md, UnPad.md; CANN 8.1 lib/pad/pad.h) of a 2-D
// [height, width] tensor along the width, on the right only (leftPad is documented as not yet
// in effect; a non-zero one is an error here):
//   Pad, width not 32 B aligned: dst [height, width + rightPad], each row the src row then
//     rightPad copies of padValue; width + rightPad must be 32 B aligned.
//   Pad, width 32 B aligned with srcOriWidth valid columns: dst [height, width], columns
//     [srcOriWidth, width) set to padValue, the rest copied; rightPad = width - srcOriWidth.
//   UnPad, width 32 B aligned: dst [height, width - rightPad], rows packed back to back.
// rightPad is below 32 B (and above 0 for UnPad). padValue (int32_t) is converted to T by
// value. The rows are moved by Gather with byte offsets the scalar unit writes into the
// temporary buffer (one pass at a time, tiling rows per pass), the pad columns by a bit-mask
// Duplicate, so bits of the data are unchanged.
#pragma once
#include <cstring>
#include <type_traits>
#include "sw/ascendc/ascendc/vector_basic.h"
#include "sw/ascendc/lib/lib_common.h"
#include "sw/ascendc/lib/lib_tiling_data.h"

namespace AscendC {

struct PadParams {
  PadParams() {}
  PadParams(const uint16_t leftPadIn, const uint16_t rightPadIn, const int32_t padValueIn)
      : leftPad(leftPadIn), rightPad(rightPadIn), padValue(padValueIn) {}
  uint16_t leftPad = 0;
  uint16_t rightPad = 0;
  int32_t padValue = 0;
};

struct UnPadParams {
  UnPadParams() {}
  UnPadParams(const uint16_t leftPadIn, const uint16_t rightPadIn) : leftPad(leftPadIn), rightPad(rightPadIn) {}
  uint16_t leftPad = 0;
  uint16_t rightPad = 0;
};

namespace pad_impl {
namespace lib = npuvp::ascendc::lib;

template <typename T>
using Bits = std::conditional_t<sizeof(T) == 2, uint16_t, uint32_t>;

template <typename T>
Bits<T> pad_bits(int32_t padValue) {
  T v;
  if constexpr (std::is_integral<T>::value) {
    v = static_cast<T>(padValue);
  } else {
    v = static_cast<T>(static_cast<float>(padValue));
  }
  Bits<T> b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

[[noreturn]] inline void fail(const char* api, const char* fmt, uint32_t a = 0, uint32_t b = 0, uint32_t c = 0) {
  char why[240];
  std::snprintf(why, sizeof why, fmt, a, b, c);
  npuvp::ascendc::api_fail(api, why);
}

// Columns [width - count, width) of `rows` rows of `width` elements (width a whole number of
// blocks, count below one block) set to `value`: one bit-mask Duplicate per up to 255 rows.
template <typename U>
void fill_row_tails(const LocalTensor<U>& dst, uint32_t rows, uint32_t width, uint32_t count, U value) {
  constexpr uint32_t be = lib::block_elems<U>();
  if (count == 0 || rows == 0) return;
  uint64_t mask[2] = {0, 0};
  for (uint32_t i = be - count; i < be; ++i) mask[0] |= uint64_t(1) << i;
  const uint32_t strideBlocks = width / be;
  if (strideBlocks <= 255) {
    for (uint32_t r0 = 0; r0 < rows; r0 += 255) {
      const uint32_t n = rows - r0 < 255 ? rows - r0 : 255;
      Duplicate(dst[r0 * width + width - be], value, mask, n, 1, static_cast<uint8_t>(strideBlocks));
    }
  } else {
    for (uint32_t r = 0; r < rows; ++r) Duplicate(dst[r * width + width - be], value, mask, 1, 1, 8);
  }
}

// dst rows (dstWidth apart) from src rows (srcWidth apart), the first `take` elements of each,
// `rowsPerPass` rows per Gather; pass starts stay 32 B aligned in dst by the caller's choice.
template <typename U>
void gather_rows(const LocalTensor<U>& dst, const LocalTensor<U>& src, const LocalTensor<uint8_t>& tmp,
                 uint32_t rows, uint32_t srcWidth, uint32_t dstWidth, uint32_t take, uint32_t rowsPerPass) {
  LocalTensor<uint32_t> offsets = tmp.ReinterpretCast<uint32_t>();
  lib::wait_vector();  // the temporary buffer may still be read by earlier vector work
  for (uint32_t r = 0; r < rowsPerPass; ++r)
    for (uint32_t c = 0; c < dstWidth; ++c)
      offsets.SetValue(r * dstWidth + c, (r * srcWidth + (c < take ? c : take - 1)) * uint32_t(sizeof(U)));
  for (uint32_t r0 = 0; r0 < rows; r0 += rowsPerPass) {
    const uint32_t n = rows - r0 < rowsPerPass ? rows - r0 : rowsPerPass;
    Gather(dst[r0 * dstWidth], src, offsets, r0 * srcWidth * uint32_t(sizeof(U)), n * dstWidth);
  }
}

template <typename T>
void pad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const PadParams& p,
         const LocalTensor<uint8_t>& tmp, const tiling::PadTiling& t) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Pad: 16- or 32-bit elements");
  using U = Bits<T>;
  const char* api = "Pad";
  constexpr uint32_t be = lib::block_elems<T>();
  const uint32_t h = t.srcHeight, w = t.srcWidth, ow = t.srcOriWidth, rp = p.rightPad;
  if (h == 0 || w == 0) fail(api, "the tiling's shape [%u, %u] is empty (PadTilingFunc not run?)", h, w);
  if (p.leftPad != 0) fail(api, "leftPad = %u: only right padding is supported", p.leftPad);
  if (rp * sizeof(T) >= 32) fail(api, "rightPad = %u elements is not below 32 B", rp);
  const LocalTensor<U> dst = dstTensor.template ReinterpretCast<U>();
  const LocalTensor<U> src = srcTensor.template ReinterpretCast<U>();
  const U value = pad_bits<T>(p.padValue);
  if (w % be == 0) {
    if (ow >= w || ow + rp != w)
      fail(api, "width %u is 32 B aligned: srcOriWidth (%u) + rightPad (%u) must equal it", w, ow, rp);
    lib::require_size(srcTensor, uint64_t(h) * w, "srcTensor", api);
    lib::require_size(dstTensor, uint64_t(h) * w, "dstTensor", api);
    if (dst.GetPhyAddr() != src.GetPhyAddr()) Copy(dst, src, h * w);
    fill_row_tails(dst, h, w, rp, value);
    return;
  }
  const uint32_t dw = w + rp;
  if (dw % be != 0) fail(api, "width %u + rightPad %u = %u elements is not 32 B aligned", w, rp, dw);
  if (ow != w) fail(api, "width %u is not 32 B aligned, so srcOriWidth (%u) must equal it", w, ow);
  const uint32_t rowsPerPass = t.heightTiling;
  if (rowsPerPass == 0)
    fail(api, "the tiling has 0 rows per pass: PadTilingFunc's stackBufferSize is below GetPadMaxMinTmpSize's minimum");
  lib::require_size(srcTensor, uint64_t(h) * w, "srcTensor", api);
  lib::require_size(dstTensor, uint64_t(h) * dw, "dstTensor", api);
  lib::require_tmp(tmp.GetSize(), npuvp::lib_tiling::pad_offsets_bytes(rowsPerPass < h ? rowsPerPass : h, dw), api);
  gather_rows(dst, src, tmp, h, w, dw, w, rowsPerPass < h ? rowsPerPass : h);
  fill_row_tails(dst, h, dw, rp, value);
}

template <typename T>
void unpad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const UnPadParams& p,
           const LocalTensor<uint8_t>& tmp, const tiling::UnPadTiling& t) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "UnPad: 16- or 32-bit elements");
  using U = Bits<T>;
  const char* api = "UnPad";
  constexpr uint32_t be = lib::block_elems<T>();
  const uint32_t h = t.srcHeight, w = t.srcWidth, rp = p.rightPad;
  if (h == 0 || w == 0) fail(api, "the tiling's shape [%u, %u] is empty (UnPadTilingFunc not run?)", h, w);
  if (p.leftPad != 0) fail(api, "leftPad = %u: only right unpadding is supported", p.leftPad);
  if (w % be != 0) fail(api, "width %u elements is not 32 B aligned", w);
  if (rp == 0 || rp * sizeof(T) >= 32 || rp >= w)
    fail(api, "rightPad = %u: it must be above 0, below 32 B and below the width %u", rp, w);
  const uint32_t ow = w - rp;
  uint32_t rowsPerPass = t.tmpBuffer1RowNum < h ? t.tmpBuffer1RowNum : h;
  if (rowsPerPass == 0)
    fail(api, "the tiling has 0 rows per pass: UnPadTilingFunc's stackBufferSize is below GetUnPadMaxMinTmpSize's minimum");
  if (rowsPerPass < h && rowsPerPass * ow % be != 0)
    fail(api, "a pass of %u rows of %u elements does not end 32 B aligned", rowsPerPass, ow);
  lib::require_size(srcTensor, uint64_t(h) * w, "srcTensor", api);
  lib::require_size(dstTensor, uint64_t(h) * ow, "dstTensor", api);
  lib::require_tmp(tmp.GetSize(), npuvp::lib_tiling::pad_offsets_bytes(rowsPerPass, ow), api);
  gather_rows(dstTensor.template ReinterpretCast<U>(), srcTensor.template ReinterpretCast<U>(), tmp, h, w, ow, ow,
              rowsPerPass);
}
}  // namespace pad_impl

template <typename T>
void Pad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PadParams& padParams,
         const LocalTensor<uint8_t>& sharedTmpBuffer, PadTiling& tiling) {
  pad_impl::pad(dstTensor, srcTensor, padParams, sharedTmpBuffer, tiling);
}
template <typename T>
void Pad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PadParams& padParams, PadTiling& tiling) {
  pad_impl::pad(dstTensor, srcTensor, padParams, npuvp::ascendc::lib::stack_buffer("Pad"), tiling);
}
template <typename T>
void UnPad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, UnPadParams& unPadParams,
           LocalTensor<uint8_t>& sharedTmpBuffer, UnPadTiling& tiling) {
  pad_impl::unpad(dstTensor, srcTensor, unPadParams, sharedTmpBuffer, tiling);
}
template <typename T>
void UnPad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, UnPadParams& unPadParams,
           UnPadTiling& tiling) {
  pad_impl::unpad(dstTensor, srcTensor, unPadParams, npuvp::ascendc::lib::stack_buffer("UnPad"), tiling);
}

}  // namespace AscendC
