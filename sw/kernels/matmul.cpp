// The single-core matmul, written as an Ascend C programmer writes one: TPipe and TQues for
// every level, so the pipes overlap (MTE2 fetches the next A block while MTE1 feeds L0 and
// the cube computes; FixPipe drains one L0C tile while the next accumulates).
//
// Tiling, chosen so the cube — not MTE2 or MTE1 — is the busy unit (issue 4):
//  - C is computed in 128 x 128 tiles, double-buffered in L0C;
//  - K goes in steps of 128: one L1 block per step is exactly one L0A/L0B tile, so each
//    feeds L0 with a single LoadData (MTE1 pays its start cost once per tile, not per row);
//  - the B panel (all of K for 128 columns of C) stays in L1 while every row tile of A passes
//    by, so GM traffic per C tile is only A's row panel. When K is too deep for L1, B blocks
//    stream per tile like A's.
//
// Layouts (models/aicore/isa.h): Nd2Nz writes each band of 16 rows as one "matrix", so A's
// block lands in L1 already in L0A's ZZ fractal order ((m1, k1) at m1 * K1 + k1) and B's in
// ZN order ((k1, n1) at k1 * N1 + n1); LoadData copies A's as is and transposes B's fractals.
#include "sw/kernels/matmul.h"
#include "sw/kernels/matmul_tile.h"

#include <algorithm>

