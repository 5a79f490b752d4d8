// conv2d as an Ascend C kernel on one A2 core. Stages, each ordered by flags:
//   1. NCHW -> NC1HWC0 in L1: per 16-channel block, the channel rows come into UB, each block
//      of 16 positions is gathered (UB -> UB) into a 16 x 16 tile, transposed by the vector
//      unit, and copied to L1 (UB -> L1) where position p of block c1 holds its 16 channels.
//   2. Weights: Nd2Nz of [cout][K] gives L1 fractals that are already L0B's ZN order.
//   3. Bias: GM -> L1 -> BiasTable.
//   4. Per tile of up to 128 output positions (fewer when K is large, to fit L0A): LoadData3D (img2col) into L0A, Mmad with the bias,
//      Fixpipe (ReLU, NZ -> ND) to GM.
#include "sw/kernels/conv2d.h"

#include <algorithm>

#include "models/aicore/ai_core.h"

namespace npuvp::kernels {

using namespace AscendC;

namespace {
constexpr uint32_t kMaxTileM = 128, kFractal = 16;
constexpr uint32_t kL0ABytes = 64 * 1024;  // L0A on every product
uint32_t round_up(uint32_t a, uint32_t b) { return (a + b - 1) / b * b; }

class KernelConv2d {
 public:
  KernelConv2d(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y, Conv2dShape s, bool relu)
      : s_(s), relu_(relu), hw_(s.h * s.w), hwp_(round_up(hw_, kFractal)), k_(s.k()),
        coutp_(round_up(s.cout, kFractal)), positions_(s.out_h() * s.out_w()),
        tile_m_(std::min(kMaxTileM, kL0ABytes / (k_ * uint32_t(sizeof(half))) / kFractal * kFractal)) {
    if (tile_m_ == 0) npuvp::ascendc::core().fail("conv2d_a2", "C1 * kh * kw * 16 is too large for one L0A tile");
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(x), uint64_t(s.c) * hw_);
    wGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(weight), uint64_t(s.cout) * k_);
    biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bias), coutp_);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), uint64_t(positions_) * s.cout);
    pipe.InitBuffer(fmap, s.c1() * hwp_ * kFractal * sizeof(half));          // L1: NC1HWC0
    pipe.InitBuffer(wL1, coutp_ * k_ * sizeof(half));                          // L1: weights NZ
    pipe.InitBuffer(biasL1, coutp_ * sizeof(float));                           // L1: bias
    pipe.InitBuffer(rows, kFractal * hwp_ * sizeof(half));                     // UB: 16 channel rows
    pipe.InitBuffer(tile, 2 * 256 * sizeof(half));                             // UB: gathered, transposed
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
    LocalTensor<half> r = rows.Get<half>(), t = tile.Get<half>(), l1 = fmap.Get<half>();
    for (uint32_t c1 = 0; c1 < s_.c1(); ++c1) {
      // Channel rows of this block; rows of channels >= c are left as they are (img2col reads
      // pad_value for them), and positions past h * w hold the next row's data (never read).
      for (uint32_t i = 0; i < kFractal && c1 * kFractal + i < s_.c; ++i) {
        DataCopy(r[i * hwp_], xGm[uint64_t(c1 * kFractal + i) * hw_], hwp_);
      }
      SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
      WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
      for (uint32_t p0 = 0; p0 < hwp_; p0 += kFractal) {
        DataCopy(t, r[p0], DataCopyParams(kFractal, 1, static_cast<uint16_t>(hwp_ / kFractal - 1), 0));
        Transpose(t[256], t);  // [channel][position] -> [position][channel]
        SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
        WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
        // NC1HWC0 blocks are h * w positions apart; a last partial 16-position block spills
        // into the next c1 block, which is written after it (MTE3 is in order).
        DataCopy(l1[(c1 * hw_ + p0) * kFractal], t[256], 256);
        SetFlag<HardEvent::MTE3_V>(EVENT_ID0);  // the tile is free again
        WaitFlag<HardEvent::MTE3_V>(EVENT_ID0);
      }
      SetFlag<HardEvent::V_MTE2>(EVENT_ID0);  // the rows are free again
      WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);
    }
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
    LoadData3DParamsV2<half> p;
    p.padList[0] = p.padList[1] = p.padList[2] = p.padList[3] = static_cast<uint8_t>(s_.pad);
    p.l1H = static_cast<uint16_t>(s_.h);
    p.l1W = static_cast<uint16_t>(s_.w);
    p.channelSize = static_cast<uint16_t>(s_.c);
    p.kExtension = static_cast<uint16_t>(k_);
    p.mExtension = static_cast<uint16_t>(round_up(m, kFractal));
    p.mStartPt = static_cast<uint16_t>(m0);
    p.strideH = p.strideW = static_cast<uint8_t>(s_.stride);
    p.filterH = static_cast<uint8_t>(s_.kh);
    p.filterW = static_cast<uint8_t>(s_.kw);
    p.dilationFilterH = p.dilationFilterW = static_cast<uint8_t>(s_.dilation);
    LoadData(a, l1, p);
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
  uint32_t hw_, hwp_, k_, coutp_, positions_, tile_m_;
  TPipe pipe;
  TBuf<TPosition::A1> fmap, wL1, biasL1;
  TBuf<TPosition::VECCALC> rows, tile;
  TBuf<TPosition::A2> a2;
  TBuf<TPosition::B2> b2;
  TBuf<TPosition::C2> bt;
  TBuf<TPosition::CO1> co1;
  GlobalTensor<half> xGm, wGm;
  GlobalTensor<float> biasGm, yGm;
};
}  // namespace

void conv2d_a2(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y, Conv2dShape shape, bool relu) {
  KernelConv2d op(x, weight, bias, y, shape, relu);
  op.Process();
}

}  // namespace npuvp::kernels
