// Steps shared by the conv2d kernels of every product: the NCHW -> NC1HWC0 transform of the
// feature map, the img2col (LoadData3D) parameters of a tile of output positions, and the size
// of such a tile.
#pragma once
#include <algorithm>
#include <cstdint>
#include "kernel_operator.h"
#include "sw/kernels/conv2d.h"

namespace npuvp::kernels::conv2d_layout {

using namespace AscendC;

inline constexpr uint32_t kC0 = 16;           // f16 channels per NC1HWC0 block
inline constexpr uint32_t kFractalRows = 16;  // rows of an img2col fractal
inline constexpr uint32_t kMaxTileM = 128;

inline uint32_t round_up(uint32_t a, uint32_t b) { return (a + b - 1) / b * b; }

// Output positions per tile: at most kMaxTileM, and as many whole fractal rows of the img2col
// matrix (k columns of f16) as fit `l0a_bytes`. 0 if not even one fits.
inline uint32_t tile_positions(uint32_t k, uint32_t l0a_bytes) {
  return std::min(kMaxTileM, l0a_bytes / (k * uint32_t(sizeof(half))) / kFractalRows * kFractalRows);
}

// NCHW f16 x[c][h][w] -> NC1HWC0 at dst (L1 on A2, GM on 910): element (c1, p, c0) at
// (c1 * h * w + p) * 16 + c0. Per 16-channel block the channel rows come into `rows` (UB,
// 16 x round_up(h * w, 16) halves), each block of 16 positions is gathered (UB -> UB) into
// `tile` (UB, 2 x 256 halves), transposed by the vector unit and copied out (MTE3). A last
// partial block of 16 positions spills up to 15 positions past its c1 block, which the next
// c1 block overwrites later (MTE3 is in order): dst needs 15 x 16 halves of slack at its end.
// Rows of channels >= c are zeroed by the vector unit (img2col reads pad_value for them, but
// the transpose reads them: bytes never written, NPUVP_CHECK=init).
// Ends with PipeBarrier<PIPE_ALL>; uses EVENT_ID0 of MTE2_V, V_MTE3, MTE3_V and V_MTE2.
template <class Dst>
void nchw_to_nc1hwc0(const Dst& dst, const GlobalTensor<half>& x, const Conv2dShape& s, const LocalTensor<half>& rows,
                     const LocalTensor<half>& tile) {
  const uint32_t hw = s.h * s.w, hwp = round_up(hw, kC0);
  for (uint32_t c1 = 0; c1 < s.c1(); ++c1) {
    // Positions past h * w read the next channel's row (never used).
    for (uint32_t i = 0; i < kC0 && c1 * kC0 + i < s.c; ++i) {
      DataCopy(rows[i * hwp], x[uint64_t(c1 * kC0 + i) * hw], hwp);
    }
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    const uint32_t channels = std::min(kC0, s.c - c1 * kC0);
    if (channels < kC0) Duplicate(rows[channels * hwp], half(0), int32_t((kC0 - channels) * hwp));
    for (uint32_t p0 = 0; p0 < hwp; p0 += kC0) {
      DataCopy(tile, rows[p0], DataCopyParams(kC0, 1, static_cast<uint16_t>(hwp / kC0 - 1), 0));
      Transpose(tile[256], tile);  // [channel][position] -> [position][channel]
      SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
      WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
      DataCopy(dst[(uint64_t(c1) * hw + p0) * kC0], tile[256], 256);
      SetFlag<HardEvent::MTE3_V>(EVENT_ID0);  // the tile is free again
      WaitFlag<HardEvent::MTE3_V>(EVENT_ID0);
    }
    SetFlag<HardEvent::V_MTE2>(EVENT_ID0);  // the rows are free again
    WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);
  }
  PipeBarrier<PIPE_ALL>();
}

// img2col of output positions [m0, m0 + m) over every column (c1, kh, kw, c0) of the kernel.
inline LoadData3DParamsV2<half> img2col_params(const Conv2dShape& s, uint32_t m0, uint32_t m) {
  LoadData3DParamsV2<half> p;
  p.padList[0] = p.padList[1] = p.padList[2] = p.padList[3] = static_cast<uint8_t>(s.pad);
  p.l1H = static_cast<uint16_t>(s.h);
  p.l1W = static_cast<uint16_t>(s.w);
  p.channelSize = static_cast<uint16_t>(s.c);
  p.kExtension = static_cast<uint16_t>(s.k());
  p.mExtension = static_cast<uint16_t>(round_up(m, kFractalRows));
  p.mStartPt = static_cast<uint16_t>(m0);
  p.strideH = p.strideW = static_cast<uint8_t>(s.stride);
  p.filterH = static_cast<uint8_t>(s.kh);
  p.filterW = static_cast<uint8_t>(s.kw);
  p.dilationFilterH = p.dilationFilterW = static_cast<uint8_t>(s.dilation);
  return p;
}

}  // namespace npuvp::kernels::conv2d_layout
