// Fused matmul + bias + row softmax on a separated chip (910B, A2): the flash-attention
// structure in miniature. Y[M][N] = softmax_rows(A[M][K] x B[K][N] + bias[N]); A, B f16,
// bias and Y f32.
//
// Launch as KERNEL_TYPE_MIX_AIC_1_2 (the kernel declares it) on any blockDim. C is cut into
// row tiles of kMatmulSoftmaxRowTile rows x all N columns; block b takes tiles b, b + blockDim,
// ... Per tile, the AIC multiplies (Mmad, f32 in L0C, 128-column panels) and writes the tile
// with Fixpipe into one of its block's two GM workspace slots, then sets a mode-2 cross-core
// flag; each AIV (sub-block 0: the first ceil(m/2) rows, sub-block 1: the rest) waits for it,
// finishes its rows (bias, max, subtract, exp, sum, divide) into Y and, once it has read the
// slot, sets the flag that lets the AIC reuse it. Two slots, so the AIC computes tile j + 1
// while the AIVs finish tile j.
//
// Limits (clear errors otherwise): M, K >= 1; 1 <= N <= kMatmulSoftmaxMaxN (a row and its
// bias stay in UB). Any M, N, K (no multiple-of-16 requirement).
#pragma once
#include <cstdint>
#include "kernel_operator.h"

namespace npuvp::kernels {

struct MatmulSoftmaxShape {
  uint32_t m = 0, n = 0, k = 0;
};

inline constexpr uint32_t kMatmulSoftmaxRowTile = 64;
inline constexpr uint32_t kMatmulSoftmaxMaxN = 4096;

// How the AIVs learn that a tile is in the workspace. SkipTileWait exists only to show that
// the cross-core flag is load-bearing: the AIVs read the slot without waiting for the AIC.
enum class FusedSync { Full, SkipTileWait };

// GM workspace the kernel needs on `blocks` blocks: two slots of a row tile per block.
uint64_t matmul_softmax_910b_workspace_bytes(MatmulSoftmaxShape shape, uint32_t blocks);

void matmul_softmax_910b(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace,
                         MatmulSoftmaxShape shape, FusedSync sync = FusedSync::Full);

}  // namespace npuvp::kernels
