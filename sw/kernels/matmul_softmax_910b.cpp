// The fused matmul + bias + softmax kernel of a separated chip (see matmul_softmax_910b.h).
//
// Cross-core flags (mode 2, between an AIC and its two AIVs), one pair per workspace slot:
//   kTileReady + s  AIC -> AIVs, set on FIX after the tile's last Fixpipe into slot s;
//   kSlotFree + s   AIVs -> AIC, set on MTE2 after each AIV's last read of slot s (the AIC
//                   counts up once both have set it).
// The AIC waits for kSlotFree on FIX, so the cube already computes the next tile while the
// AIVs still read the slot it is going to overwrite.
#include "sw/kernels/matmul_softmax_910b.h"

#include <algorithm>
#include <fmt/format.h>

#include "models/aicore/ai_core.h"
#include "sw/kernels/matmul_tile.h"
#include "sw/kernels/reduction.h"

namespace npuvp::kernels {

using namespace AscendC;

namespace {
using matmul_tile::ceil_div;
using matmul_tile::copy_banded;
using matmul_tile::kBuffers;
using matmul_tile::kFractal;
using matmul_tile::round_up;

constexpr uint32_t kRowTile = kMatmulSoftmaxRowTile;
constexpr uint32_t kPanel = 128;  // C columns per L0C tile, and the K step
constexpr uint32_t kMaxSlots = 2;
constexpr uint16_t kTileReady = 0;  // + slot
constexpr uint16_t kSlotFree = 2;   // + slot
constexpr uint32_t kFloatsPerBlock = 8;

// Workspace rows are padded to whole 32 B blocks so the AIVs read them with plain DataCopy.
uint32_t workspace_row(uint32_t n) { return round_up(n, kFloatsPerBlock); }
uint32_t tiles_of(const MatmulSoftmaxShape& s) { return ceil_div(s.m, kRowTile); }

// The slot `slot` of block `block`: kRowTile rows of workspace_row(n) floats.
GlobalTensor<float> slot_of(GM_ADDR workspace, const MatmulSoftmaxShape& s, uint32_t block, uint32_t slot) {
  const uint64_t slot_floats = uint64_t(kRowTile) * workspace_row(s.n);
  GlobalTensor<float> t;
  t.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(workspace) + (uint64_t(block) * kMaxSlots + slot) * slot_floats,
                    slot_floats);
  return t;
}

// The AIC: C tiles into the workspace.
class FusedCube {
 public:
  FusedCube(GM_ADDR a, GM_ADDR b, GM_ADDR workspace, MatmulSoftmaxShape s, FusedOptions o)
      : s_(s), o_(o), workspace_(workspace), k_steps_(ceil_div(s.k, kPanel)) {
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), uint64_t(s.m) * s.k);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), uint64_t(s.k) * s.n);
    pipe.InitBuffer(qA1, kBuffers, kRowTile * kPanel * sizeof(half));
    pipe.InitBuffer(qB1, kBuffers, kPanel * kPanel * sizeof(half));
    pipe.InitBuffer(qA2, kBuffers, kRowTile * kPanel * sizeof(half));
    pipe.InitBuffer(qB2, kBuffers, kPanel * kPanel * sizeof(half));
    pipe.InitBuffer(qCO1, kBuffers, kRowTile * kPanel * sizeof(float));
  }

  void Process() {
    const uint32_t block = uint32_t(GetBlockIdx()), blocks = uint32_t(GetBlockNum());
    uint32_t j = 0;  // this block's tile count, which picks the slot
    for (uint32_t t = block; t < tiles_of(s_); t += blocks, ++j) {
      const uint32_t slot = j % o_.slots, m0 = t * kRowTile, m = std::min(kRowTile, s_.m - m0);
      const GlobalTensor<float> ws = slot_of(workspace_, s_, block, slot);
      for (uint32_t n0 = 0; n0 < s_.n; n0 += kPanel) {
        const uint32_t n = std::min(kPanel, s_.n - n0);
        LocalTensor<float> c = qCO1.AllocTensor<float>();
        for (uint32_t step = 0; step < k_steps_; ++step) Multiply(c, m0, n0, step, m, n);
        qCO1.EnQue(c);
        // The slot's previous tile must have been read by both AIVs.
        if (n0 == 0 && j >= o_.slots && o_.aic_waits_for_free_slot) CrossCoreWaitFlag<2, PIPE_FIX>(kSlotFree + slot);
        CopyOut(ws[n0], m, n);
      }
      CrossCoreSetFlag<2, PIPE_FIX>(kTileReady + slot);
    }
    // Take the last frees too, so no counter stays up after the kernel. On FIX like the waits
    // above: one in-order consumer per counter. (A wait on S would run ahead of FIX and could
    // take a free meant for a FIX wait still queued, which deadlocks.)
    if (!o_.aic_waits_for_free_slot) return;
    for (uint32_t left = std::min(j, o_.slots); left > 0; --left) {
      CrossCoreWaitFlag<2, PIPE_FIX>(kSlotFree + (j - left) % o_.slots);
    }
  }

 private:
  // One K step of the m x n tile at (m0, n0): A's and B's blocks to L1 (NZ), L0, the cube.
  void Multiply(LocalTensor<float>& c, uint32_t m0, uint32_t n0, uint32_t step, uint32_t m, uint32_t n) {
    const uint32_t k0 = step * kPanel, k = std::min(kPanel, s_.k - k0);
    const uint32_t m1 = ceil_div(m, kFractal), n1 = ceil_div(n, kFractal), k1 = ceil_div(k, kFractal);
    LocalTensor<half> a1 = qA1.AllocTensor<half>();
    copy_banded(a1, aGm[uint64_t(m0) * s_.k + k0], m, k, s_.k);
    qA1.EnQue(a1);
    LocalTensor<half> b1 = qB1.AllocTensor<half>();
    copy_banded(b1, bGm[uint64_t(k0) * s_.n + n0], k, n, s_.n);
    qB1.EnQue(b1);

    a1 = qA1.DeQue<half>();
    LocalTensor<half> a2 = qA2.AllocTensor<half>();
    LoadData(a2, a1, LoadData2DParams(0, uint8_t(m1 * k1), 1, 0, 0, false, 0));
    qA2.EnQue(a2);
    qA1.FreeTensor(a1);
    b1 = qB1.DeQue<half>();
    LocalTensor<half> b2 = qB2.AllocTensor<half>();
    LoadData(b2, b1, LoadData2DParams(0, uint8_t(k1 * n1), 1, 0, 0, true, 0));
    qB2.EnQue(b2);
    qB1.FreeTensor(b1);

    a2 = qA2.DeQue<half>();
    b2 = qB2.DeQue<half>();
    MmadParams p;
    p.m = uint16_t(m);
    p.n = uint16_t(n);
    p.k = uint16_t(k);
    p.cmatrixInitVal = step == 0;
    Mmad(c, a2, b2, p);
    qA2.FreeTensor(a2);
    qB2.FreeTensor(b2);
  }

  // L0C (NZ, f32) -> the slot's rows (ND, f32, row pitch workspace_row(n)).
  void CopyOut(const GlobalTensor<float>& dst, uint32_t m, uint32_t n) {
    LocalTensor<float> c = qCO1.DeQue<float>();
    FixpipeParamsV220 p;
    p.mSize = uint16_t(m);
    p.nSize = uint16_t(n);
    p.srcStride = uint16_t(round_up(m, kFractal));
    p.dstStride = workspace_row(s_.n);
    p.quantPre = NoQuant;
    Fixpipe(dst, c, p);
    qCO1.FreeTensor(c);
  }

  MatmulSoftmaxShape s_;
  FusedOptions o_;
  GM_ADDR workspace_;
  uint32_t k_steps_;
  TPipe pipe;
  TQue<TPosition::A1, kBuffers> qA1;
  TQue<TPosition::B1, kBuffers> qB1;
  TQue<TPosition::A2, kBuffers> qA2;
  TQue<TPosition::B2, kBuffers> qB2;
  TQue<TPosition::CO1, kBuffers> qCO1;
  GlobalTensor<half> aGm, bGm;
};