namespace npuvp::kernels {

using namespace AscendC;

namespace {
using matmul_tile::ceil_div;
using matmul_tile::copy_banded;
using matmul_tile::kBuffers;
using matmul_tile::kFractal;
using matmul_tile::round_up;

constexpr uint32_t kTile = 128;  // C tile edge, and the K step
constexpr uint32_t kTileBytes = kTile * kTile * sizeof(half);

template <class CT>
class KernelMatmul {
 public:
  KernelMatmul(GM_ADDR a, GM_ADDR b, GM_ADDR c, MatmulShape s) : s_(s), k_steps_(ceil_div(s.k, kTile)) {
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), uint64_t(s.m) * s.k);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), uint64_t(s.k) * s.n);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ CT*>(c), uint64_t(s.m) * s.n);
    pipe.InitBuffer(qA1, kBuffers, kTileBytes);
    pipe.InitBuffer(qA2, kBuffers, kTileBytes);
    pipe.InitBuffer(qB2, kBuffers, kTileBytes);
    pipe.InitBuffer(qCO1, kBuffers, kTile * kTile * sizeof(float));
    // The B panel stays resident when it fits beside A's two blocks.
    resident_ = uint64_t(k_steps_) * kTileBytes <= pipe.FreeBytes(TPosition::B1);
    if (resident_) {
      pipe.InitBuffer(panel_, k_steps_ * kTileBytes);
      panel_ready_ = pipe.next_event_id(HardEvent::MTE2_MTE1);
      panel_free_ = pipe.next_event_id(HardEvent::MTE1_MTE2);
    } else {
      pipe.InitBuffer(qB1, kBuffers, kTileBytes);
    }
  }

  // Blocks share the work by column panels: block b takes panels b, b + blockDim, ...
  void Process() {
    const uint32_t first = static_cast<uint32_t>(GetBlockIdx()) * kTile;
    const uint32_t step_n = static_cast<uint32_t>(GetBlockNum()) * kTile;
    for (uint32_t n0 = first; n0 < s_.n; n0 += step_n) {
      const uint32_t n = std::min(kTile, s_.n - n0);
      if (resident_) LoadPanel(n0, n, n0 == first);
      for (uint32_t m0 = 0; m0 < s_.m; m0 += kTile) {
        const uint32_t m = std::min(kTile, s_.m - m0);
        LocalTensor<float> c = qCO1.AllocTensor<float>();
        for (uint32_t step = 0; step < k_steps_; ++step) {
          const uint32_t k0 = step * kTile, k = std::min(kTile, s_.k - k0);
          CopyInA(m0, k0, m, k);
          // The first row tile is the first reader of each panel block: it waits for it.
          if (resident_ && m0 == 0) WaitFlag<HardEvent::MTE2_MTE1>(panel_ready_);
          Compute(c, step, n0, m, n, k);
        }
        qCO1.EnQue(c);
        CopyOut(m0, n0, m, n);
      }
      if (resident_) SetFlag<HardEvent::MTE1_MTE2>(panel_free_);  // after the panel's last LoadData
    }
    if (resident_ && first < s_.n) WaitFlag<HardEvent::MTE1_MTE2>(panel_free_);  // leave no flag pending
  }

 private:
  // The B panel: K x n for columns n0.., one banded block per K step, each announced to MTE1.
  void LoadPanel(uint32_t n0, uint32_t n, bool first_panel) {
    if (!first_panel) WaitFlag<HardEvent::MTE1_MTE2>(panel_free_);
    LocalTensor<half> panel = panel_.Get<half>();
    for (uint32_t step = 0; step < k_steps_; ++step) {
      const uint32_t k0 = step * kTile, k = std::min(kTile, s_.k - k0);
      copy_banded(panel[step * kTileBytes / sizeof(half)], bGm[uint64_t(k0) * s_.n + n0], k, n, s_.n);
      SetFlag<HardEvent::MTE2_MTE1>(panel_ready_);
    }
  }

  void CopyInA(uint32_t m0, uint32_t k0, uint32_t m, uint32_t k) {
    LocalTensor<half> a1 = qA1.AllocTensor<half>();
    copy_banded(a1, aGm[uint64_t(m0) * s_.k + k0], m, k, s_.k);
    qA1.EnQue(a1);
  }

  // One K step: A's block and B's block to L0 with one LoadData each, then the cube.
  void Compute(LocalTensor<float>& c, uint32_t step, uint32_t n0, uint32_t m, uint32_t n, uint32_t k) {
    const uint32_t m1 = ceil_div(m, kFractal), n1 = ceil_div(n, kFractal), k1 = ceil_div(k, kFractal);
    LocalTensor<half> a1 = qA1.DeQue<half>();
    LocalTensor<half> a2 = qA2.AllocTensor<half>();
    LoadData(a2, a1, LoadData2DParams(0, m1 * k1, 1, 0, 0, false, 0));
    qA2.EnQue(a2);
    qA1.FreeTensor(a1);

    LocalTensor<half> b1;
    if (resident_) {
      b1 = panel_.Get<half>()[step * kTileBytes / sizeof(half)];
    } else {
      b1 = qB1.AllocTensor<half>();
      copy_banded(b1, bGm[uint64_t(step) * kTile * s_.n + n0], k, n, s_.n);
      qB1.EnQue(b1);
      b1 = qB1.DeQue<half>();
    }
    LocalTensor<half> b2 = qB2.AllocTensor<half>();
    LoadData(b2, b1, LoadData2DParams(0, k1 * n1, 1, 0, 0, true, 0));
    qB2.EnQue(b2);
    if (!resident_) qB1.FreeTensor(b1);

    a2 = qA2.DeQue<half>();
    b2 = qB2.DeQue<half>();
    MmadParams p;
    p.m = m;
    p.n = n;
    p.k = k;
    p.cmatrixInitVal = step == 0;
    Mmad(c, a2, b2, p);
    qA2.FreeTensor(a2);
    qB2.FreeTensor(b2);
  }

  // L0C NZ -> GM ND, converting to CT.
  void CopyOut(uint32_t m0, uint32_t n0, uint32_t m, uint32_t n) {
    LocalTensor<float> c = qCO1.DeQue<float>();
    FixpipeParamsV220 p;
    p.mSize = m;
    p.nSize = n;
    p.srcStride = round_up(m, kFractal);
    p.dstStride = s_.n;
    p.quantPre = std::is_same<CT, half>::value ? F322F16 : NoQuant;
    Fixpipe(cGm[uint64_t(m0) * s_.n + n0], c, p);
    qCO1.FreeTensor(c);
  }

  MatmulShape s_;
  uint32_t k_steps_;
  bool resident_ = false;
  int32_t panel_ready_ = 0, panel_free_ = 0;
  TPipe pipe;
  TQue<TPosition::A1, kBuffers> qA1;
  TQue<TPosition::B1, kBuffers> qB1;
  TQue<TPosition::A2, kBuffers> qA2;
  TQue<TPosition::B2, kBuffers> qB2;
  TQue<TPosition::CO1, kBuffers> qCO1;
  TBuf<TPosition::B1> panel_;
  GlobalTensor<half> aGm, bGm;
  GlobalTensor<CT> cGm;
};
}  // namespace

