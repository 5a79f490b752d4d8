// conv2d as an Ascend C kernel on one A2 core. Stages, each ordered by flags:
//   1. NCHW -> NC1HWC0 in L1 (conv2d_layout.h, shared with the 910 kernel): per 16-channel
//      block, the channel rows come into UB, each block of 16 positions is gathered (UB -> UB)
//      into a 16 x 16 tile, transposed by the vector unit, and copied to L1 (UB -> L1) where
//      position p of block c1 holds its 16 channels.
//   2. Weights: Nd2Nz of [cout][K] gives L1 fractals that are already L0B's ZN order.
//   3. Bias: GM -> L1 -> BiasTable.
//   4. Per tile of up to 128 output positions (fewer when K is large, to fit L0A): LoadData3D
//      (img2col) into L0A, Mmad starting from the bias, Fixpipe (ReLU, NZ -> ND) to GM.
// On a separated chip (conv2d_a2_mixed) the AIC has no UB, so stage 1 runs on an AIV into a
// GM workspace, and the AIC copies the finished NC1HWC0 map into L1 once its AIVs signal.
#include "sw/kernels/conv2d.h"
#include "sw/kernels/conv2d_layout.h"

#include <algorithm>

#include "models/aicore/ai_core.h"

namespace npuvp::kernels {

using namespace AscendC;

namespace {
namespace conv2d_cpp {  // named after the file: unity batches share anonymous namespaces
constexpr uint32_t kFractal = 16;
constexpr uint32_t kL0ABytes = 64 * 1024;  // L0A on every product
uint32_t round_up(uint32_t a, uint32_t b) { return (a + b - 1) / b * b; }

// The cross-core flag (mode 2) by which the AIVs tell their AIC the feature map is in GM.
constexpr uint16_t kFeatureMapReady = 0;

uint64_t nc1hwc0_halves(const Conv2dShape& s) { return uint64_t(s.c1()) * round_up(s.h * s.w, kFractal) * kFractal; }

class KernelConv2d {
 public:
  // `nc1hwc0` null: the feature map is formatted here through UB; else it is read from that GM
  // (written by an AIV) once the AIVs set kFeatureMapReady.
  KernelConv2d(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y, Conv2dShape s, bool relu,
               GM_ADDR nc1hwc0 = nullptr)
      : s_(s), relu_(relu), hw_(s.h * s.w), hwp_(round_up(hw_, kFractal)), k_(s.k()),
        coutp_(round_up(s.cout, kFractal)), positions_(s.out_h() * s.out_w()),
        tile_m_(conv2d_layout::tile_positions(k_, kL0ABytes)) {
    if (tile_m_ == 0) npuvp::ascendc::core().fail("conv2d_a2", "C1 * kh * kw * 16 is too large for one L0A tile");
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(x), uint64_t(s.c) * hw_);
    wGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(weight), uint64_t(s.cout) * k_);
    biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bias), coutp_);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), uint64_t(positions_) * s.cout);
    pipe.InitBuffer(fmap, s.c1() * hwp_ * kFractal * sizeof(half));          // L1: NC1HWC0
    pipe.InitBuffer(wL1, coutp_ * k_ * sizeof(half));                          // L1: weights NZ
    pipe.InitBuffer(biasL1, coutp_ * sizeof(float));                           // L1: bias
    if (nc1hwc0) {
      fmapGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(nc1hwc0), nc1hwc0_halves(s));
      fmap_in_gm_ = true;
    } else {
      pipe.InitBuffer(rows, kFractal * hwp_ * sizeof(half));                   // UB: 16 channel rows
      pipe.InitBuffer(tile, 2 * 256 * sizeof(half));                           // UB: gathered, transposed
    }
    pipe.InitBuffer(a2, tile_m_ * k_ * sizeof(half));                          // L0A: img2col tile
    pipe.InitBuffer(b2, coutp_ * k_ * sizeof(half));                           // L0B: weights
    pipe.InitBuffer(bt, coutp_ * sizeof(float));                               // BT: bias
    pipe.InitBuffer(co1, tile_m_ * coutp_ * sizeof(float));                    // L0C
  }

  void Process() {
    FeatureMapToL1();
    WeightsAndBias();
    for (uint32_t m0 = 0; m0 < positions_; m0 += tile_m_) Tile(m0, std::min(tile_m_, positions_ - m0));
  }

 private:
  void FeatureMapToL1() {
    if (!fmap_in_gm_) {
      conv2d_layout::nchw_to_nc1hwc0(fmap.Get<half>(), xGm, s_, rows.Get<half>(), tile.Get<half>());
      return;
    }
    CrossCoreWaitFlag(kFeatureMapReady);
    DataCopy(fmap.Get<half>(), fmapGm, static_cast<uint32_t>(nc1hwc0_halves(s_)));
    PipeBarrier<PIPE_ALL>();
  }

  void WeightsAndBias() {
    LocalTensor<half> w = wL1.Get<half>(), b = b2.Get<half>();
    // [cout][K] ND -> NZ: fractal (n1, k1) at (k1 * N1 + n1) * 512 with (n, k) row-major inside,
    // which is L0B's ZN fractal (k1, n1) for B = W^T.
    DataCopy(w, wGm, Nd2NzParams(1, static_cast<uint16_t>(s_.cout), static_cast<uint16_t>(k_), 0,
                                 static_cast<uint16_t>(k_), static_cast<uint16_t>(coutp_), 1, 0));
    LocalTensor<float> bl1 = biasL1.Get<float>(), bbt = bt.Get<float>();
    DataCopy(bl1, biasGm, coutp_);
    PipeBarrier<PIPE_ALL>();
    const uint32_t fractals = (k_ / kFractal) * (coutp_ / kFractal);
    for (uint32_t f = 0; f < fractals; f += 255) {
      LoadData(b[f * 256], w, LoadData2DParams(static_cast<uint16_t>(f), static_cast<uint8_t>(std::min(255u, fractals - f)),
                                               1, 0, 0, false, 0));
    }
    DataCopy(bbt, bl1, DataCopyParams(1, static_cast<uint16_t>(coutp_ * sizeof(float) / 64), 0, 0));
    PipeBarrier<PIPE_ALL>();
  }

  void Tile(uint32_t m0, uint32_t m) {
    LocalTensor<half> a = a2.Get<half>(), b = b2.Get<half>(), l1 = fmap.Get<half>();
    LocalTensor<float> c = co1.Get<float>(), bias = bt.Get<float>();
    LoadData(a, l1, conv2d_layout::img2col_params(s_, m0, m));
    SetFlag<HardEvent::MTE1_M>(EVENT_ID0);
    WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);
    MmadParams mp;
    mp.m = static_cast<uint16_t>(m);
    mp.n = static_cast<uint16_t>(s_.cout);
    mp.k = static_cast<uint16_t>(k_);
    Mmad(c, a, b, bias, mp);
    SetFlag<HardEvent::M_FIX>(EVENT_ID0);
    WaitFlag<HardEvent::M_FIX>(EVENT_ID0);
    FixpipeParamsV220 fp;
    fp.mSize = static_cast<uint16_t>(m);
    fp.nSize = static_cast<uint16_t>(s_.cout);
    fp.srcStride = static_cast<uint16_t>(round_up(m, kFractal));
    fp.dstStride = s_.cout;
    fp.reluEn = relu_;
    Fixpipe(yGm[uint64_t(m0) * s_.cout], c, fp);
    PipeBarrier<PIPE_ALL>();  // L0A and L0C are reused by the next tile
  }

  Conv2dShape s_;
  bool relu_;
  bool fmap_in_gm_ = false;
  uint32_t hw_, hwp_, k_, coutp_, positions_, tile_m_;
  TPipe pipe;
  TBuf<TPosition::A1> fmap, wL1, biasL1;
  TBuf<TPosition::VECCALC> rows, tile;
  TBuf<TPosition::A2> a2;
  TBuf<TPosition::B2> b2;
  TBuf<TPosition::C2> bt;
  TBuf<TPosition::CO1> co1;
  GlobalTensor<half> xGm, wGm, fmapGm;
  GlobalTensor<float> biasGm, yGm;
};
}  // namespace conv2d_cpp
}  // namespace

