// conv2d on a coupled Ascend 910 core, which has no UB -> L1 path, no ND2NZ, no BiasTable and
// no FixPipe. Three phases, each in its own TPipe, separated by PipeBarrier<PIPE_ALL>:
//   1. layout: NCHW -> NC1HWC0 by the A2 kernel's transposes (conv2d_layout.h), written to a
//              GM workspace instead of L1;
//   2. conv:   feature map GM -> L1; weights [cout][K] GM -> L1 NZ by strided DataCopy (K is a
//              multiple of 16, so the rows are whole 32 B blocks and need no padding) and on to
//              L0B once; then per tile of output positions, double-buffered through TQues:
//              LoadData3D (img2col) -> L0A (MTE1), Mmad from zero -> L0C (M), L0C -> UB in
//              matrix mode, bias Add and Relu (V), UB -> Yp[P][Coutp] in GM (MTE3);
//   3. unpad:  Yp -> y[P][cout] (cube_910.h).
// The bias is one f32 addition to the finished sum, where A2 starts the sum at it: the two
// products round differently (conv2d_reference.h).
//
// The bias Add: in UB the tile is NZ, fractal column j a run of 16-float rows that all take
// bias[16j .. 16j + 15]. A repeat covers 4 such rows, so the bias is laid out 4 times over per
// column (64 floats) and read with repeat stride 0.
#include <algorithm>

#include "models/aicore/ai_core.h"
#include "sw/kernels/conv2d.h"
#include "sw/kernels/conv2d_layout.h"
#include "sw/kernels/cube_910.h"

