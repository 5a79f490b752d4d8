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
// slot, sets the flag that lets the AIC reuse it. Two slots, so the AIC fills one while the
// AIVs finish the other. Uses cross-core flag ids 0-3.
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

// Variants for tests: the defaults are the kernel. One slot serialises the AIC and its AIVs
// (the timing tests compare it with two); dropping a wait shows that its flag is load-bearing.
struct FusedOptions {
  uint32_t slots = 2;                   // workspace slots per block: 1 or 2
  bool aivs_wait_for_tile = true;       // false: AIVs read a slot before the AIC has filled it
  bool aic_waits_for_free_slot = true;  // false: the AIC overwrites a slot its AIVs still read
};

// GM workspace the kernel needs on `blocks` blocks: two slots of a row tile per block.
uint64_t matmul_softmax_910b_workspace_bytes(MatmulSoftmaxShape shape, uint32_t blocks);

void matmul_softmax_910b(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace,
                         MatmulSoftmaxShape shape, FusedOptions options = {});

}  // namespace npuvp::kernels
