// ConfusionTranspose (CANN 8.1 lib/transpose/confusion_transpose.h; hiascend.com Ascend C API
// "ConfusionTranspose" / "Transpose", atlasascendc_api_07_0865): moves the elements of a UB
// tensor into another layout, in the seven scenarios the page numbers (transposeType):
//   1 NZ2ND_0213          [B, N, S, H/N] as B*N NZ matrices [S, H/N] -> ND [B, S, N, H/N]
//   2 NZ2NZ_0213          same source                               -> B*S NZ matrices [N, H/N]
//   3 NZ2NZ_012_WITH_N    B NZ matrices [S, H]                       -> B*N NZ matrices [S, H/N]
//   4 NZ2ND_012_WITH_N    B NZ matrices [S, H]                       -> ND [B, N, S, H/N]
//   5 NZ2ND_012_WITHOUT_N B*N NZ matrices [S, H/N]                   -> ND [B, S, H]
//   6 NZ2NZ_012_WITHOUT_N B*N NZ matrices [S, H/N]                   -> B NZ matrices [S, H]
//   7 ND2ND_ONLY          ND [H, W]                                  -> ND [W, H]
// An NZ matrix [R, C] stores column blocks of 16 one after another, each R rows of 16 elements:
// element (r, c) at (c / 16) * R * 16 + r * 16 + c % 16 (the page's shape [C/16, R/16, 16, 16]).
// CANN builds these from TransDataTo5HD and DataCopy; here every destination element is taken
// by Gather from the source byte offset the scalar unit computes (one pass of offsets at a time
// in the temporary buffer), so the bits are moved unchanged, as CANN's moves are.
#pragma once
#include <algorithm>
#include <type_traits>
#include "sw/ascendc/ascendc/debug.h"
#include "sw/ascendc/ascendc/vector_basic.h"
#include "sw/ascendc/lib/lib_common.h"
#include "sw/ascendc/lib/lib_tiling_data.h"

