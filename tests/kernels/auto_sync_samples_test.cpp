// Issue 22's acceptance check for automatic synchronisation: two kernels written as the
// published Ascend C samples are (TPipe and TQue, DataCopy in, a reduction, GetValue of its
// result right after the vector op, the value used in further vector work, no flag of their
// own around the scalar read) give the plain reference's bits with core.auto_sync on (the
// default, as CANN builds kernels with --cce-auto-sync) and a wrong answer with it off.
#include <gtest/gtest.h>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>
#include <fmt/format.h>
#include "kernel_operator.h"
#include "tests/support/device_fixture.h"
#include "tests/support/kernel_data.h"
#include "tests/support/reduce_reference.h"
#include "tikicpulib.h"
#include "tlm/stats.h"
#include "tests/support/sanitizer_expect.h"

using namespace AscendC;

namespace auto_sync_samples_test {

constexpr uint32_t kBlocks = 4;

// ---- Row softmax: z = exp(x - max(x)) / sum(exp(x - max(x))), one row of kCols at a time.
constexpr uint32_t kCols = 256;
constexpr uint32_t kRowsPerBlock = 8;

class KernelSoftmaxRows {
 public:
  __aicore__ inline KernelSoftmaxRows() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR z) {
    const uint32_t offset = kCols * kRowsPerBlock * GetBlockIdx();
    xGm.SetGlobalBuffer((__gm__ float*)x + offset, kCols * kRowsPerBlock);
    zGm.SetGlobalBuffer((__gm__ float*)z + offset, kCols * kRowsPerBlock);
    pipe.InitBuffer(inQueueX, 1, kCols * sizeof(float));
    pipe.InitBuffer(outQueueZ, 1, kCols * sizeof(float));
    pipe.InitBuffer(maxBuf, 32);
    pipe.InitBuffer(sumBuf, 32);
    pipe.InitBuffer(workBuf, kCols * sizeof(float));
  }
  __aicore__ inline void Process() {
    for (uint32_t row = 0; row < kRowsPerBlock; ++row) {
      CopyIn(row);
      Compute();
      CopyOut(row);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint32_t row) {
    LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
    DataCopy(xLocal, xGm[row * kCols], kCols);
    inQueueX.EnQue(xLocal);
  }
  __aicore__ inline void Compute() {
    LocalTensor<float> xLocal = inQueueX.DeQue<float>();
    LocalTensor<float> zLocal = outQueueZ.AllocTensor<float>();
    LocalTensor<float> maxLocal = maxBuf.Get<float>();
    LocalTensor<float> sumLocal = sumBuf.Get<float>();
    LocalTensor<float> workLocal = workBuf.Get<float>();
    ReduceMax(maxLocal, xLocal, workLocal, kCols);
    const float rowMax = maxLocal.GetValue(0);
    Adds(zLocal, xLocal, -rowMax, kCols);
    Exp(zLocal, zLocal, kCols);
    ReduceSum(sumLocal, zLocal, workLocal, kCols);
    const float rowSum = sumLocal.GetValue(0);
    Muls(zLocal, zLocal, 1.0f / rowSum, kCols);
    outQueueZ.EnQue<float>(zLocal);
    inQueueX.FreeTensor(xLocal);
  }
  __aicore__ inline void CopyOut(uint32_t row) {
    LocalTensor<float> zLocal = outQueueZ.DeQue<float>();
    DataCopy(zGm[row * kCols], zLocal, kCols);
    outQueueZ.FreeTensor(zLocal);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, 1> inQueueX;
  TQue<QuePosition::VECOUT, 1> outQueueZ;
  TBuf<QuePosition::VECCALC> maxBuf, sumBuf, workBuf;
  GlobalTensor<float> xGm, zGm;
};

extern "C" __global__ __aicore__ void softmax_rows_custom(GM_ADDR x, GM_ADDR z) {
  KernelSoftmaxRows op;
  op.Init(x, z);
  op.Process();
}

std::vector<float> softmax_rows_reference(const std::vector<float>& x) {
  std::vector<float> z(x.size());
  for (size_t r0 = 0; r0 < x.size(); r0 += kCols) {
    float m = x[r0];
    for (uint32_t i = 1; i < kCols; ++i) m = std::max(m, x[r0 + i]);
    std::vector<float> e(kCols);
    for (uint32_t i = 0; i < kCols; ++i) e[i] = std::exp(x[r0 + i] + -m);
    const float inv = 1.0f / npuvp::testing::reduce_sum_count_form(e.data(), kCols);
    for (uint32_t i = 0; i < kCols; ++i) z[r0 + i] = e[i] * inv;
  }
  return z;
}

// ---- Centre each row of 64 on its mean, then scale the tile to unit L2 norm.
constexpr uint32_t kRowLen = 64;  // one repeat of float
constexpr uint32_t kTileRows = 8;
constexpr uint32_t kTileLen = kRowLen * kTileRows;
constexpr uint32_t kTilesPerBlock = 4;

class KernelMeanL2Norm {
 public:
  __aicore__ inline KernelMeanL2Norm() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR z) {
    const uint32_t offset = kTileLen * kTilesPerBlock * GetBlockIdx();
    xGm.SetGlobalBuffer((__gm__ float*)x + offset, kTileLen * kTilesPerBlock);
    zGm.SetGlobalBuffer((__gm__ float*)z + offset, kTileLen * kTilesPerBlock);
    pipe.InitBuffer(inQueueX, 2, kTileLen * sizeof(float));
    pipe.InitBuffer(outQueueZ, 2, kTileLen * sizeof(float));
    pipe.InitBuffer(rowSumBuf, kTileRows * sizeof(float));
    pipe.InitBuffer(centredBuf, kTileLen * sizeof(float));
    pipe.InitBuffer(squareBuf, kTileLen * sizeof(float));
    pipe.InitBuffer(totalBuf, 32);
    pipe.InitBuffer(workBuf, kTileLen * sizeof(float));
  }
  __aicore__ inline void Process() {
    for (uint32_t tile = 0; tile < kTilesPerBlock; ++tile) {
      CopyIn(tile);
      Compute();
      CopyOut(tile);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint32_t tile) {
    LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
    DataCopy(xLocal, xGm[tile * kTileLen], kTileLen);
    inQueueX.EnQue(xLocal);
  }
  __aicore__ inline void Compute() {
    LocalTensor<float> xLocal = inQueueX.DeQue<float>();
    LocalTensor<float> zLocal = outQueueZ.AllocTensor<float>();
    LocalTensor<float> rowSum = rowSumBuf.Get<float>();
    LocalTensor<float> centred = centredBuf.Get<float>();
    LocalTensor<float> square = squareBuf.Get<float>();
    LocalTensor<float> total = totalBuf.Get<float>();
    LocalTensor<float> work = workBuf.Get<float>();
    // One sum per row (repeat), written one float apart.
    WholeReduceSum<float>(rowSum, xLocal, static_cast<int32_t>(kRowLen), kTileRows, 1, 1, 8);
    for (uint32_t r = 0; r < kTileRows; ++r) {
      const float mean = rowSum.GetValue(r) / static_cast<float>(kRowLen);
      Adds(centred[r * kRowLen], xLocal[r * kRowLen], -mean, kRowLen);
    }
    Mul(square, centred, centred, kTileLen);
    ReduceSum(total, square, work, kTileLen);
    const float norm = std::sqrt(total.GetValue(0));
    Muls(zLocal, centred, 1.0f / norm, kTileLen);
    outQueueZ.EnQue<float>(zLocal);
    inQueueX.FreeTensor(xLocal);
  }
  __aicore__ inline void CopyOut(uint32_t tile) {
    LocalTensor<float> zLocal = outQueueZ.DeQue<float>();
    DataCopy(zGm[tile * kTileLen], zLocal, kTileLen);
    outQueueZ.FreeTensor(zLocal);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, 2> inQueueX;
  TQue<QuePosition::VECOUT, 2> outQueueZ;
  TBuf<QuePosition::VECCALC> rowSumBuf, centredBuf, squareBuf, totalBuf, workBuf;
  GlobalTensor<float> xGm, zGm;
};

extern "C" __global__ __aicore__ void mean_l2norm_custom(GM_ADDR x, GM_ADDR z) {
  KernelMeanL2Norm op;
  op.Init(x, z);
  op.Process();
}

std::vector<float> mean_l2norm_reference(const std::vector<float>& x) {
  std::vector<float> z(x.size());
  for (size_t t0 = 0; t0 < x.size(); t0 += kTileLen) {
    std::vector<float> centred(kTileLen), square(kTileLen);
    for (uint32_t r = 0; r < kTileRows; ++r) {
      const float* row = &x[t0 + r * kRowLen];
      const float mean = npuvp::testing::tree_sum(row, kRowLen, kRowLen) / static_cast<float>(kRowLen);
      for (uint32_t i = 0; i < kRowLen; ++i) centred[r * kRowLen + i] = row[i] + -mean;
    }
    for (uint32_t i = 0; i < kTileLen; ++i) square[i] = centred[i] * centred[i];
    const float inv = 1.0f / std::sqrt(npuvp::testing::reduce_sum_count_form(square.data(), kTileLen));
    for (uint32_t i = 0; i < kTileLen; ++i) z[t0 + i] = centred[i] * inv;
  }
  return z;
}

// Runs `kernel` over `x` as the host of a CPU-debug project would; how many results differ in
// their bits from `want`.
template <class Kernel>
size_t mismatches(Kernel kernel, const std::vector<float>& x, const std::vector<float>& want) {
  uint8_t* gx = reinterpret_cast<uint8_t*>(npuvp::testing::to_gm(x));
  uint8_t* gz = static_cast<uint8_t*>(GmAlloc(x.size() * sizeof(float)));
  ICPU_RUN_KF(kernel, kBlocks, gx, gz);
  const float* z = reinterpret_cast<const float*>(gz);
  size_t wrong = 0;
  for (size_t i = 0; i < want.size(); ++i) wrong += npuvp::testing::same_bits(z[i], want[i]) ? 0 : 1;
  GmFree(gx);
  GmFree(gz);
  return wrong;
}

// Over every core (coreN, aicN, aivN, vcoreN).
uint64_t inserted_syncs() {
  const std::string suffix = ".S.auto_sync.syncs";
  uint64_t n = 0;
  for (const auto& [name, counter] : npuvp::Stats::global().counters()) {
    if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
      n += counter->value;
    }
  }
  return n;
}

TEST(AutoSyncSamples, SoftmaxReadingReduceResultsIsRightWithAutoSync) {
  npuvp::testing::make_device();
  const auto x = npuvp::testing::random_vector<float>(kBlocks * kRowsPerBlock * kCols, 11);
  EXPECT_EQ(mismatches(softmax_rows_custom, x, softmax_rows_reference(x)), 0u);
  EXPECT_EQ(inserted_syncs(), 2u * kBlocks * kRowsPerBlock);  // V -> S before each GetValue
}

TEST(AutoSyncSamples, SoftmaxReadingReduceResultsIsWrongWithoutAutoSync) {
  npuvp::testing::make_device({"core.auto_sync=false"});
  const auto x = npuvp::testing::random_vector<float>(kBlocks * kRowsPerBlock * kCols, 11);
  EXPECT_GT(mismatches(softmax_rows_custom, x, softmax_rows_reference(x)), x.size() / 2);
  npuvp::testing::expect_planted({"race", "uninitialized"});  // NPUVP_CHECK=all: the bug is reported
}

// The same on the vector cores of a separated chip and on 310P.
TEST(AutoSyncSamples, SoftmaxIsRightWithAutoSyncOnThe910BVectorCores) {
  npuvp::testing::make_device({}, "ascend910b");
  SetKernelMode(KernelMode::AIV_MODE);
  const auto x = npuvp::testing::random_vector<float>(kBlocks * kRowsPerBlock * kCols, 13);
  EXPECT_EQ(mismatches(softmax_rows_custom, x, softmax_rows_reference(x)), 0u);
  EXPECT_EQ(inserted_syncs(), 2u * kBlocks * kRowsPerBlock);
}

TEST(AutoSyncSamples, MeanL2NormIsRightWithAutoSyncOn310P) {
  npuvp::testing::make_device({}, "ascend310p");
  const auto x = npuvp::testing::random_vector<float>(kBlocks * kTilesPerBlock * kTileLen, 14);
  EXPECT_EQ(mismatches(mean_l2norm_custom, x, mean_l2norm_reference(x)), 0u);
  EXPECT_EQ(inserted_syncs(), 2u * kBlocks * kTilesPerBlock);
}

TEST(AutoSyncSamples, MeanL2NormReadingReduceResultsIsRightWithAutoSync) {
  npuvp::testing::make_device();
  const auto x = npuvp::testing::random_vector<float>(kBlocks * kTilesPerBlock * kTileLen, 12);
  EXPECT_EQ(mismatches(mean_l2norm_custom, x, mean_l2norm_reference(x)), 0u);
  // The first row mean and the norm of each tile wait for V; the other rows' sums are done.
  EXPECT_EQ(inserted_syncs(), 2u * kBlocks * kTilesPerBlock);
}

TEST(AutoSyncSamples, MeanL2NormReadingReduceResultsIsWrongWithoutAutoSync) {
  npuvp::testing::make_device({"core.auto_sync=false"});
  const auto x = npuvp::testing::random_vector<float>(kBlocks * kTilesPerBlock * kTileLen, 12);
  EXPECT_GT(mismatches(mean_l2norm_custom, x, mean_l2norm_reference(x)), x.size() / 2);
  npuvp::testing::expect_planted({"race", "uninitialized"});  // NPUVP_CHECK=all: the bug is reported
}

}  // namespace auto_sync_samples_test
