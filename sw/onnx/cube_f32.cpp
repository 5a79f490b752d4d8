// The f32 matmul of the ONNX lowerings on the A2 cube (910B AICs, issue 26): Y[M x N] (f32) =
// A[M x K] x B, with B supplied transposed as Bt[N x K] (ND, f32), so that both operands reach
// L1 by the same Nd2Nz copy and neither needs a transposing LoadData (which f32 lacks):
//  - A's 128 x 64 block lands in L1 as bands of 16 rows, each band a run of 16 x 8 fractals
//    (C0 = 8 floats = 32 B), which are exactly L0A's ZZ fractals: one LoadData per band;
//  - Bt's 128 x 64 block lands the same way; a 16 (n) x 8 (k) row-major fractal is L0B's ZN
//    fractal (8 x 16, column-major inside), so L0B's row k1 of fractals is one LoadData
//    walking the bands (source stride: the fractals per band);
//  - Mmad accumulates in f32 in L0C over the K blocks; Fixpipe writes the tile to GM as ND.
// Tiles of 128 x 128 of Y are shared among the blocks in equal runs; single-buffered queues
// (the pipes still overlap across the queues' levels). Layouts: struct Mmad in isa.h.
#include "sw/onnx/cube_f32.h"

#include <algorithm>

namespace npuvp::onnx {

using namespace AscendC;

namespace {
namespace cube_f32_cpp {  // named after the file: unity batches share anonymous namespaces

constexpr uint32_t kTileM = 128, kTileN = 128, kBlockK = 64;
constexpr uint32_t kRows = 16, kC0 = 8, kFractalFloats = kRows * kC0;  // 512 B

uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// GM -> L1: a rows x cols f32 block (source row stride `stride`) as bands of 16 rows, each
// band ceil(cols / 8) fractals of 16 x 8.
void copy_banded_f32(const LocalTensor<float>& dst, const GlobalTensor<float>& src, uint32_t rows, uint32_t cols,
                     uint32_t stride) {
  const uint32_t band = ceil_div(cols, kC0) * kFractalFloats;
  for (uint32_t r0 = 0, b = 0; r0 < rows; r0 += kRows, ++b) {
    const uint32_t n = std::min(kRows, rows - r0);
    DataCopy(dst[b * band], src[uint64_t(r0) * stride], Nd2NzParams(1, uint16_t(n), uint16_t(cols), 0,
                                                                    uint16_t(stride), kRows, 1, 0));
  }
}

void cube_f32_kernel(GM_ADDR a, GM_ADDR bt, GM_ADDR y, uint32_t m, uint32_t n, uint32_t k) {
  GlobalTensor<float> aGm, btGm, yGm;
  aGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(a));
  btGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bt));
  yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y));
  TPipe pipe;
  TQue<TPosition::A1, 1> qA1;
  TQue<TPosition::B1, 1> qB1;
  TQue<TPosition::A2, 1> qA2;
  TQue<TPosition::B2, 1> qB2;
  TQue<TPosition::CO1, 1> qCO1;
  pipe.InitBuffer(qA1, 1, kTileM * kBlockK * 4);
  pipe.InitBuffer(qB1, 1, kTileN * kBlockK * 4);
  pipe.InitBuffer(qA2, 1, kTileM * kBlockK * 4);
  pipe.InitBuffer(qB2, 1, kTileN * kBlockK * 4);
  pipe.InitBuffer(qCO1, 1, kTileM * kTileN * 4);
  const uint32_t tiles_m = ceil_div(m, kTileM), tiles = tiles_m * ceil_div(n, kTileN);
  const auto blocks = uint32_t(GetBlockNum()), block = uint32_t(GetBlockIdx());
  const uint32_t first = uint32_t(uint64_t(block) * tiles / blocks), last = uint32_t(uint64_t(block + 1) * tiles / blocks);
  for (uint32_t t = first; t < last; ++t) {
    const uint32_t m0 = t % tiles_m * kTileM, n0 = t / tiles_m * kTileN;
    const uint32_t tm = std::min(kTileM, m - m0), tn = std::min(kTileN, n - n0);
    const uint32_t m1 = ceil_div(tm, kRows), n1 = ceil_div(tn, kRows);
    LocalTensor<float> c = qCO1.AllocTensor<float>();
    for (uint32_t k0 = 0; k0 < k; k0 += kBlockK) {
      const uint32_t tk = std::min(kBlockK, k - k0), k1 = ceil_div(tk, kC0);
      LocalTensor<float> a1 = qA1.AllocTensor<float>();
      copy_banded_f32(a1, aGm[uint64_t(m0) * k + k0], tm, tk, k);
      qA1.EnQue(a1);
      LocalTensor<float> b1 = qB1.AllocTensor<float>();
      copy_banded_f32(b1, btGm[uint64_t(n0) * k + k0], tn, tk, k);
      qB1.EnQue(b1);
      a1 = qA1.DeQue<float>();
      b1 = qB1.DeQue<float>();
      LocalTensor<float> a2 = qA2.AllocTensor<float>();
      for (uint32_t i = 0; i < m1; ++i) {  // band i of A: its k1 fractals, as they are
        LoadData(a2[i * k1 * kFractalFloats], a1, LoadData2DParams(uint16_t(i * k1), uint8_t(k1), 1, 0, 0, false, 0));
      }
      LocalTensor<float> b2 = qB2.AllocTensor<float>();
      for (uint32_t j = 0; j < k1; ++j) {  // L0B row j: fractal j of every band of Bt
        LoadData(b2[j * n1 * kFractalFloats], b1, LoadData2DParams(uint16_t(j), uint8_t(n1), uint16_t(k1), 0, 0, false, 0));
      }
      qA1.FreeTensor(a1);
      qB1.FreeTensor(b1);
      qA2.EnQue(a2);
      qB2.EnQue(b2);
      a2 = qA2.DeQue<float>();
      b2 = qB2.DeQue<float>();
      MmadParams p;
      p.m = uint16_t(tm);
      p.n = uint16_t(tn);
      p.k = uint16_t(tk);
      p.cmatrixInitVal = k0 == 0;
      Mmad(c, a2, b2, p);
      qA2.FreeTensor(a2);
      qB2.FreeTensor(b2);
    }
    qCO1.EnQue(c);
    c = qCO1.DeQue<float>();
    FixpipeParamsV220 f;
    f.mSize = uint16_t(tm);
    f.nSize = uint16_t(tn);
    f.srcStride = uint16_t(m1 * kRows);
    f.dstStride = n;
    f.quantPre = NoQuant;
    Fixpipe(yGm[uint64_t(m0) * n + n0], c, f);
    qCO1.FreeTensor(c);
  }
}

}  // namespace cube_f32_cpp
}  // namespace

void cube_matmul_f32(GM_ADDR a, GM_ADDR bt, GM_ADDR y, uint32_t m, uint32_t n, uint32_t k) {
  cube_f32_cpp::cube_f32_kernel(a, bt, y, m, n, k);
}

}  // namespace npuvp::onnx