namespace AscendC {

// The reshape kinds (CANN's kernel_struct_transpose.h). ConfusionTranspose takes the seven
// scenarios; the others are not modelled (an error).
enum class TransposeType : uint8_t {
  TRANSPOSE_TYPE_NONE,
  TRANSPOSE_NZ2ND_0213,
  TRANSPOSE_NZ2NZ_0213,
  TRANSPOSE_NZ2NZ_012_WITH_N,
  TRANSPOSE_NZ2ND_012_WITH_N,
  TRANSPOSE_NZ2ND_012_WITHOUT_N,
  TRANSPOSE_NZ2NZ_012_WITHOUT_N,
  TRANSPOSE_ND2ND_ONLY,
  TRANSPOSE_ND_UB_GM,
  TRANSPOSE_GRAD_ND_UB_GM,
  TRANSPOSE_ND2ND_B16,
  TRANSPOSE_NCHW2NHWC,
  TRANSPOSE_NHWC2NCHW
};

namespace confusion_transpose_impl {
namespace lib = npuvp::ascendc::lib;

struct Shape {
  uint32_t b, n, s, hn;
};

// The source element index of destination element `i` (see the table above).
inline uint32_t source_of(uint32_t type, const Shape& t, uint32_t i) {
  const uint32_t b = t.b, N = t.n, S = t.s, hn = t.hn, H = N * hn;
  (void)b;
  // Element (s, d) of the NZ matrix [S, cols] that starts at `base`.
  auto nz = [S](uint32_t base, uint32_t s, uint32_t d) { return base + (d / 16) * S * 16 + s * 16 + d % 16; };
  switch (type) {
    case 1: {  // dst ND [B, S, N, hn]
      const uint32_t d = i % hn, n = (i / hn) % N, s = (i / H) % S, bb = i / (H * S);
      return nz((bb * N + n) * S * hn, s, d);
    }
    case 2: {  // dst: per (b, s) an NZ matrix [N, hn]
      const uint32_t bs = i / H, r = i % H;
      const uint32_t j = r / (N * 16), n = (r % (N * 16)) / 16, d = j * 16 + r % 16;
      const uint32_t s = bs % S, bb = bs / S;
      return nz((bb * N + n) * S * hn, s, d);
    }
    case 3: {  // dst: per (b, n) an NZ matrix [S, hn]
      const uint32_t bn = i / (S * hn), r = i % (S * hn);
      const uint32_t d = (r / (S * 16)) * 16 + r % 16, s = (r % (S * 16)) / 16;
      const uint32_t n = bn % N, bb = bn / N;
      return nz(bb * S * H, s, n * hn + d);
    }
    case 4: {  // dst ND [B, N, S, hn]
      const uint32_t d = i % hn, s = (i / hn) % S, n = (i / (hn * S)) % N, bb = i / (S * H);
      return nz(bb * S * H, s, n * hn + d);
    }
    case 5: {  // dst ND [B, S, H]
      const uint32_t c = i % H, s = (i / H) % S, bb = i / (S * H);
      return nz((bb * N + c / hn) * S * hn, s, c % hn);
    }
    case 6: {  // dst: per b an NZ matrix [S, H]
      const uint32_t bb = i / (S * H), r = i % (S * H);
      const uint32_t c = (r / (S * 16)) * 16 + r % 16, s = (r % (S * 16)) / 16;
      return nz((bb * N + c / hn) * S * hn, s, c % hn);
    }
    default: {  // 7: dst ND [W, H] from src ND [H, W] (s = H, hn = W)
      const uint32_t h = i % S, w = i / S;
      return h * hn + w;
    }
  }
}

[[noreturn]] inline void fail(const char* fmt, uint32_t a = 0, uint32_t b = 0, uint32_t c = 0) {
  char why[240];
  std::snprintf(why, sizeof why, fmt, a, b, c);
  npuvp::ascendc::api_fail("ConfusionTranspose", why);
}

template <typename T>
void run(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& tmp,
         TransposeType transposeType, const tiling::ConfusionTransposeTiling& tiling) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4,
                "ConfusionTranspose: int16_t, uint16_t, half, int32_t, uint32_t or float");
  using U = std::conditional_t<sizeof(T) == 2, uint16_t, uint32_t>;
  const uint32_t type = static_cast<uint32_t>(transposeType);
  if (type < 1 || type > 7)
    fail("transposeType %u is not one of the seven scenarios (TRANSPOSE_NZ2ND_0213 .. TRANSPOSE_ND2ND_ONLY)", type);
  if (tiling.param4 != type)
    fail("the tiling was made for scenario %u, the call asks for %u (GetConfusionTransposeTilingInfo's transposeTypeIn)",
         tiling.param4, type);
  const Shape t{tiling.param0, tiling.param1, tiling.param2, tiling.param3};
  const uint32_t total = tiling.param6;
  if (total == 0 || uint64_t(t.b) * t.n * t.s * t.hn != total)
    fail("the tiling's shape is empty or inconsistent (GetConfusionTransposeTilingInfo not run on a valid shape?)");
  if (type != 7 && t.hn % 16 != 0)
    fail("H/N = %u is not a multiple of 16 (NZ fractals of 16 columns)", t.hn);
  lib::require_size(srcTensor, total, "srcTensor", "ConfusionTranspose");
  lib::require_size(dstTensor, total, "dstTensor", "ConfusionTranspose");
  const uint64_t s0 = srcTensor.GetPhyAddr(), d0 = dstTensor.GetPhyAddr(), bytes = uint64_t(total) * sizeof(T);
  if (s0 < d0 + bytes && d0 < s0 + bytes) fail("dstTensor and srcTensor overlap: the layouts need separate tensors");
  const uint32_t g = npuvp::lib_tiling::kTransposePassGranule;
  uint32_t pass = tmp.GetSize() / 4u / g * g;
  if (pass >= total) pass = total;
  if (pass < total && pass < npuvp::lib_tiling::kTransposeMinPass)
    lib::require_tmp(tmp.GetSize(), npuvp::lib_tiling::transpose_offsets_bytes(npuvp::lib_tiling::kTransposeMinPass),
                     "ConfusionTranspose");
  const LocalTensor<U> dst = dstTensor.template ReinterpretCast<U>();
  const LocalTensor<U> src = srcTensor.template ReinterpretCast<U>();
  LocalTensor<uint32_t> offsets = tmp.ReinterpretCast<uint32_t>();
  for (uint32_t i0 = 0; i0 < total; i0 += pass) {
    const uint32_t n = total - i0 < pass ? total - i0 : pass;
    lib::wait_vector();  // the previous pass's Gather (or earlier vector work) reads the offsets
    for (uint32_t i = 0; i < n; ++i) offsets.SetValue(i, source_of(type, t, i0 + i) * uint32_t(sizeof(U)));
    Gather(dst[i0], src, offsets, 0u, n);
  }
}
}  // namespace confusion_transpose_impl

