// The tiling structures of the lib/ APIs (SoftMaxTiling, LayerNormTiling, RmsNormTiling,
// TopkTiling),
// in both of CANN's forms from one field list each, so they share one layout:
//   - kernel side, AscendC::tiling::X (also ::X), plain structs as kernel_tiling/kernel_tiling.h
//     declares them;
//   - host side, optiling::X, with the accessors of CANN's TilingDef (set_<field>,
//     get_<field>, SaveToBuffer, GetDataSize), which the host tiling functions fill.
// The host copies the bytes (SaveToBuffer) into the kernel's tiling argument; the kernel reads
// them as the plain struct. Field lists: the ...tilingdata.h headers of CANN 8.1.
#pragma once
#include <cstdint>
#include <cstring>

#define NPUVP_SOFTMAX_TILING_FIELDS(F)                                                     \
  F(uint32_t, srcM) F(uint32_t, srcK) F(uint32_t, srcSize) F(uint32_t, outMaxM)          \
  F(uint32_t, outMaxK) F(uint32_t, outMaxSize) F(uint32_t, splitM) F(uint32_t, splitK)   \
  F(uint32_t, splitSize) F(uint32_t, reduceM) F(uint32_t, reduceK) F(uint32_t, reduceSize) \
  F(uint32_t, rangeM) F(uint32_t, tailM) F(uint32_t, tailSplitSize) F(uint32_t, tailReduceSize)

#define NPUVP_LAYERNORM_TILING_FIELDS(F)                                                       \
  F(uint32_t, bLength) F(uint32_t, sLength) F(uint32_t, hLength) F(uint32_t, originalHLength) \
  F(uint32_t, inputXSize) F(uint32_t, meanVarSize) F(uint32_t, numberOfTmpBuf)               \
  F(uint32_t, meanTmpTensorPos) F(uint32_t, meanTmpTensorSize) F(uint32_t, varianceTmpTensorPos) \
  F(uint32_t, varianceTmpTensorSize) F(uint32_t, tmpBufSize) F(uint32_t, oneTmpSize)          \
  F(uint32_t, firstTmpStartPos) F(uint32_t, secondTmpStartPos) F(uint32_t, thirdTmpStartPos)  \
  F(uint32_t, loopRound) F(uint32_t, inputRoundSize) F(uint32_t, inputTailSize)              \
  F(uint32_t, inputTailPos) F(uint32_t, meanVarRoundSize) F(uint32_t, meanVarTailSize)       \
  F(uint32_t, meanVarTailPos) F(uint32_t, bshCurLength) F(uint32_t, bsCurLength)             \
  F(float, lastDimValueBack)

#define NPUVP_RMSNORM_TILING_FIELDS(F)                                                         \
  F(uint32_t, bLength) F(uint32_t, sLength) F(uint32_t, hLength) F(uint32_t, originalHLength) \
  F(float, reciprocalOfHLength) F(uint32_t, mainBshLength) F(uint32_t, mainBsLength)          \
  F(uint32_t, mainBsLengthAlign) F(uint32_t, loopRound) F(uint32_t, inputTailPos)            \
  F(uint32_t, tailBshLength) F(uint32_t, tailBsLength)

#define NPUVP_TOPK_TILING_FIELDS(F)                                                            \
  F(int32_t, tmpLocalSize) F(int32_t, allDataSize) F(int32_t, innerDataSize) F(uint32_t, sortRepeat) \
  F(int32_t, mrgSortRepeat) F(int32_t, kAlignFourBytes) F(int32_t, kAlignTwoBytes)             \
  F(int32_t, maskOffset) F(int32_t, maskVreducev2FourBytes) F(int32_t, maskVreducev2TwoBytes)  \
  F(int32_t, mrgSortSrc1offset) F(int32_t, mrgSortSrc2offset) F(int32_t, mrgSortSrc3offset)    \
  F(int32_t, mrgSortTwoQueueSrc1Offset) F(int32_t, mrgFourQueueTailPara1)                      \
  F(int32_t, mrgFourQueueTailPara2) F(int32_t, srcIndexOffset) F(uint32_t, copyUbToUbBlockCount) \
  F(int32_t, topkMrgSrc1MaskSizeOffset) F(int32_t, topkNSmallSrcIndexOffset)                   \
  F(uint32_t, vreduceValMask0) F(uint32_t, vreduceValMask1) F(uint32_t, vreduceIdxMask0)       \
  F(uint32_t, vreduceIdxMask1) F(uint16_t, vreducehalfValMask0) F(uint16_t, vreducehalfValMask1) \
  F(uint16_t, vreducehalfValMask2) F(uint16_t, vreducehalfValMask3) F(uint16_t, vreducehalfValMask4) \
  F(uint16_t, vreducehalfValMask5) F(uint16_t, vreducehalfValMask6) F(uint16_t, vreducehalfValMask7)

#define NPUVP_TILING_KERNEL_FIELD(type, name) type name = 0;
#define NPUVP_TILING_HOST_FIELD(type, name)                 \
  type name = 0;                                            \
  void set_##name(type value) { name = value; }             \
  type get_##name() const { return name; }

#define NPUVP_TILING_HOST_STRUCT(NAME, FIELDS)                                            \
  struct NAME {                                                                           \
    FIELDS(NPUVP_TILING_HOST_FIELD)                                                       \
    /* CANN's TilingDef: the bytes the kernel reads as AscendC::tiling::NAME. */          \
    void SaveToBuffer(void* buffer, size_t capacity) const {                              \
      if (capacity >= GetDataSize()) std::memcpy(buffer, this, GetDataSize());            \
    }                                                                                     \
    size_t GetDataSize() const { return sizeof(NAME); }                                   \
    /* A kernel that reads its tiling with GET_TILING_DATA holds this host form; the lib */ \
    /* APIs take the kernel form, which has the same layout. */                           \
    operator const ::AscendC::tiling::NAME&() const {                                     \
      return *reinterpret_cast<const ::AscendC::tiling::NAME*>(this);                     \
    }                                                                                     \
    operator ::AscendC::tiling::NAME&() { return *reinterpret_cast<::AscendC::tiling::NAME*>(this); } \
  };