// An AIV: its half of each tile's rows, from the workspace to Y.
class FusedEpilogue {
 public:
  FusedEpilogue(GM_ADDR bias, GM_ADDR y, GM_ADDR workspace, MatmulSoftmaxShape s, FusedOptions o)
      : s_(s), o_(o), workspace_(workspace), row_(workspace_row(s.n)) {
    biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bias), s.n);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), uint64_t(s.m) * s.n);
    pipe.InitBuffer(inQueue, kBuffers, row_ * sizeof(float));
    pipe.InitBuffer(outQueue, kBuffers, row_ * sizeof(float));
    pipe.InitBuffer(biasBuf, row_ * sizeof(float));
    pipe.InitBuffer(sumBuf, row_ * sizeof(float));
    pipe.InitBuffer(work, row_ * sizeof(float));
    pipe.InitBuffer(result, 64);  // the reductions' scalars
  }

  void Process() {
    LoadBias();
    const uint32_t block = uint32_t(GetBlockIdx() / GetTaskRation()), blocks = uint32_t(GetBlockNum());
    const bool second = GetSubBlockIdx() == 1;
    uint32_t j = 0;
    for (uint32_t t = block; t < tiles_of(s_); t += blocks, ++j) {
      const uint32_t slot = j % o_.slots, m0 = t * kRowTile, m = std::min(kRowTile, s_.m - m0);
      const uint32_t half_rows = (m + 1) / 2, r0 = second ? half_rows : 0, r1 = second ? m : half_rows;
      const GlobalTensor<float> ws = slot_of(workspace_, s_, block, slot);
      if (o_.aivs_wait_for_tile) CrossCoreWaitFlag(kTileReady + slot);
      for (uint32_t r = r0; r < r1; ++r) {
        CopyIn(ws[uint64_t(r) * row_]);
        Compute();
        CopyOut(m0 + r);
      }
      // After this AIV's last read of the slot (an AIV with no rows still answers: mode 2
      // counts the AIC up only once both AIVs have set).
      CrossCoreSetFlag<2, PIPE_MTE2>(kSlotFree + slot);
    }
  }

 private:
  // bias -> UB: whole 32 B blocks by MTE2, a shorter tail by the scalar unit (a DataCopy
  // would round the count down, SPEC.md §1.5).
  void LoadBias() {
    LocalTensor<float> bias = biasBuf.Get<float>();
    const uint32_t whole = s_.n / kFloatsPerBlock * kFloatsPerBlock;
    if (whole > 0) DataCopy(bias, biasGm, whole);
    for (uint32_t j = whole; j < s_.n; ++j) bias.SetValue(j, biasGm.GetValue(j));
    PipeBarrier<PIPE_ALL>();
  }

  void CopyIn(const GlobalTensor<float>& row) {
    LocalTensor<float> x = inQueue.AllocTensor<float>();
    DataCopy(x, row, row_);
    inQueue.EnQue(x);
  }

  // y = exp(x + bias - max) / sum, in the order matmul_softmax_reference.h reproduces.
  void Compute() {
    LocalTensor<float> x = inQueue.DeQue<float>();
    LocalTensor<float> y = outQueue.AllocTensor<float>();
    LocalTensor<float> tmp = work.Get<float>(), sums = sumBuf.Get<float>(), r = result.Get<float>();
    const int32_t n = int32_t(s_.n);
    Add(x, x, biasBuf.Get<float>(), n);
    ReduceMax(r, x, tmp, n);
    const float max = read_reduction(r);
    Adds(x, x, -max, n);
    Exp(x, x, n);
    ReduceSum(r, x, tmp, n);
    const float sum = read_reduction(r);
    Duplicate(sums, sum, n);
    Div(y, x, sums, n);
    outQueue.EnQue(y);
    inQueue.FreeTensor(x);
  }

  // Y's rows are packed (pitch N), so a row's last partial 32 B block goes by scalar stores.
  void CopyOut(uint32_t row) {
    LocalTensor<float> y = outQueue.DeQue<float>();
    const uint32_t whole = s_.n / kFloatsPerBlock * kFloatsPerBlock;
    const uint64_t start = uint64_t(row) * s_.n;
    if (whole > 0) DataCopy(yGm[start], y, whole);
    if (whole < s_.n) {
      SetFlag<HardEvent::V_S>(EVENT_ID1);
      WaitFlag<HardEvent::V_S>(EVENT_ID1);
      for (uint32_t j = whole; j < s_.n; ++j) yGm.SetValue(start + j, y.GetValue(j));
    }
    outQueue.FreeTensor(y);
  }

  MatmulSoftmaxShape s_;
  FusedOptions o_;
  GM_ADDR workspace_;
  uint32_t row_;  // floats per workspace row
  TPipe pipe;
  TQue<TPosition::VECIN, kBuffers> inQueue;
  TQue<TPosition::VECOUT, kBuffers> outQueue;
  TBuf<TPosition::VECCALC> biasBuf, sumBuf, work, result;
  GlobalTensor<float> biasGm, yGm;
};
}  // namespace