namespace npuvp::kernels {

using namespace AscendC;

namespace {
namespace conv2d_910_cpp {  // named after the file: unity batches share anonymous namespaces
using conv2d_layout::kC0;
using cube_910::round_up;

constexpr int32_t kBuffers = 2;
constexpr uint32_t kL0ABytes = 64 * 1024;  // L0A on every product
constexpr uint32_t kFractal = 16;
constexpr uint32_t kBiasRowsPerRepeat = 4;  // 16-float rows in one 256 B repeat

class KernelConv2d910 {
 public:
  KernelConv2d910(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y, GM_ADDR ws, Conv2dShape s, bool relu)
      : s_(s), relu_(relu), hw_(s.h * s.w), k_(s.k()), coutp_(round_up(s.cout, kFractal)),
        positions_(s.out_h() * s.out_w()), tile_m_(conv2d_layout::tile_positions(k_, kL0ABytes / kBuffers)) {
    if (tile_m_ == 0) npuvp::ascendc::core().fail("conv2d_910", "C1 * kh * kw * 16 is too large for an L0A tile");
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(x), uint64_t(s.c) * hw_);
    wGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(weight), uint64_t(s.cout) * k_);
    biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bias), coutp_);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), uint64_t(positions_) * s.cout);
    auto* w = reinterpret_cast<__gm__ uint8_t*>(ws);
    fmapGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(w), fmap_elems(s));
    ypGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(w + yp_offset(s)), uint64_t(positions_) * coutp_);
  }

  // The feature map in NC1HWC0, and the slack a last partial block of positions spills into.
  static uint64_t fmap_elems(const Conv2dShape& s) { return (uint64_t(s.c1()) * s.h * s.w + 15) * kC0; }
  static uint64_t yp_offset(const Conv2dShape& s) { return round_up(uint32_t(fmap_elems(s) * sizeof(half)), 512); }

  void Process() {
    {
      TPipe pipe;
      TBuf<TPosition::VECCALC> rows, tile;
      pipe.InitBuffer(rows, kC0 * round_up(hw_, kC0) * sizeof(half));
      pipe.InitBuffer(tile, 2 * 256 * sizeof(half));
      conv2d_layout::nchw_to_nc1hwc0(fmapGm, xGm, s_, rows.Get<half>(), tile.Get<half>());
    }
    Conv();
    PipeBarrier<PIPE_ALL>();
    TPipe pipe;
    cube_910::RowCopier<float> rows(pipe, coutp_);
    for (uint32_t p = 0; p < positions_; ++p) {
      rows.Unpad(yGm[uint64_t(p) * s_.cout], ypGm[uint64_t(p) * coutp_], s_.cout, coutp_);
    }
  }

 private:
  void Conv() {
    TPipe pipe;
    pipe.InitBuffer(fmap, s_.c1() * hw_ * kC0 * sizeof(half));                     // L1: NC1HWC0
    pipe.InitBuffer(wL1, coutp_ * k_ * sizeof(half));                               // L1: weights NZ
    pipe.InitBuffer(b2, coutp_ * k_ * sizeof(half));                                // L0B: weights ZN
    pipe.InitBuffer(biasUb, coutp_ * kBiasRowsPerRepeat * sizeof(float));           // UB: bias x 4
    pipe.InitBuffer(qA2, kBuffers, tile_m_ * k_ * sizeof(half));                    // L0A: img2col
    pipe.InitBuffer(qCO1, kBuffers, tile_m_ * coutp_ * sizeof(float));              // L0C
    pipe.InitBuffer(qCO2, kBuffers, tile_m_ * coutp_ * sizeof(float));              // UB
    LoadOperands();
    LocalTensor<half> l1 = fmap.Get<half>(), w = b2.Get<half>();
    for (uint32_t m0 = 0; m0 < positions_; m0 += tile_m_) {
      const uint32_t m = std::min(tile_m_, positions_ - m0);
      LocalTensor<half> a = qA2.AllocTensor<half>();
      LoadData(a, l1, conv2d_layout::img2col_params(s_, m0, m));
      qA2.EnQue(a);
      a = qA2.DeQue<half>();
      LocalTensor<float> c = qCO1.AllocTensor<float>();
      MmadParams mp;
      mp.m = static_cast<uint16_t>(m);
      mp.n = static_cast<uint16_t>(s_.cout);
      mp.k = static_cast<uint16_t>(k_);
      Mmad(c, a, w, mp);
      qA2.FreeTensor(a);
      qCO1.EnQue(c);
      cube_910::drain_l0c_tile<float, float>(qCO1, qCO2, ypGm[uint64_t(m0) * coutp_], coutp_, m, s_.cout,
                                             [this](LocalTensor<float>& u, uint32_t m1, uint32_t n1) {
                                               BiasAndRelu(u, m1, n1);
                                             });
    }
  }

  // Feature map and weights into L1, the weights on into L0B, the bias into UB.
  void LoadOperands() {
    LocalTensor<half> l1 = fmap.Get<half>(), w = wL1.Get<half>(), b = b2.Get<half>();
    DataCopy(l1, fmapGm, s_.c1() * hw_ * kC0);
    // [cout][K] -> NZ with Coutp rows per column of fractals: fractal (n1, k1) at
    // (k1 * N1 + n1) * 512, (n, k) row-major inside, which is L0B's ZN fractal (k1, n1) of W^T.
    cube_910::copy_nz_tile(w, wGm, s_.cout, k_, k_);
    LocalTensor<float> bias = biasUb.Get<float>();
    const uint32_t n1 = coutp_ / kFractal;
    for (uint32_t r = 0; r < kBiasRowsPerRepeat; ++r) {  // column j's 16 values at j * 64 + r * 16
      DataCopy(bias[r * kFractal], biasGm, DataCopyParams(static_cast<uint16_t>(n1), 2, 0, 6));
    }
    PipeBarrier<PIPE_ALL>();
    const uint32_t fractals = (k_ / kFractal) * n1;
    for (uint32_t f = 0; f < fractals; f += 255) {
      LoadData(b[f * 256], w,
               LoadData2DParams(static_cast<uint16_t>(f), static_cast<uint8_t>(std::min(255u, fractals - f)), 1, 0, 0,
                                false, 0));
    }
    PipeBarrier<PIPE_ALL>();
  }

  // On the V pipe, in order after the matrix-mode copy of the tile (m1 x n1 fractals, NZ).
  void BiasAndRelu(LocalTensor<float>& u, uint32_t m1, uint32_t n1) {
    LocalTensor<float> bias = biasUb.Get<float>();
    const uint32_t repeats = m1 * 256 / 64;  // one fractal column, 64 floats per repeat
    for (uint32_t j = 0; j < n1; ++j) {
      Add(u[j * m1 * 256], u[j * m1 * 256], bias[j * kFractal * kBiasRowsPerRepeat], 64, repeats,
          BinaryRepeatParams(1, 1, 1, 8, 8, 0));
    }
    if (relu_) Relu(u, u, static_cast<int32_t>(m1 * n1 * 256));
  }

  Conv2dShape s_;
  bool relu_;
  uint32_t hw_, k_, coutp_, positions_, tile_m_;
  TBuf<TPosition::A1> fmap, wL1;
  TBuf<TPosition::B2> b2;
  TBuf<TPosition::VECCALC> biasUb;
  TQue<TPosition::A2, kBuffers> qA2;
  TQue<TPosition::CO1, kBuffers> qCO1;
  TQue<TPosition::CO2, kBuffers> qCO2;
  GlobalTensor<half> xGm, wGm, fmapGm;
  GlobalTensor<float> biasGm, yGm, ypGm;
};
}  // namespace conv2d_910_cpp
}  // namespace

uint64_t conv2d_910_workspace_bytes(const Conv2dShape& s) {
  return conv2d_910_cpp::KernelConv2d910::yp_offset(s) + uint64_t(s.out_h()) * s.out_w() * conv2d_910_cpp::round_up(s.cout, conv2d_910_cpp::kFractal) * sizeof(float);
}

void conv2d_910(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace, Conv2dShape shape, bool relu) {
  conv2d_910_cpp::KernelConv2d910 op(x, weight, bias, y, workspace, shape, relu);
  op.Process();
}

}  // namespace npuvp::kernels