// int8: one L0 tile per L1 block (K0 = 32 elements per 32 B block).
using matmul_tile::kBaseM;
using matmul_tile::kBaseN;
using matmul_tile::kBlockK;
class KernelMatmulInt8 {
 public:
  KernelMatmulInt8(GM_ADDR a, GM_ADDR bt, GM_ADDR c, MatmulShape s) : s_(s) {
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t*>(a), uint64_t(s.m) * s.k);
    btGm.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t*>(bt), uint64_t(s.n) * s.k);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(c), uint64_t(s.m) * s.n);
    pipe.InitBuffer(qA1, kBuffers, kBaseM * kBlockK);
    pipe.InitBuffer(qB1, kBuffers, kBlockK * kBaseN);
    pipe.InitBuffer(qA2, kBuffers, kBaseM * kBlockK);
    pipe.InitBuffer(qB2, kBuffers, kBlockK * kBaseN);
    pipe.InitBuffer(qCO1, kBuffers, kBaseM * kBaseN * sizeof(int32_t));
  }

  void Process() {
    for (uint32_t m0 = 0; m0 < s_.m; m0 += kBaseM) {
      for (uint32_t n0 = 0; n0 < s_.n; n0 += kBaseN) {
        const uint32_t m = std::min(kBaseM, s_.m - m0), n = std::min(kBaseN, s_.n - n0);
        LocalTensor<int32_t> c = qCO1.AllocTensor<int32_t>();
        for (uint32_t k0 = 0; k0 < s_.k; k0 += kBlockK) {
          const uint32_t k = std::min(kBlockK, s_.k - k0);
          LocalTensor<int8_t> a1 = qA1.AllocTensor<int8_t>();
          DataCopy(a1, aGm[uint64_t(m0) * s_.k + k0], Nd2NzParams(1, m, k, 0, s_.k, round_up(m, kFractal), 1, 0));
          qA1.EnQue(a1);
          LocalTensor<int8_t> b1 = qB1.AllocTensor<int8_t>();
          DataCopy(b1, btGm[uint64_t(n0) * s_.k + k0], Nd2NzParams(1, n, k, 0, s_.k, round_up(n, kFractal), 1, 0));
          qB1.EnQue(b1);
          matmul_tile::multiply_int8_from_l1(c, qA1, qB1, qA2, qB2, m, n, k, k0 == 0);
        }
        qCO1.EnQue(c);
        c = qCO1.DeQue<int32_t>();
        FixpipeParamsV220 p;
        p.mSize = m;
        p.nSize = n;
        p.srcStride = round_up(m, kFractal);
        p.dstStride = s_.n;
        Fixpipe(cGm[uint64_t(m0) * s_.n + n0], c, p);
        qCO1.FreeTensor(c);
      }
    }
  }

 private:
  MatmulShape s_;
  TPipe pipe;
  TQue<TPosition::A1, kBuffers> qA1;
  TQue<TPosition::B1, kBuffers> qB1;
  TQue<TPosition::A2, kBuffers> qA2;
  TQue<TPosition::B2, kBuffers> qB2;
  TQue<TPosition::CO1, kBuffers> qCO1;
  GlobalTensor<int8_t> aGm, btGm;
  GlobalTensor<int32_t> cGm;
};

void matmul_int8_a2(GM_ADDR a, GM_ADDR bt, GM_ADDR c, MatmulShape shape) {
  KernelMatmulInt8 op(a, bt, c, shape);
  op.Process();
}

template <class CT>
void matmul_a2(GM_ADDR a, GM_ADDR b, GM_ADDR c, MatmulShape shape) {
  KernelMatmul<CT> op(a, b, c, shape);
  op.Process();
}

template void matmul_a2<float>(GM_ADDR, GM_ADDR, GM_ADDR, MatmulShape);
template void matmul_a2<half>(GM_ADDR, GM_ADDR, GM_ADDR, MatmulShape);

}  // namespace npuvp::kernels