namespace AscendC::tiling {
struct SoftMaxTiling {
  NPUVP_SOFTMAX_TILING_FIELDS(NPUVP_TILING_KERNEL_FIELD)
};
struct LayerNormTiling {
  NPUVP_LAYERNORM_TILING_FIELDS(NPUVP_TILING_KERNEL_FIELD)
};
struct RmsNormTiling {
  NPUVP_RMSNORM_TILING_FIELDS(NPUVP_TILING_KERNEL_FIELD)
};
struct TopkTiling {
  NPUVP_TOPK_TILING_FIELDS(NPUVP_TILING_KERNEL_FIELD)
};
}  // namespace AscendC::tiling
using AscendC::tiling::LayerNormTiling;
using AscendC::tiling::RmsNormTiling;
using AscendC::tiling::SoftMaxTiling;
using AscendC::tiling::TopkTiling;

namespace optiling {
NPUVP_TILING_HOST_STRUCT(SoftMaxTiling, NPUVP_SOFTMAX_TILING_FIELDS)
NPUVP_TILING_HOST_STRUCT(LayerNormTiling, NPUVP_LAYERNORM_TILING_FIELDS)
NPUVP_TILING_HOST_STRUCT(RmsNormTiling, NPUVP_RMSNORM_TILING_FIELDS)
NPUVP_TILING_HOST_STRUCT(TopkTiling, NPUVP_TOPK_TILING_FIELDS)
}  // namespace optiling

namespace npuvp::lib_tiling {
// Temporary buffer one row of k elements of a `typeSize`-byte type needs in the SoftMax family
// (lib/activation/softmax_impl.h): 96 floats of per-row results, the row's broadcast (k
// floats) and, for half, the row widened to float (k floats).
inline constexpr uint32_t kSoftmaxStatFloats = 96;
inline uint32_t softmax_row_bytes(uint32_t k, uint32_t typeSize) {
  return 4u * (kSoftmaxStatFloats + k * (typeSize == 2 ? 2u : 1u));
}
// LayerNorm (mean, variance and deviation per row; five float rows: the widened x, deviation,
// square/broadcast, gamma, beta) and RmsNorm (the mean square per row; four float rows:
// widened x, square/broadcast, gamma, result).
inline uint32_t layernorm_tmp_bytes(uint32_t rows, uint32_t h) { return 4u * (3u * ((rows + 7) / 8 * 8) + 5u * h); }
inline uint32_t rmsnorm_tmp_bytes(uint32_t rows, uint32_t h) { return 4u * ((rows + 7) / 8 * 8 + 4u * h); }
// Gelu, FasterGelu, Silu, Swish (lib/activation/sigmoid_gate.h): per element one float (two for
// half); at least one 64-element chunk.
inline uint32_t gate_bytes_per_element(uint32_t typeSize) { return typeSize == 2 ? 8u : 4u; }
inline uint32_t gate_min_tmp_bytes(uint32_t typeSize) { return 64u * gate_bytes_per_element(typeSize); }
// Sum and Mean (lib/reduce/sum.h): rows go in groups of kRowReduceGroup, so the temporary is
// the group's sums and divisors (kRowReduceGroup floats each) and one float row, whatever the
// row count (CANN's GetSumMaxMinTmpSize / GetMeanMaxMinTmpSize take only the row length n).
inline constexpr uint32_t kRowReduceGroup = 64;
inline uint32_t row_reduce_tmp_bytes_for_row(uint32_t n, uint32_t typeSize) {
  const uint32_t perBlock = typeSize ? 32u / typeSize : 8u;
  const uint32_t inner = perBlock ? (n + perBlock - 1) / perBlock * perBlock : n;
  return 4u * (2u * kRowReduceGroup + inner * (typeSize == 2 ? 2u : 1u));
}
inline uint32_t row_reduce_tmp_bytes(uint32_t outter, uint32_t inner, uint32_t typeSize) {
  (void)outter;
  return row_reduce_tmp_bytes_for_row(inner, typeSize);
}
// TopK's temporary bytes for rows of `inner` elements: the scores (float), the indices, and two
// record buffers of 8 B per element (lib/sort/topk.h).
inline uint32_t topk_tmp_bytes(uint32_t inner) { return inner * (4u + 4u + 8u + 8u) + 64u; }
}  // namespace npuvp::lib_tiling

static_assert(sizeof(optiling::SoftMaxTiling) == sizeof(AscendC::tiling::SoftMaxTiling), "one layout");
static_assert(sizeof(optiling::LayerNormTiling) == sizeof(AscendC::tiling::LayerNormTiling), "one layout");
static_assert(sizeof(optiling::TopkTiling) == sizeof(AscendC::tiling::TopkTiling), "one layout");
static_assert(sizeof(optiling::RmsNormTiling) == sizeof(AscendC::tiling::RmsNormTiling), "one layout");

// Pad / UnPad (lib/pad/pad.h)
#include "sw/ascendc/lib/pad/pad_tilingdata.h"

// ConfusionTranspose (lib/transpose/confusion_transpose.h)
#include "sw/ascendc/lib/transpose/confusion_transpose_tilingdata.h"