uint64_t matmul_softmax_910b_workspace_bytes(MatmulSoftmaxShape shape, uint32_t blocks) {
  return uint64_t(blocks) * kMaxSlots * kRowTile * workspace_row(shape.n) * sizeof(float);
}

void matmul_softmax_910b(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace, MatmulSoftmaxShape shape,
                         FusedOptions options) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  constexpr const char* kName = "matmul_softmax_910b";
  if (ASCEND_IS_AIC && ASCEND_IS_AIV) {
    npuvp::ascendc::core().fail(kName, "needs a separated chip (an AIC and two AIVs per AI Core), e.g. ascend910b");
  }
  if (GetSubBlockNum() != 2) {
    npuvp::ascendc::core().fail(kName, fmt::format("needs one AIC and two AIVs per block (a KERNEL_TYPE_MIX_AIC_1_2 "
                                                   "launch, platform.aiv_per_core=2); GetSubBlockNum() is {}",
                                                   GetSubBlockNum()));
  }
  if (shape.m == 0 || shape.k == 0 || shape.n == 0 || shape.n > kMatmulSoftmaxMaxN) {
    npuvp::ascendc::core().fail(kName, "M and K must be at least 1 and N in [1, 4096]");
  }
  if (options.slots < 1 || options.slots > kMaxSlots) npuvp::ascendc::core().fail(kName, "slots must be 1 or 2");
  if (ASCEND_IS_AIC) {
    FusedCube op(a, b, workspace, shape, options);
    op.Process();
  } else {
    FusedEpilogue op(bias, y, workspace, shape, options);
    op.Process();
  }
}

}  // namespace npuvp::kernels
