// 2-D convolution on one core: NCHW f16 input -> NC1HWC0 in L1 -> img2col (LoadData3D) -> Mmad
// -> bias and ReLU -> f32 output. On A2 the bias starts the accumulator (BiasTable) and Fixpipe
// applies ReLU; on a coupled 910 the vector unit adds the bias to the finished sum and applies
// ReLU in UB (sw/kernels/conv2d_reference.h states both numerics).
#pragma once
#include <cstdint>
#include "kernel_operator.h"

namespace npuvp::kernels {

struct Conv2dShape {
  uint32_t c = 1, h = 1, w = 1;  // input channels and size (one image)
  uint32_t cout = 1;             // output channels
  uint32_t kh = 1, kw = 1;
  uint32_t stride = 1, pad = 0, dilation = 1;
  uint32_t out_h() const { return (h + 2 * pad - dilation * (kh - 1) - 1) / stride + 1; }
  uint32_t out_w() const { return (w + 2 * pad - dilation * (kw - 1) - 1) / stride + 1; }
  uint32_t c1() const { return (c + 15) / 16; }
  uint32_t k() const { return c1() * kh * kw * 16; }  // img2col columns: (c1, kh, kw, c0)
};

// x: NCHW f16 [c][h][w]. weight: f16 [cout][k()] with column ((c1 * kh + i) * kw + j) * 16 + c0
// holding W[co][c1 * 16 + c0][i][j] (zero for channels >= c) — the fractal-ready weight format
// (as CANN pre-formats weights). bias: f32 [cout rounded up to 16]. y: f32 [out_h * out_w][cout]
// (NHWC: the orientation whose columns are output channels, so the bias comes from the BT).
void conv2d_a2(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y, Conv2dShape shape, bool relu);

// The same on a separated A2 chip, launched KERNEL_TYPE_MIX_AIC_1_2 on one block: an AIV formats
// the feature map into `workspace` (GM, at least conv2d_a2_mixed_workspace_bytes) and signals
// its AIC (cross-core flag 0, mode 2), which runs stages 2-4.
void conv2d_a2_mixed(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace, Conv2dShape shape,
                     bool relu);
uint64_t conv2d_a2_mixed_workspace_bytes(const Conv2dShape& shape);

// The same on a coupled 910 (no UB -> L1, ND2NZ, BiasTable or FixPipe), with the same operand
// formats; `workspace` is GM of at least conv2d_910_workspace_bytes(shape).
void conv2d_910(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace, Conv2dShape shape, bool relu);
uint64_t conv2d_910_workspace_bytes(const Conv2dShape& shape);

}  // namespace npuvp::kernels