template <typename T>
void ConfusionTranspose(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                        const LocalTensor<uint8_t>& sharedTmpBuffer, TransposeType transposeType,
                        const ConfusionTransposeTiling& tiling) {
  confusion_transpose_impl::run(dstTensor, srcTensor, sharedTmpBuffer, transposeType, tiling);
}
template <typename T>
void ConfusionTranspose(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, TransposeType transposeType,
                        const ConfusionTransposeTiling& tiling) {
  confusion_transpose_impl::run(dstTensor, srcTensor, npuvp::ascendc::lib::stack_buffer("ConfusionTranspose"),
                                transposeType, tiling);
}

// The kernel-side tiling CANN's own kernels compute (from a ShapeInfo's original shape: [B, N, S,
// H/N], or [H, W] for scenario 7), the same as the host's GetConfusionTransposeTilingInfo.
inline void GetConfusionTransposeTilingInfo(const ShapeInfo srcShape, const uint32_t stackBufferSize,
                                            const uint32_t typeSize, const uint32_t transposeTypeIn,
                                            tiling::ConfusionTransposeTiling& tiling) {
  tiling = tiling::ConfusionTransposeTiling{};
  const uint32_t dims = srcShape.originalShapeDim;
  if (transposeTypeIn < 1 || transposeTypeIn > 7 || dims != (transposeTypeIn == 7 ? 2u : 4u)) return;
  const uint32_t* d = srcShape.originalShape;
  tiling.param0 = dims == 2 ? 1 : d[0];
  tiling.param1 = dims == 2 ? 1 : d[1];
  tiling.param2 = dims == 2 ? d[0] : d[2];
  tiling.param3 = dims == 2 ? d[1] : d[3];
  tiling.param4 = transposeTypeIn;
  tiling.param6 = tiling.param0 * tiling.param1 * tiling.param2 * tiling.param3;
  const uint32_t g = npuvp::lib_tiling::kTransposePassGranule;
  tiling.param5 = std::min(tiling.param6, stackBufferSize / 4u / g * g);
  (void)typeSize;
}
inline void GetConfusionTransposeOnlyTilingInfo(const ShapeInfo srcShape, const uint32_t stackBufferSize,
                                                const uint32_t typeSize, tiling::ConfusionTransposeTiling& tiling) {
  GetConfusionTransposeTilingInfo(srcShape, stackBufferSize, typeSize, 7, tiling);
}

// The later name of the same API (the "Transpose" page of CANN 8.2 and on).
template <typename T>
void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,
               TransposeType transposeType, const ConfusionTransposeTiling& tiling) {
  confusion_transpose_impl::run(dst, src, sharedTmpBuffer, transposeType, tiling);
}
template <typename T>
void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, TransposeType transposeType,
               const ConfusionTransposeTiling& tiling) {
  confusion_transpose_impl::run(dst, src, npuvp::ascendc::lib::stack_buffer("Transpose"), transposeType, tiling);
}

}  // namespace AscendC
