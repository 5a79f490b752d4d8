// Ascend C basic types and enums (names and values follow the public Ascend C API).
#pragma once
#include <cstdint>
#include "models/aicore/isa.h"
#include "models/numerics/bfloat16.h"

namespace npuvp::aicore { class AiCore; }

// Function qualifiers of Ascend C kernels; kernels run natively, so they mean nothing here.
#define __global__
#define __aicore__
#define __gm__
#define __inline__ inline

using GM_ADDR = uint8_t*;
using half = _Float16;                    // IEEE binary16
using bfloat16_t = npuvp::bfloat16_t;

enum pipe_t {
  PIPE_S = 0, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_ALL, PIPE_FIX = 10,
};

enum event_t {
  EVENT_ID0 = 0, EVENT_ID1, EVENT_ID2, EVENT_ID3, EVENT_ID4, EVENT_ID5, EVENT_ID6, EVENT_ID7,
};

namespace AscendC {

enum class TPosition : uint8_t {
  GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, LCM = VECCALC, SPM, SHM = SPM,
  TSCM, C2PIPE2GM, C2PIPE2LOCAL, MAX,
};
using QuePosition = TPosition;  // the older name
using TEventID = int8_t;        // an event id TPipe hands out (FetchEventID, AllocEventID)

enum class HardEvent : uint8_t {
  MTE2_MTE1, MTE1_MTE2, MTE1_M, M_MTE1, MTE2_V, V_MTE2, MTE3_V, V_MTE3, M_V, V_M, V_V,
  MTE3_MTE1, MTE1_MTE3, MTE1_V, MTE2_M, M_MTE2, V_MTE1, M_FIX, FIX_M, MTE3_MTE2, MTE2_MTE3,
  S_V, V_S, S_MTE2, MTE2_S, S_MTE3, MTE3_S, MTE2_FIX, FIX_MTE2, FIX_S, M_S, FIX_MTE3,
  MTE1_FIX, FIX_MTE1, FIX_FIX, MAX,
};

enum class KernelMode { MIX_MODE = 0, AIC_MODE, AIV_MODE };

struct DataCopyParams {
  uint16_t blockCount = 1;
  uint16_t blockLen = 0;   // 32 B units
  uint16_t srcStride = 0;  // gap in 32 B units between blocks
  uint16_t dstStride = 0;
  DataCopyParams() = default;
  DataCopyParams(uint16_t count, uint16_t len, uint16_t src_stride, uint16_t dst_stride)
      : blockCount(count), blockLen(len), srcStride(src_stride), dstStride(dst_stride) {}
};

struct BinaryRepeatParams {
  uint8_t dstBlkStride = 1, src0BlkStride = 1, src1BlkStride = 1;
  uint8_t dstRepStride = 8, src0RepStride = 8, src1RepStride = 8;
  BinaryRepeatParams() = default;
  BinaryRepeatParams(uint8_t dst_blk, uint8_t src0_blk, uint8_t src1_blk, uint8_t dst_rep,
                     uint8_t src0_rep, uint8_t src1_rep)
      : dstBlkStride(dst_blk), src0BlkStride(src0_blk), src1BlkStride(src1_blk),
        dstRepStride(dst_rep), src0RepStride(src0_rep), src1RepStride(src1_rep) {}
};

struct UnaryRepeatParams {
  uint16_t dstBlkStride = 1, srcBlkStride = 1;
  uint8_t dstRepStride = 8, srcRepStride = 8;
  UnaryRepeatParams() = default;
  UnaryRepeatParams(uint16_t dst_blk, uint16_t src_blk, uint8_t dst_rep, uint8_t src_rep)
      : dstBlkStride(dst_blk), srcBlkStride(src_blk), dstRepStride(dst_rep), srcRepStride(src_rep) {}
};

// Default strides for a vector op over contiguous data.
inline constexpr uint8_t DEFAULT_BLK_STRIDE = 1;
inline constexpr uint8_t DEFAULT_REPEAT_STRIDE = 8;
inline constexpr uint32_t ONE_BLK_SIZE = 32;
inline constexpr uint32_t ONE_REPEAT_BYTE_SIZE = 256;
inline constexpr uint32_t MAX_REPEAT_TIMES = 255;

}  // namespace AscendC

namespace npuvp::ascendc {

// Element type -> model dtype.
template <class T> struct DTypeOf;
template <> struct DTypeOf<half> { static constexpr aicore::DType value = aicore::DType::F16; };
template <> struct DTypeOf<bfloat16_t> { static constexpr aicore::DType value = aicore::DType::BF16; };
template <> struct DTypeOf<float> { static constexpr aicore::DType value = aicore::DType::F32; };
template <> struct DTypeOf<int8_t> { static constexpr aicore::DType value = aicore::DType::S8; };
template <> struct DTypeOf<uint8_t> { static constexpr aicore::DType value = aicore::DType::U8; };
template <> struct DTypeOf<int16_t> { static constexpr aicore::DType value = aicore::DType::S16; };
template <> struct DTypeOf<uint16_t> { static constexpr aicore::DType value = aicore::DType::U16; };
template <> struct DTypeOf<int32_t> { static constexpr aicore::DType value = aicore::DType::S32; };
template <> struct DTypeOf<uint32_t> { static constexpr aicore::DType value = aicore::DType::U32; };

// The memory a TPosition maps to on a coupled core (SPEC.md §1.5).
aicore::MemSpace position_space(AscendC::TPosition pos);
const char* position_name(AscendC::TPosition pos);
// HardEvent -> (source pipe, destination pipe).
aicore::Pipe event_src(AscendC::HardEvent e);
aicore::Pipe event_dst(AscendC::HardEvent e);
AscendC::HardEvent event_of(aicore::Pipe src, aicore::Pipe dst);
aicore::Pipe pipe_of(pipe_t p);

// The core running the calling kernel; raises if called outside a kernel.
aicore::AiCore& core();

}  // namespace npuvp::ascendc
