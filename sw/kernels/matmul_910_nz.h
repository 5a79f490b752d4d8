// The f16 matmul of the coupled Ascend 910 / 310P with its operands in the cube's fractal
// format in GM, as real 910 operators take them (a TransData, or the host, converts): the
// cube, not a pass through UB, is then the busy unit (issue 23). See matmul_910_nz.cpp.
//
// Formats ("FRACTAL_NZ" of an R x C matrix, R and C padded to multiples of 16 with zeros):
// [C1][R1 * 16][16], i.e. column band c1 of 16 columns is R1 * 16 rows of 32 B (f16) one
// after another. A (M x K) is NZ [K1][M1 * 16][16], B (K x N) is NZ [N1][K1 * 16][16], and
// C (M x N) is written NZ [N1][M1 * 16][16] in CT (float or half), its padding included.
#pragma once
#include <cstdint>
#include <vector>
#include "kernel_operator.h"
#include "sw/kernels/matmul.h"

namespace npuvp::kernels {

// How matmul_910_nz shares C's tiles (256 x 256, or 128 x 128 for small C): in waves of wave_rows x wave_cols tiles (one
// per block; blocks past wave_rows * wave_cols idle), the waves walking along N, so one band
// of A's rows serves consecutive waves from L2.
struct MatmulNzTiling {
  uint32_t wave_rows = 1, wave_cols = 1;
  uint32_t tile = 256;  // C block edge: 256 (fills L0C) or 128 (two in L0C)
};
// The host's tiling for `blocks` blocks and an L2 of `l2_bytes`: the tile edge that gives the
// busiest block the least time; for it, the fewest tiles for the busiest block, then the
// least DRAM traffic (A's row band kept in L2 when it fits in a quarter of it).
MatmulNzTiling matmul_910_nz_tiling(MatmulShape shape, uint32_t blocks, uint64_t l2_bytes);

template <class CT>
void matmul_910_nz(GM_ADDR a_nz, GM_ADDR b_nz, GM_ADDR c_nz, MatmulShape shape, MatmulNzTiling tiling);

// Host-side format conversions. nd_to_nz: an R x C row-major matrix to NZ (zero padding);
// nz_to_nd: back, dropping the padding.
template <class T>
std::vector<T> nd_to_nz(const T* nd, uint32_t rows, uint32_t cols) {
  const uint32_t rp = (rows + 15) / 16 * 16, c1 = (cols + 15) / 16;
  std::vector<T> nz(size_t(c1) * rp * 16, T(0));
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t c = 0; c < cols; ++c) nz[(size_t(c / 16) * rp + r) * 16 + c % 16] = nd[size_t(r) * cols + c];
  }
  return nz;
}
template <class T>
std::vector<T> nz_to_nd(const T* nz, uint32_t rows, uint32_t cols) {
  const uint32_t rp = (rows + 15) / 16 * 16;
  std::vector<T> nd(size_t(rows) * cols);
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t c = 0; c < cols; ++c) nd[size_t(r) * cols + c] = nz[(size_t(c / 16) * rp + r) * 16 + c % 16];
  }
  return nd;
}
// Elements of an R x C matrix in NZ.
inline uint64_t nz_elems(uint32_t rows, uint32_t cols) {
  return uint64_t((rows + 15) / 16 * 16) * ((cols + 15) / 16 * 16);
}

}  // namespace npuvp::kernels