void conv2d_a2(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y, Conv2dShape shape, bool relu) {
  conv2d_cpp::KernelConv2d op(x, weight, bias, y, shape, relu);
  op.Process();
}

uint64_t conv2d_a2_mixed_workspace_bytes(const Conv2dShape& shape) { return conv2d_cpp::nc1hwc0_halves(shape) * sizeof(half); }

void conv2d_a2_mixed(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace, Conv2dShape shape,
                     bool relu) {
  if (ASCEND_IS_AIV) {
    if (GetSubBlockIdx() == 0) {  // one AIV formats the map; both signal (mode 2 waits for both)
      GlobalTensor<half> xGm, fmapGm;
      xGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(x), uint64_t(shape.c) * shape.h * shape.w);
      fmapGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(workspace), conv2d_cpp::nc1hwc0_halves(shape));
      TPipe pipe;
      TBuf<TPosition::VECCALC> rows, tile;
      pipe.InitBuffer(rows, conv2d_cpp::kFractal * conv2d_cpp::round_up(shape.h * shape.w, conv2d_cpp::kFractal) * sizeof(half));
      pipe.InitBuffer(tile, 2 * 256 * sizeof(half));
      conv2d_layout::nchw_to_nc1hwc0(fmapGm, xGm, shape, rows.Get<half>(), tile.Get<half>());
    }
    CrossCoreSetFlag<2, PIPE_MTE3>(conv2d_cpp::kFeatureMapReady);
    return;
  }
  conv2d_cpp::KernelConv2d op(x, weight, bias, y, shape, relu, workspace);
  op.Process();
}

}  // namespace npuvp::kernels
