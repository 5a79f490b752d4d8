// The heart of the matmul kernels on every product: A and B tiles already in L1 as NZ (see
// docs/writing-kernels.md) go to L0A (ZZ) and L0B (ZN), and the cube accumulates into the L0C
// tile c. f16: B's fractals are transposed on the way, in steps of kBaseK along K. int8: B is
// supplied transposed, so its NZ fractals are already L0B's ZN fractals.
#pragma once
#include <algorithm>
#include "kernel_operator.h"

namespace npuvp::kernels::matmul_tile {

using namespace AscendC;

inline constexpr uint32_t kBaseM = 128, kBaseN = 128;  // an L0C tile
inline constexpr uint32_t kBlockK = 256;               // K held in L1 per block
inline constexpr uint32_t kBaseK = 64;                 // K per Mmad (an L0A/L0B tile)
inline constexpr uint32_t kFractal = 16;
inline constexpr int32_t kBuffers = 2;

inline uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
inline uint32_t round_up(uint32_t a, uint32_t b) { return ceil_div(a, b) * b; }

// GM -> L1 of a rows x cols f16 block (source row stride `stride` elements) as bands of 16
// rows, each band one run of fractals: fractal (r1, c1) at (r1 * C1 + c1) * 512 B.
inline void copy_banded(const LocalTensor<half>& dst, const GlobalTensor<half>& src, uint32_t rows, uint32_t cols,
                 uint32_t stride) {
  const uint32_t c1 = ceil_div(cols, kFractal), full = rows / kFractal, rest = rows % kFractal;
  const uint32_t band_elems = c1 * kFractal * kFractal;
  if (full > 0 && uint64_t(kFractal) * stride <= 65535) {
    DataCopy(dst, src, Nd2NzParams(full, kFractal, cols, kFractal * stride, stride, kFractal, 1, band_elems));
  } else {
    for (uint32_t b = 0; b < full; ++b) {  // a band at a time when the band stride overflows 16 bits
      DataCopy(dst[b * band_elems], src[uint64_t(b) * kFractal * stride],
               Nd2NzParams(1, kFractal, cols, 0, stride, kFractal, 1, 0));
    }
  }
  if (rest > 0) {
    DataCopy(dst[full * band_elems], src[uint64_t(full) * kFractal * stride],
             Nd2NzParams(1, rest, cols, 0, stride, kFractal, 1, 0));
  }
}

// Multiplies the m x k tile of A at a1 by the k x n tile of B at b1 (NZ in L1) into c (from
// zero when first_block).
template <class QueA2, class QueB2>
void multiply_l1_tiles(LocalTensor<float>& c, const LocalTensor<half>& a1, const LocalTensor<half>& b1, QueA2& qA2,
                       QueB2& qB2, uint32_t m, uint32_t n, uint32_t k, bool first_block) {
  const uint32_t m1 = ceil_div(m, kFractal), n1 = ceil_div(n, kFractal), k1_block = ceil_div(k, kFractal);
  for (uint32_t kk0 = 0; kk0 < k; kk0 += kBaseK) {
    const uint32_t kk = std::min(kBaseK, k - kk0);
    const uint32_t k1 = ceil_div(kk, kFractal), k1_start = kk0 / kFractal;
    // L1 NZ -> L0A ZZ: one row of fractals (m1 fixed, k1 walking) per LoadData.
    LocalTensor<half> a2 = qA2.template AllocTensor<half>();
    for (uint32_t i = 0; i < m1; ++i) {
      LoadData(a2[i * k1 * 256], a1, LoadData2DParams(k1_start * m1 + i, k1, m1, 0, 0, false, 0));
    }
    qA2.EnQue(a2);
    // L1 NZ -> L0B ZN: for each k1, the row of n fractals, each transposed.
    LocalTensor<half> b2 = qB2.template AllocTensor<half>();
    for (uint32_t j = 0; j < k1; ++j) {
      LoadData(b2[j * n1 * 256], b1, LoadData2DParams(k1_start + j, n1, k1_block, 0, 0, true, 0));
    }
    qB2.EnQue(b2);
    a2 = qA2.template DeQue<half>();
    b2 = qB2.template DeQue<half>();
    MmadParams p;
    p.m = m;
    p.n = n;
    p.k = kk;
    p.cmatrixInitVal = first_block && kk0 == 0;
    Mmad(c, a2, b2, p);
    qA2.FreeTensor(a2);
    qB2.FreeTensor(b2);
  }
}

// Takes the next m x k tile of A and k x n tile of B (NZ in L1) from qA1/qB1, multiplies them
// into c (from zero when first_block), and frees them.
template <class QueA1, class QueB1, class QueA2, class QueB2>
void multiply_from_l1(LocalTensor<float>& c, QueA1& qA1, QueB1& qB1, QueA2& qA2, QueB2& qB2, uint32_t m, uint32_t n,
                      uint32_t k, bool first_block) {
  LocalTensor<half> a1 = qA1.template DeQue<half>();
  LocalTensor<half> b1 = qB1.template DeQue<half>();
  multiply_l1_tiles(c, a1, b1, qA2, qB2, m, n, k, first_block);
  qA1.FreeTensor(a1);
  qB1.FreeTensor(b1);
}

// int8 (K0 = 32): the next m x k tile of A and n x k tile of Bt from qA1/qB1, in one L0 step
// each (an L1 block of at most kBlockK fits L0A/L0B), multiplied into c (from zero when
// first_block). Bt's NZ fractal (n1, k1) sits at (k1 * N1 + n1) * 512: already L0B's ZN order.
template <class QueA1, class QueB1, class QueA2, class QueB2>
void multiply_int8_from_l1(LocalTensor<int32_t>& c, QueA1& qA1, QueB1& qB1, QueA2& qA2, QueB2& qB2, uint32_t m,
                           uint32_t n, uint32_t k, bool first_block) {
  constexpr uint32_t kK0 = 32;
  const uint32_t m1 = ceil_div(m, kFractal), n1 = ceil_div(n, kFractal), k1 = ceil_div(k, kK0);
  LocalTensor<int8_t> a1 = qA1.template DeQue<int8_t>();
  LocalTensor<int8_t> b1 = qB1.template DeQue<int8_t>();
  LocalTensor<int8_t> a2 = qA2.template AllocTensor<int8_t>();
  for (uint32_t i = 0; i < m1; ++i) LoadData(a2[i * k1 * 512], a1, LoadData2DParams(i, k1, m1, 0, 0, false, 0));
  qA2.EnQue(a2);
  LocalTensor<int8_t> b2 = qB2.template AllocTensor<int8_t>();
  LoadData(b2, b1, LoadData2DParams(0, k1 * n1, 1, 0, 0, false, 0));
  qB2.EnQue(b2);
  a2 = qA2.template DeQue<int8_t>();
  b2 = qB2.template DeQue<int8_t>();
  MmadParams p;
  p.m = m;
  p.n = n;
  p.k = k;
  p.cmatrixInitVal = first_block;
  Mmad(c, a2, b2, p);
  qA2.FreeTensor(a2);
  qB2.FreeTensor(b2);
  qA1.FreeTensor(a1);
  qB1.FreeTensor(b1);
}

}  // namespace npuvp::kernels::matmul_tile
