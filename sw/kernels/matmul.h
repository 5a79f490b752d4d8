// Tiled matmul C[M][N] = A[M][K] * B[K][N], f16 in, f32 or f16 out, any shape.
#pragma once
#include <cstdint>
#include "kernel_operator.h"

namespace npuvp::kernels {

struct MatmulShape {
  uint32_t m = 0, n = 0, k = 0;
};

// A2 (ascend910b): GM --Nd2Nz--> L1 --LoadData2D--> L0A/L0B --Mmad--> L0C --Fixpipe--> GM.
// CT is float or half. Double-buffered at every level through TQues. Launched on several
// blocks, the blocks share C's tiles by equal runs in column-major order.
template <class CT>
void matmul_a2(GM_ADDR a, GM_ADDR b, GM_ADDR c, MatmulShape shape);
// The width of matmul_a2's C blocks on `blocks` blocks with `l1_bytes` of L1: 256 (128 x 256
// fills L0C and needs the least GM traffic per MAC) unless 128 gives the busiest block less
// to do.
uint32_t matmul_a2_base_n(MatmulShape shape, uint32_t blocks, uint64_t l1_bytes);

// Coupled 910 (no ND2NZ, no FixPipe): a vector pre-pass pads A and B into `workspace` (GM,
// at least matmul_910_workspace_bytes), strided DataCopy builds NZ in L1, the cube computes,
// L0C leaves through UB in matrix mode into a padded C, and a vector post-pass writes the
// exact C (scalar stores for row tails shorter than a 32 B block). CT is float or half.
// Launched on several blocks, each block computes one rectangle of C's 128 x 128 tiles (see
// matmul_910_tile_grid), padding what it needs itself; any blockDim works (blocks beyond the
// grid idle).
template <class CT>
void matmul_910(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, MatmulShape shape);
// On `blocks` blocks (each band of the tile grid pads into its own copy of Ap or Bp).
uint64_t matmul_910_workspace_bytes(MatmulShape shape, uint32_t blocks);
// How matmul_910 splits C over `blocks` blocks: `rows` bands of tile rows x `cols` bands of
// tile columns, block b taking band (b / cols, b % cols).
struct TileGrid {
  uint32_t rows = 1, cols = 1;
};
TileGrid matmul_910_tile_grid(MatmulShape shape, uint32_t blocks);

// int8: C[M][N] (s32) = A[M][K] (s8) * B[K][N] (s8), with B supplied transposed as Bt[N][K]
// (the usual int8 layout: Bt's NZ fractals in L1 are already L0B's ZN fractals).
void matmul_int8_a2(GM_ADDR a, GM_ADDR bt, GM_ADDR c, MatmulShape shape);

// int8 on a coupled 910: the matmul_910 recipe with A and Bt padded to whole 32 B blocks of K
// (K0 = 32) in `workspace` (at least matmul_int8_910_workspace_bytes); C stays s32.
void matmul_int8_910(GM_ADDR a, GM_ADDR bt, GM_ADDR c, GM_ADDR workspace, MatmulShape shape);
uint64_t matmul_int8_910_workspace_bytes(MatmulShape shape);

}  // namespace npuvp::kernels
